#!/usr/bin/env bash
# portable.sh: the core as a student's Mac builds it, in build-portable/: clang++ with libc++
# (Apple's toolchain is clang and libc++) and Lectern's own GEMM (-Dblas=disabled: neither
# OpenBLAS nor OpenMP), then the core's tests (autograd, nn, models, data, the gradient-check
# catalog, the PyTorch references). A GCC-only construct, or a dependency on OpenBLAS or
# OpenMP outside autograd/kernels/, fails here rather than on a student's laptop.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_packages.sh setup portable
if [ ! -f build-portable/build.ninja ]; then
  echo "portable: configuring build-portable/ (clang++-14, libc++, -Dblas=disabled)"
  CXX=clang++-14 meson setup build-portable --buildtype=release -Dblas=disabled \
    -Dcpp_args=-stdlib=libc++ -Dcpp_link_args=-stdlib=libc++ -Dplot=disabled -Ddistributed=disabled \
    -Dsword=disabled -Dexamples=disabled -Dbenchmarks=disabled >/dev/null
fi
echo "portable: building (ninja -C build-portable)"
ninja -C build-portable | tail -n 1
for binary in build-portable/tests/autograd/test_autograd build-portable/tests/models/test_models; do
  if ldd "$binary" | grep -E 'libopenblas|libgomp|libomp|libstdc\+\+'; then
    echo "portable: $binary links a library the portable build must not need (above)" >&2
    exit 1
  fi
done
meson test -C build-portable --print-errorlogs --suite autograd --suite nn --suite models --suite data \
  --suite gradcheck --suite reference
