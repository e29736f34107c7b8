#!/usr/bin/env bash
# check_format.sh ROOT: every C++ file of the project reads as clang-format-14
# makes it with ROOT/.clang-format. A file that does not is named with the
# first lines that differ; `clang-format-14 -i FILE` formats it.
set -euo pipefail
cd "$1"
mapfile -t files < <(find benchmarks examples fuzz lectern tests toolchain_checks web -name '*.cpp' -o -name '*.h' | sort)
[ "${#files[@]}" -gt 400 ] || { echo "FAIL: found only ${#files[@]} C++ files under $1"; exit 1; }
if ! clang-format-14 --dry-run --Werror --style=file "${files[@]}" 2>"${TMPDIR:-/tmp}/format.$$"; then
  grep -o '^[^:]*\.\(cpp\|h\):[0-9]*' "${TMPDIR:-/tmp}/format.$$" | sort -u | head -20
  echo "FAIL: not as .clang-format formats them (clang-format-14 -i FILE)"
  rm -f "${TMPDIR:-/tmp}/format.$$"
  exit 1
fi
rm -f "${TMPDIR:-/tmp}/format.$$"
echo "ok: ${#files[@]} C++ files as .clang-format formats them"
