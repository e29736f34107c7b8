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

./scripts/install_packages.sh setup web
# emscripten's JavaScript optimiser is a node program that needs acorn, which Debian
# installs for node in /usr/share/nodejs.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

if [ ! -f build-web/build.ninja ]; then
  echo "web: configuring build-web/ (WebAssembly, the portable GEMM)"
  meson setup build-web --cross-file web/emscripten.cross -Dblas=disabled >/dev/null
fi
if [ "$mode" = --page ]; then
  echo "web: building the page (ninja -C build-web lectern.html)"
  ninja -C build-web lectern.html | tail -n 1
else
  echo "web: building (ninja -C build-web)"
  ninja -C build-web | tail -n 1
fi
echo "web: the page is build-web/lectern.html ($(du -k build-web/lectern.html | cut -f1) KiB, one file)"

if [ "$mode" = test ]; then
  # Every test of the build: the core's (autograd, nn, models), the gradient-check catalog and
  # the PyTorch references under node (the cross file's exe_wrapper), then the page in headless
  # Chromium (suite web). Under node a test takes up to four times its native time.
  meson test -C build-web --print-errorlogs --timeout-multiplier 4
elif [ "$mode" = --compare ]; then
  # The native side: the portable GEMM too, and no contraction of a * b + c into one
  # fused multiply-add, which WebAssembly has not: the two builds then round alike.
  if [ ! -f build-compare/build.ninja ]; then
    echo "web: configuring build-compare/ (native, the portable GEMM, -ffp-contract=off)"
    meson setup build-compare -Dblas=disabled -Dcpp_args=-ffp-contract=off >/dev/null
  fi
  ninja -C build-compare web/session_run | tail -n 1
  web/compare_builds.sh build-compare/web/session_run build-web/web/session_run.js
  web/bench_step.sh build-compare/web/session_run build-web/web/session_run.js
fi
