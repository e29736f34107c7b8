// The portable GEMM (autograd/kernels/gemm_portable.h) against its plain reference
// (autograd/reference/gemm.h), both in the same type, on every shape class the blocking has:
// sizes 0 and 1, odd sizes, and sizes on either side of its tile (MR = 6 rows by NR = 16 floats
// or 8 doubles with AVX2; 8 floats or 4 doubles with 16-byte vectors) and of its blocks (KC = 256
// of k, MC = 120 float or 60 double rows, NC = 4096 float or 2048 double columns); row strides
// wider than the matrices; all four transposes; beta 0 over a C full of NaN, and beta 1.
//
// The bound: each of the two sums the same k products in its own order, one of them perhaps with
// fused multiply-adds, so each is within (k + 1) u of the exact value relative to the sum of
// the terms' magnitudes (u = 2^-24 in float, 2^-53 in double; beta 1 adds C's magnitude and one
// more rounding). Element by element:
//   |fast - reference| <= 2 (k + 2) u (sum over p of |op(A)[i][p] op(B)[p][j]| + |C[i][j]|)
// A tile stored at the wrong place, a term left out or counted twice, or C read under beta 0 is
// far outside it.
#include "check.h"

#include <cstring>
#include <limits>
#include <vector>

#include "lectern/autograd/kernels/gemm_portable.h"
#include "lectern/autograd/reference/gemm.h"

using namespace autograd;

namespace {

template <class T>
std::vector<T> normals(std::int64_t n, std::uint64_t seed) {
    Generator gen(seed);
    std::vector<T> v(static_cast<std::size_t>(n));
    for (T& x : v) x = static_cast<T>(gen.normal());
    return v;
}

// One product through the kernel and the reference: A, B and C each in a buffer whose rows are
// wider than the matrix, C's extra columns holding a value that must survive.
template <class T>
void require_gemm_equals_reference(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, T beta) {
    constexpr T kOutside = T(12345);
    const std::int64_t a_rows = ta ? k : m, a_cols = ta ? m : k, lda = a_cols + 3;
    const std::int64_t b_rows = tb ? n : k, b_cols = tb ? k : n, ldb = b_cols + 5;
    const std::int64_t ldc = n + 2;
    const std::vector<T> a = normals<T>(a_rows * lda, 1), b = normals<T>(b_rows * ldb, 2);
    std::vector<T> c0(static_cast<std::size_t>(m * ldc), kOutside);
    const std::vector<T> start = normals<T>(m * n, 3);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j)
            c0[static_cast<std::size_t>(i * ldc + j)] =
                beta == T(0) ? std::numeric_limits<T>::quiet_NaN() : start[static_cast<std::size_t>(i * n + j)];
    std::vector<T> fast = c0, want = c0;
    detail::portable_gemm(ta, tb, m, n, k, a.data(), lda, b.data(), ldb, fast.data(), ldc, beta);
    reference::gemm(ta, tb, m, n, k, a.data(), lda, b.data(), ldb, want.data(), ldc, beta);

