// gemm.h's calls through Lectern's own GEMM (the portable build, meson -Dblas=disabled, or
// auto without OpenBLAS): no OpenBLAS and no OpenMP; and blas_core.h's honest answers.
#include "lectern/autograd/blas_core.h"
#include "lectern/autograd/kernels/gemm.h"
#include "lectern/autograd/kernels/gemm_portable.h"

namespace autograd {

bool blas_is_openblas() { return false; }

std::string blas_core_name() { return "portable"; }

namespace detail {

template <class T>
void gemm_call(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
               const T* b, std::int64_t ldb, T* c, std::int64_t ldc, T beta) {
    portable_gemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, beta);
}

template void gemm_call<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, const float*, std::int64_t,
                               const float*, std::int64_t, float*, std::int64_t, float);
template void gemm_call<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t, const double*, std::int64_t,
                                const double*, std::int64_t, double*, std::int64_t, double);

}  // namespace detail
}  // namespace autograd
