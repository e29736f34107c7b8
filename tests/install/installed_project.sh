#!/usr/bin/env bash
# Lectern as another project uses it (docs/library.md): installed from the build
# into a staging prefix, every installed header compiled alone against that
# prefix, then the outside project in project/ built and run four ways: by meson
# through pkg-config, by CMake through pkg-config and through Lectern's CMake package
# (find_package), and by meson with Lectern as a subproject of a parent configured without a buildtype (so at -O0).
#   installed_project.sh SOURCE_ROOT BUILD_ROOT WORK_DIR
set -euo pipefail
src=$1 build=$2 work=$3
project=$src/tests/install/project
fail() { echo "installed_project: $*" >&2; exit 1; }

# 1. Install. The build is already made (meson test builds first), so nothing is
# compiled; the prefix= of the .pc files then names the staged copy.
rm -rf "$work/stage"
mkdir -p "$work"
meson install -C "$build" --destdir "$work/stage" --no-rebuild --quiet >/dev/null
staged_prefix=$work/stage$(meson introspect "$build" --buildoptions |
  python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
pc=$(find "$staged_prefix" -name lectern.pc)
[ -n "$pc" ] || fail "meson install wrote no lectern.pc"
pcdir=$(dirname "$pc")
sed -i "s|^prefix=.*|prefix=$staged_prefix|" "$pcdir"/lectern*.pc
include=$staged_prefix/include
[ -f "$include/lectern/autograd/autograd.h" ] || fail "no header installed under $include/lectern"

# 2. Headers: each source header of an installed layer is installed or listed as
# internal, and each installed header compiles alone with only -I PREFIX/include
# (an installed header that includes one not installed fails here).
internal=$(grep -v '^#' "$src/tests/install/internal_headers.txt")
for layer_dir in "$include"/lectern/*/; do
  layer=$(basename "$layer_dir")
  while read -r header; do
    name=${header#"$src"/}
    [ -f "$include/$name" ] && continue
    listed=no
    for entry in $internal; do [[ $name == "$entry"* ]] && listed=yes; done
    [ $listed = yes ] || fail "$name is neither installed nor listed in tests/install/internal_headers.txt"
  done < <(find "$src/lectern/$layer" -name '*.h')
done
for entry in $internal; do
  [ ! -e "$include/$entry" ] || fail "$entry is listed as internal but installed"
done
headers=$(cd "$include" && find lectern -name '*.h' | sort)
echo "$headers" | xargs -P 2 -I{} sh -c \
  'printf "#include <%s>\n" "$2" | c++ -std=c++20 -fsyntax-only -I"$1" -x c++ - || { echo "  (in $2)" >&2; exit 1; }' \
  sh "$include" {} || fail "an installed header does not compile alone with -I PREFIX/include (errors above)"
echo "installed_project: $(echo "$headers" | wc -l) installed headers compile alone against $include"

# docs/library.md shows these programs: each code block whose paragraph names a file
# of project/ must still be in that file, word for word.
python3 - "$src" <<'PY' || fail "docs/library.md no longer shows what tests/install/project/ holds (above)"
import re, sys
src = sys.argv[1]
doc = open(f"{src}/docs/library.md").read()
checked = 0
for m in re.finditer(r"([^\n]*(?:\n[^\n]+)*)\n\n?```\w*\n(.*?)```", doc, re.S):
    named = re.findall(r"`tests/install/project/([\w.]+)`", m.group(1))
    if not named:
        continue
    if m.group(2) not in open(f"{src}/tests/install/project/{named[-1]}").read():
        sys.exit(f"docs/library.md: a block of {named[-1]} differs from the file:\n{m.group(2)}")
    checked += 1
if checked < 6:
    sys.exit(f"docs/library.md: {checked} blocks name a file of tests/install/project/, expected 6")
print(f"installed_project: docs/library.md's {checked} blocks from tests/install/project/ match the files")
PY

source "$src/tests/install/check_programs.sh"

# 3. Meson, pkg-config: nofallback, so that only lectern.pc can satisfy dependency('lectern').
rm -rf "$work/pkgconfig"
PKG_CONFIG_PATH=$pcdir meson setup "$work/pkgconfig" "$project" --buildtype=release --wrap-mode=nofallback >/dev/null \
  || fail "meson setup of the outside project through pkg-config failed"
ninja -C "$work/pkgconfig" >/dev/null || fail "the outside project does not build against the installed library"
check_programs "$work/pkgconfig" "meson + pkg-config"

# 4. CMake, twice: through lectern.pc (pkg_check_modules), then through Lectern's own CMake
# package (find_package(Lectern) under the staged prefix), each from a fresh build folder.
for route in pkg-config package; do
  rm -rf "$work/cmake-$route"
  PKG_CONFIG_PATH=$pcdir cmake -S "$project" -B "$work/cmake-$route" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_PREFIX_PATH="$staged_prefix" \
    -DLECTERN_BY_PKG_CONFIG=$([ $route = pkg-config ] && echo ON || echo OFF) >/dev/null \
    || fail "cmake could not configure the outside project through $route"
  ninja -C "$work/cmake-$route" >/dev/null || fail "cmake's build of the outside project through $route failed"
  check_programs "$work/cmake-$route" "cmake + $route"
done

# 5. Meson subproject: the project beside a wrap whose directory, subprojects/lectern,
# is this source tree, Lectern's optional layers off (the core needs none of their
# dependencies). The parent is at -O0 (debug=false: no -g, to spare the compiler):
# Lectern must say so, build its libraries at -O3 all the same, and build none of
# its programs or tests. The parent's build is kept between runs, as ccache is, so
# that a run rebuilds only what changed.
parent=$work/parent
mkdir -p "$parent/subprojects"
cp -p "$project"/meson.build "$project"/*.cpp "$parent"/
ln -sfn "$src" "$parent/subprojects/lectern"
printf '[wrap-git]\nurl = %s\nrevision = HEAD\ndirectory = lectern\n\n[provide]\ndependency_names = lectern\n' "$src" \
  >"$parent/subprojects/lectern.wrap"
reconfigure=()
[ -f "$parent/build/build.ninja" ] && reconfigure=(--reconfigure)
setup=$(meson setup "${reconfigure[@]}" "$parent/build" "$parent" --force-fallback-for=lectern -Ddebug=false \
  -Dlectern:data=disabled -Dlectern:plot=disabled -Dlectern:distributed=disabled -Dlectern:sword=disabled 2>&1) \
  || { echo "$setup" >&2; fail "meson setup of a parent with Lectern as a subproject failed"; }
echo "$setup" | grep -q "Lectern's libraries are built at -O3 anyway" \
  || fail "a parent at -O0 was not warned that Lectern's libraries are built at -O3"
targets=$(ninja -C "$parent/build" -t targets all)
if echo "$targets" | grep -q 'subprojects/lectern/\(examples\|tests\|benchmarks\|lectern/data\|lectern/plot\)/'; then
  fail "Lectern as a subproject builds its programs, tests, benchmarks or a disabled layer"
fi
ninja -C "$parent/build" >/dev/null || fail "the parent does not build with Lectern as a subproject"
grep -q '"command": "[^"]* -O3 [^"]*lectern/autograd/ops/matmul.cpp' "$parent/build/compile_commands.json" \
  || fail "Lectern's kernels were not compiled at -O3 under a -O0 parent"
check_programs "$parent/build" "meson subproject"
