#!/usr/bin/env bash
# The library alone, installed without root (docs/library.md, "The library alone, without
# root"): the command the page shows, run from the source tree with its build folder and
# ~/.local moved under WORK_DIR; then what it installed is checked (the core and data,
# nothing of plot, distributed, run, the SWORD reader or the programs) and the outside
# project in project/ is built against it by CMake's find_package(Lectern) and run.
#   library_only.sh SOURCE_ROOT WORK_DIR
set -euo pipefail
src=$1 work=$2
project=$src/tests/install/project
fail() { echo "library_only: $*" >&2; exit 1; }

command=$(grep -m1 -- '-Dlibrary_only=true --prefix ~/.local' "$src/docs/library.md") \
  || fail "docs/library.md no longer shows the library-only install command"
prefix=$work/home/.local
build=$work/build-lib
command=${command//'~/.local'/$prefix}
command=${command//build-lib/$build}
# The build folder is kept between runs, as ccache is, so a run compiles only what changed.
[ -f "$build/build.ninja" ] && command=${command/meson setup /meson setup --reconfigure }
rm -rf "$prefix"
(cd "$src" && eval "$command") >"$work/library_only.log" 2>&1 \
  || { tail -20 "$work/library_only.log" >&2; fail "the library-only install failed: $command"; }

targets=$(ninja -C "$build" -t targets all)
if echo "$targets" | grep -q '^\(examples\|tests\|benchmarks\|lectern/run\|lectern/plot\|lectern/distributed\)/'; then
  fail "-Dlibrary_only=true still builds programs, tests, benchmarks, run, plot or distributed"
fi
if echo "$targets" | grep -q 'sword'; then fail "-Dlibrary_only=true still builds the SWORD reader"; fi
for want in include/lectern/autograd/autograd.h include/lectern/nn/nn.h include/lectern/models/models.h; do
  [ -f "$prefix/$want" ] || fail "$want is not installed under $prefix"
done
for unwanted in include/lectern/plot include/lectern/distributed include/lectern/run; do
  [ ! -e "$prefix/$unwanted" ] || fail "$unwanted is installed, but -Dlibrary_only=true leaves it out"
done
libdir=$(dirname "$(find "$prefix" -name liblectern_autograd.a)")
for lib in autograd nn models; do [ -f "$libdir/liblectern_$lib.a" ] || fail "liblectern_$lib.a is not installed"; done
for lib in plot distributed; do [ ! -e "$libdir/liblectern_$lib.a" ] || fail "liblectern_$lib.a is installed"; done
[ -f "$libdir/pkgconfig/lectern.pc" ] || fail "lectern.pc is not installed"
[ -f "$libdir/cmake/Lectern/LecternConfig.cmake" ] || fail "the CMake package is not installed under $libdir/cmake/Lectern"
echo "library_only: installed under $prefix: $(cd "$prefix" && find . -name '*.a' | sort | tr '\n' ' ')"

rm -rf "$work/cmake-library-only"
cmake -S "$project" -B "$work/cmake-library-only" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_PREFIX_PATH="$prefix" >/dev/null \
  || fail "cmake's find_package(Lectern) did not find the library installed under $prefix"
ninja -C "$work/cmake-library-only" >/dev/null || fail "the outside project does not build against $prefix"
source "$src/tests/install/check_programs.sh"
check_programs "$work/cmake-library-only" "library only, cmake find_package"
