// Attention's per-head products (head_products.h) against plain loops, over sizes that
// reach every tile and edge: rows in tiles of 4 and the 1 to 3 left, columns in blocks of
// 24, 16 and 8 with a partial register, B in place and packed, A and its transpose.
#include "check.h"

#include <vector>

#include "autograd/kernels/head_products.h"

using namespace autograd::detail;

namespace {

// Small integers: every product and sum is exact in float and double, so the kernels'
// results must equal the plain loops' exactly whatever order they add in.
template <class T>
std::vector<T> ints(std::int64_t n, int seed) {
    std::vector<T> v(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<T>((i * 7 + seed * 13) % 11 - 5);
    return v;
}

// C = A B with plain loops; A(i, x) = a[i * a_row + x * a_col], B's rows ldb apart.
template <class T>
std::vector<T> reference(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t a_row,
                         std::int64_t a_col, const T* b, std::int64_t ldb) {
    std::vector<T> c(static_cast<std::size_t>(m * n), T(0));
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j)
            for (std::int64_t x = 0; x < k; ++x) c[i * n + j] += a[i * a_row + x * a_col] * b[x * ldb + j];
    return c;
}

template <class T>
void check_sizes(std::int64_t m, std::int64_t n, std::int64_t k) {
    INFO("m " << m << ", n " << n << ", k " << k);
    const std::int64_t lda = k + 3, ldc = n + 5;  // A and C as columns of wider tensors
    const std::vector<T> a = ints<T>(m * lda, 1), at = ints<T>(k * (m + 2), 2);
    const std::vector<T> b = ints<T>(k * (n + 4), 3);
    std::vector<T> packed(static_cast<std::size_t>(k * padded_width(n)));
    pack_rows(b.data(), n + 4, k, n, packed.data());
    // A as rows (a_row = lda, a_col = 1) and as a transpose (a_row = 1, a_col = m + 2).
    for (bool transposed : {false, true}) {
        const T* av = transposed ? at.data() : a.data();
        const std::int64_t a_row = transposed ? 1 : lda, a_col = transposed ? m + 2 : 1;
        std::vector<T> c(static_cast<std::size_t>(m * ldc), T(-99));
        head_product(m, n, k, av, a_row, a_col, packed.data(), padded_width(n), c.data(), ldc);
        const std::vector<T> want = reference(m, n, k, av, a_row, a_col, b.data(), n + 4);
        for (std::int64_t i = 0; i < m; ++i) {
            for (std::int64_t j = 0; j < n; ++j) REQUIRE(c[i * ldc + j] == want[i * n + j]);
            for (std::int64_t j = n; j < ldc; ++j) REQUIRE(c[i * ldc + j] == T(-99));  // C's neighbours untouched
        }
    }
}

}  // namespace

TEST_CASE("head_product equals plain loops at every tile and edge size", "[forward]") {
    for (std::int64_t m : {1, 2, 3, 4, 5, 7, 17})
        for (std::int64_t n : {1, 7, 8, 9, 16, 17, 24, 25, 41, 64})
            for (std::int64_t k : {1, 3, 16, 17}) {
                check_sizes<float>(m, n, k);
                check_sizes<double>(m, n, k);
            }
}

TEST_CASE("head_product reads B in place when its width is whole registers", "[forward]") {
    // n = 16: B's rows read straight from a wider tensor, as attention reads V_i.
    const std::int64_t m = 6, n = 16, k = 5, ldb = 40;
    const std::vector<float> a = ints<float>(m * k, 4), b = ints<float>(k * ldb, 5);
    std::vector<float> c(static_cast<std::size_t>(m * n));
    head_product(m, n, k, a.data(), k, 1, b.data(), ldb, c.data(), n);
    const std::vector<float> want = reference(m, n, k, a.data(), k, 1, b.data(), ldb);
    for (std::size_t i = 0; i < c.size(); ++i) REQUIRE(c[i] == want[i]);
}

TEST_CASE("pack_transposed transposes whole blocks and edges, and pads with zeros", "[forward]") {
    for (std::int64_t rows : {1, 5, 8, 9, 17, 24})
        for (std::int64_t cols : {1, 3, 8, 12, 16, 20}) {
            INFO("rows " << rows << ", cols " << cols);
            const std::int64_t ld = cols + 2, w = padded_width(rows);
            const std::vector<double> src = ints<double>(rows * ld, 6);
            std::vector<double> out(static_cast<std::size_t>(cols * w), -99.0);
            pack_transposed(src.data(), ld, rows, cols, out.data());
            for (std::int64_t c = 0; c < cols; ++c)
                for (std::int64_t r = 0; r < w; ++r) REQUIRE(out[c * w + r] == (r < rows ? src[r * ld + c] : 0.0));
            std::vector<float> src32(src.begin(), src.end()), out32(static_cast<std::size_t>(cols * w), -99.0f);
            pack_transposed(src32.data(), ld, rows, cols, out32.data());
            for (std::size_t i = 0; i < out.size(); ++i) REQUIRE(out32[i] == static_cast<float>(out[i]));
        }
}
