#pragma once
// Matrix products of one attention head's small matrices (a few dozen rows and columns),
// where a BLAS call's fixed cost, its argument checks and the packing of both operands,
// outweighs the arithmetic. Internal to autograd; attention.cpp chooses it by size.
//   C[i][j] = sum_c A(i, c) B[c][j],   i < m, j < n, c < k
// A(i, c) = a[i * a_row + c * a_col] (a_row = lda, a_col = 1 for A; 1, lda for A^T).
// C is computed in tiles of 4 rows and 8 columns held in registers, summing over c in
// order, so the result does not depend on the machine or the thread.
#include <algorithm>
#include <cstdint>
#include <cstring>

namespace autograd::detail {

inline constexpr std::int64_t kTileCols = 8;

inline std::int64_t padded_cols(std::int64_t n) { return (n + kTileCols - 1) / kTileCols * kTileCols; }

// Eight lanes of T as one value (GCC's and Clang's vector extension: one register with
// AVX2 for float, two for double or with SSE only). Written out, because GCC 12 vectorised
// the plain loop over c instead, with gathers, ten times slower.
template <class T>
struct LanesOf;
template <>
struct LanesOf<float> {
    typedef float type __attribute__((vector_size(kTileCols * sizeof(float))));
};
template <>
struct LanesOf<double> {
    typedef double type __attribute__((vector_size(kTileCols * sizeof(double))));
};

// Rows i0 .. i0 + R of C, columns j0 .. j0 + 8 W (of which the first `width` are stored):
// b points at B[0][j0], whose rows are b_row apart and readable 8 W columns wide. R W
// running sums, so that the multiply-adds do not wait on each other.
template <int R, int W, class T>
inline void small_gemm_tile(std::int64_t k, const T* a, std::int64_t a_row, std::int64_t a_col, const T* b,
                            std::int64_t b_row, T* c, std::int64_t ldc, std::int64_t width) {
    using V = typename LanesOf<T>::type;
    V acc[R][W] = {};
    for (std::int64_t x = 0; x < k; ++x) {
        V bx[W];
        for (int w = 0; w < W; ++w) std::memcpy(&bx[w], b + x * b_row + w * kTileCols, sizeof(V));  // unaligned loads
        for (int r = 0; r < R; ++r) {
            const T ar = a[r * a_row + x * a_col];
            for (int w = 0; w < W; ++w) acc[r][w] += ar * bx[w];
        }
    }
    // Whole vectors stored as such; the sums stay in registers only while no element of
    // them is read by a run-time index.
    for (int r = 0; r < R; ++r)
        for (int w = 0; w < W; ++w) {
            T* out = c + r * ldc + w * kTileCols;
            const std::int64_t left = width - w * kTileCols;
            const V sum = acc[r][w];
            if (left >= kTileCols) {
                std::memcpy(out, &sum, sizeof(V));
            } else if (left > 0) {
                T part[kTileCols];
                std::memcpy(part, &sum, sizeof(V));
                std::copy(part, part + left, out);
            }
        }
}

// Columns j0 .. j0 + 8 W of C, every row: tiles of 4 rows, then the 1 to 3 left.
template <int W, class T>
void small_gemm_columns(std::int64_t m, std::int64_t k, const T* a, std::int64_t a_row, std::int64_t a_col,
                        const T* b, std::int64_t b_row, T* c, std::int64_t ldc, std::int64_t width) {
    std::int64_t i = 0;
    for (; i + 4 <= m; i += 4)
        small_gemm_tile<4, W>(k, a + i * a_row, a_row, a_col, b, b_row, c + i * ldc, ldc, width);
    const T* ai = a + i * a_row;
    T* ci = c + i * ldc;
    switch (m - i) {
        case 3: small_gemm_tile<3, W>(k, ai, a_row, a_col, b, b_row, ci, ldc, width); break;
        case 2: small_gemm_tile<2, W>(k, ai, a_row, a_col, b, b_row, ci, ldc, width); break;
        case 1: small_gemm_tile<1, W>(k, ai, a_row, a_col, b, b_row, ci, ldc, width); break;
        default: break;
    }
}

// C = A B for B whose rows are b_row apart and readable padded_cols(n) wide (pad B, see
// pack_rows and pack_transposed, when n is not a multiple of 8); C's rows are ldc apart.
template <class T>
void small_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t a_row, std::int64_t a_col,
                const T* b, std::int64_t b_row, T* c, std::int64_t ldc) {
    std::int64_t j = 0;
    for (; j + kTileCols < n; j += 2 * kTileCols)  // 9 or more columns left: two vectors wide
        small_gemm_columns<2>(m, k, a, a_row, a_col, b + j, b_row, c + j, ldc, std::min(2 * kTileCols, n - j));
    if (j < n) small_gemm_columns<1>(m, k, a, a_row, a_col, b + j, b_row, c + j, ldc, n - j);
}

// out[r][j] = src[r * ld + j] for r < rows, j < cols, and 0 up to padded_cols(cols).
template <class T>
void pack_rows(const T* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, T* out) {
    const std::int64_t w = padded_cols(cols);
    for (std::int64_t r = 0; r < rows; ++r) {
        std::copy(src + r * ld, src + r * ld + cols, out + r * w);
        std::fill(out + r * w + cols, out + (r + 1) * w, T(0));
    }
}

// out[c][j] = src[j * ld + c] (the transpose of src's rows x cols), for c < cols, j < rows,
// and 0 up to padded_cols(rows).
template <class T>
void pack_transposed(const T* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, T* out) {
    const std::int64_t w = padded_cols(rows);
    for (std::int64_t c = 0; c < cols; ++c) {
        for (std::int64_t j = 0; j < rows; ++j) out[c * w + j] = src[j * ld + c];
        std::fill(out + c * w + rows, out + (c + 1) * w, T(0));
    }
}

}  // namespace autograd::detail
