#!/usr/bin/env bash
# web.sh: the WebAssembly build (docs/web.md). Installs what it needs (Debian's
# emscripten, node, Chromium, the headers), configures build-web/ with
# web/emscripten.cross and the portable GEMM, builds the page build-web/lectern.html
# and runs the web build's tests: the core's under node, the page in headless Chromium.
#   ./scripts/web.sh              all of that
#   ./scripts/web.sh --page       the page alone, no tests
#   ./scripts/web.sh --compare    then the same run natively and under node, loss by loss
#                                 (web/compare_builds.sh), and their step times (web/bench_step.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-test}
case "$mode" in test|--page|--compare) ;; *) echo "usage: scripts/web.sh [--page | --compare]" >&2; exit 2 ;; esac

./scripts/install_packages.sh emscripten nodejs node-acorn libfmt-dev nlohmann-json3-dev catch2 \
  meson ninja-build pkg-config python3 chromium
# emscripten's JavaScript optimiser is a node program that needs acorn, which Debian
# installs for node in /usr/share/nodejs.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

if [ ! -f build-web/build.ninja ]; then
  echo "web: configuring build-web/ (WebAssembly, the portable GEMM)"
  meson setup build-web --cross-file web/emscripten.cross -Dblas=disabled >/dev/null
fi
# The page, the session's program and the gradient-check catalog: what has been run under
# node and Chromium so far (docs/web.md, "Tests"); ninja -C build-web builds every test program.
targets=(lectern.html web/session_run.js)
[ "$mode" = --page ] || targets+=(tests/gradcheck/test_gradcheck_catalog.js)
echo "web: building ${targets[*]} (ninja -C build-web)"
ninja -C build-web "${targets[@]}" | tail -n 1
echo "web: the page is build-web/lectern.html ($(du -k build-web/lectern.html | cut -f1) KiB, one file)"

if [ "$mode" = test ]; then
  # The two suites' programs, run as meson test runs them (meson test would first want every
  # test program of build-web/ built).
  echo "web: the gradient-check catalog under node"
  node build-web/tests/gradcheck/test_gradcheck_catalog.js | tail -n 1
  echo "web: the page in headless Chromium"
  python3 web/page_in_browser.py "$(command -v chromium)" build-web/lectern.html
elif [ "$mode" = --compare ]; then
  # The native side: the portable GEMM too, and no contraction of a * b + c into one
  # fused multiply-add, which WebAssembly has not: the two builds then round alike.
  if [ ! -f build-portable/build.ninja ]; then
    echo "web: configuring build-portable/ (native, the portable GEMM, -ffp-contract=off)"
    meson setup build-portable -Dblas=disabled -Dcpp_args=-ffp-contract=off >/dev/null
  fi
  ninja -C build-portable web/session_run | tail -n 1
  web/compare_builds.sh build-portable/web/session_run build-web/web/session_run.js
  web/bench_step.sh build-portable/web/session_run build-web/web/session_run.js
fi
