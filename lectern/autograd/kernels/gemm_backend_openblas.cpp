// gemm.h's calls through OpenBLAS (the default build, meson -Dblas=auto or enabled), and
// blas_core.h's name of the kernels it runs.
#include <cblas.h>
#include <omp.h>

#include <type_traits>

#include "lectern/autograd/blas_core.h"
#include "lectern/autograd/kernels/gemm.h"

namespace autograd {

bool blas_is_openblas() { return true; }

std::string blas_core_name() { return openblas_get_corename(); }

namespace detail {
namespace {

static_assert(std::numeric_limits<blasint>::max() == kBlasMax, "gemm.h's size limit is OpenBLAS's blasint");

// OpenBLAS splits a call over as many threads as OpenMP allows outside a parallel region,
// and its split rounds differently from one thread's. Every call here runs on one thread:
// inside the parallel loops of gemm.h, where OpenBLAS is serial, or with this thread's OpenMP
// limit at 1 for the call's length. The threads' work is split by those loops alone.
class SerialBlas {
public:
    SerialBlas() : saved_(omp_in_parallel() ? 1 : omp_get_max_threads()) {
        if (saved_ > 1) omp_set_num_threads(1);
    }
    ~SerialBlas() {
        if (saved_ > 1) omp_set_num_threads(saved_);
    }
    SerialBlas(const SerialBlas&) = delete;
    SerialBlas& operator=(const SerialBlas&) = delete;

private:
    int saved_;
};

}  // namespace

// One BLAS call; under beta 0 BLAS zeroes C in a pass of its own first.
template <class T>
void gemm_call(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
               const T* b, std::int64_t ldb, T* c, std::int64_t ldc, T beta) {
    const auto fa = ta ? CblasTrans : CblasNoTrans;
    const auto fb = tb ? CblasTrans : CblasNoTrans;
    const auto M = static_cast<blasint>(m), N = static_cast<blasint>(n), K = static_cast<blasint>(k);
    const auto LDA = static_cast<blasint>(lda), LDB = static_cast<blasint>(ldb), LDC = static_cast<blasint>(ldc);
    SerialBlas serial;
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemm(CblasRowMajor, fa, fb, M, N, K, 1.0f, a, LDA, b, LDB, beta, c, LDC);
    else cblas_dgemm(CblasRowMajor, fa, fb, M, N, K, 1.0, a, LDA, b, LDB, beta, c, LDC);
}

template void gemm_call<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, const float*, std::int64_t,
                               const float*, std::int64_t, float*, std::int64_t, float);
template void gemm_call<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t, const double*, std::int64_t,
                                const double*, std::int64_t, double*, std::int64_t, double);

}  // namespace detail
}  // namespace autograd
