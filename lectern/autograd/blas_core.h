#pragma once
// Which kernels OpenBLAS runs. Debian's OpenBLAS picks them at start from the
// CPU it recognises, and on a CPU it does not know it falls back to old SSE3
// kernels ("Prescott") that run matrix products at a third of an AVX2 core,
// silently. OPENBLAS_CORETYPE, read when the library loads, overrides it.
#include <string>

namespace autograd {

// Whether this build's matrix products run on OpenBLAS: false in the portable build (meson
// -Dblas=disabled), where Lectern's own GEMM runs them (kernels/gemm_portable.h) and there are
// no kernels to choose. The backend's file in kernels/ defines this and blas_core_name().
bool blas_is_openblas();

// OpenBLAS's name for the kernels it runs ("Haswell", "SkylakeX", "Prescott"); "portable" in
// the portable build.
std::string blas_core_name();

// The vector instructions the kernels of an OpenBLAS core name use, and those
// of this CPU: 0 SSE, 1 AVX, 2 AVX2 with FMA, 3 AVX-512.
int blas_core_level(const std::string& core);
int cpu_vector_level();

// The core to ask for on this CPU: "SkylakeX" with AVX-512, "Haswell" with
// AVX2 and FMA, "" without, and "" in the portable build.
std::string best_blas_core();

// One line when OPENBLAS_CORETYPE names kernels other than those OpenBLAS
// runs (a name it does not know, or kernels it lacks: it then picks its own),
// or when it runs kernels below AVX2 on a CPU with AVX2 (the
// third-of-the-machine case), naming the fix; "" otherwise. An AVX2 core on an
// AVX-512 CPU is no such loss and is left alone (it is sometimes the faster).
// Never one in the portable build.
std::string blas_core_warning();

}  // namespace autograd