    const double u = std::numeric_limits<T>::epsilon() / 2;
    double worst = 0;  // the largest |fast - reference| / bound; a NaN is infinitely far
    std::int64_t worst_i = 0, worst_j = 0;
    bool outside_kept = true;  // C's neighbours untouched
    for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = n; j < ldc; ++j) outside_kept &= fast[static_cast<std::size_t>(i * ldc + j)] == kOutside;
        for (std::int64_t j = 0; j < n; ++j) {
            double magnitude =
                beta == T(0) ? 0.0 : std::abs(static_cast<double>(c0[static_cast<std::size_t>(i * ldc + j)]));
            for (std::int64_t p = 0; p < k; ++p)
                magnitude += std::abs(static_cast<double>(ta ? a[p * lda + i] : a[i * lda + p]) *
                                      static_cast<double>(tb ? b[j * ldb + p] : b[p * ldb + j]));
            const double bound = 2.0 * static_cast<double>(k + 2) * u * magnitude;
            const double diff = std::abs(static_cast<double>(fast[static_cast<std::size_t>(i * ldc + j)]) -
                                         static_cast<double>(want[static_cast<std::size_t>(i * ldc + j)]));
            const double ratio = std::isnan(diff) ? std::numeric_limits<double>::infinity()
                                 : diff == 0      ? 0.0
                                                  : diff / bound;
            if (ratio > worst) worst = ratio, worst_i = i, worst_j = j;
        }
    }
    if (!outside_kept) FAIL(fmt::format("m {}, n {}, k {}: an element beside C was written", m, n, k));
    if (worst > 1.0)
        FAIL(
            fmt::format("{} A{} B{}, m {}, n {}, k {}, beta {}: element [{}, {}] fast {:.17g}, reference {:.17g}, "
                        "{:.3g} times the bound",
                        sizeof(T) == 4 ? "float" : "double", ta ? "^T" : "", tb ? "^T" : "", m, n, k, beta, worst_i,
                        worst_j, fast[static_cast<std::size_t>(worst_i * ldc + worst_j)],
                        want[static_cast<std::size_t>(worst_i * ldc + worst_j)], worst));
}

template <class T>
void require_every_shape_class() {
    for (bool ta : {false, true})
        for (bool tb : {false, true})
            for (T beta : {T(0), T(1)}) {
                // 119 and 121 rows straddle a block of rows, MC in float and 2 MC in double.
                for (std::int64_t m : {0, 1, 5, 6, 7, 13, 119, 121})
                    for (std::int64_t n : {0, 1, 7, 8, 9, 16, 17, 33})
                        for (std::int64_t k : {0, 1, 3, 255, 256, 257})
                            require_gemm_equals_reference<T>(ta, tb, m, n, k, beta);
                // Across a block of columns (NC), for float and for double, and two blocks of k.
                for (std::int64_t n : {2047, 2049, 4095, 4097}) require_gemm_equals_reference<T>(ta, tb, 7, n, 3, beta);
                require_gemm_equals_reference<T>(ta, tb, 31, 19, 600, beta);
            }
}

}  // namespace

TEST_CASE("the portable GEMM equals the reference GEMM on every shape class, float", "[gemm]") {
    require_every_shape_class<float>();
}

TEST_CASE("the portable GEMM equals the reference GEMM on every shape class, double", "[gemm]") {
    require_every_shape_class<double>();
}

TEST_CASE("the portable GEMM gives the same bits however C's rows are split between calls", "[gemm]") {
    // gemm.h splits C's rows between the threads; each element's sum must not depend on it.
    for (bool ta : {false, true})
        for (bool tb : {false, true}) {
            const std::int64_t m = 250, n = 37, k = 300;
            INFO("A" << (ta ? "^T" : "") << " B" << (tb ? "^T" : ""));
            const std::vector<float> a = normals<float>(m * k, 7), b = normals<float>(k * n, 8);
            const std::int64_t lda = ta ? m : k, ldb = tb ? k : n;
            std::vector<float> whole(static_cast<std::size_t>(m * n));
            detail::portable_gemm(ta, tb, m, n, k, a.data(), lda, b.data(), ldb, whole.data(), n, 0.0f);
            for (std::int64_t split : {1, 7, 24, 121, 249}) {
                INFO("rows split at " << split);
                std::vector<float> parts(whole.size());
                for (auto [r0, r1] : {std::pair{std::int64_t{0}, split}, std::pair{split, m}})
                    detail::portable_gemm(ta, tb, r1 - r0, n, k, ta ? a.data() + r0 : a.data() + r0 * lda, lda,
                                          b.data(), ldb, parts.data() + r0 * n, n, 0.0f);
                REQUIRE(std::memcmp(parts.data(), whole.data(), whole.size() * sizeof(float)) == 0);
            }
        }
}
