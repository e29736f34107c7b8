#pragma once
// The matrix products of one attention head (attention_head.cpp): a few dozen rows and columns,
// where a BLAS call's fixed costs, packing both operands into buffers and taking one from
// a pool shared by the threads, outweigh the arithmetic. Internal to autograd.
//   C[i][0..n) = sum over x < k of A(i, x) B[x][0..n),   i < m
// A(i, x) = a[i * a_row + x * a_col]: A itself (a_row = lda, a_col = 1) or a transpose
// (a_row = 1, a_col = lda). B's rows are read in whole vectors: B in place when n is a
// multiple of 8, else a copy padded with zeros (pack_rows, pack_transposed). C is computed in
// tiles of up to 4 rows by 24 columns held in registers, each element summed over x in
// order: no result depends on the machine or the thread.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "lectern/autograd/kernels/lanes.h"
#include "lectern/autograd/matrix_view.h"

namespace autograd::detail {

inline std::int64_t padded_width(std::int64_t n) { return (n + kLanes - 1) / kLanes * kLanes; }

// Rows i .. i + R of C, columns j .. j + 8 W, of which the first `width` are C's (the rest
// is padding): b points at B[0][j], whose rows are ldb apart. Its vectors are written out
// (lanes.h): GCC vectorises the plain loops over x with gathers instead.
template <int R, int W, class T>
inline void head_tile(std::int64_t k, const T* a, std::int64_t a_row, std::int64_t a_col, const T* b, std::int64_t ldb,
                      T* c, std::int64_t ldc, std::int64_t width) {
    using V = Lanes<T>;
    V acc[R][W] = {};
    for (std::int64_t x = 0; x < k; ++x) {
        V bx[W];
#pragma GCC unroll 4
        for (int w = 0; w < W; ++w) std::memcpy(&bx[w], b + x * ldb + w * kLanes, sizeof(V));
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) {
            const T air = a[r * a_row + x * a_col];
#pragma GCC unroll 4
            for (int w = 0; w < W; ++w) acc[r][w] += air * bx[w];
        }
    }
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
        for (int w = 0; w < W; ++w) {
            const std::int64_t left = width - w * kLanes;
            if (left >= kLanes) {
                std::memcpy(c + r * ldc + w * kLanes, &acc[r][w], sizeof(V));
            } else if (left > 0) {
                T part[kLanes];
                std::memcpy(part, &acc[r][w], sizeof(V));
                std::copy(part, part + left, c + r * ldc + w * kLanes);
            }
        }
    }
}

// Columns j .. j + 8 W of C for every row: tiles of 4 rows, then the 1 to 3 left.
template <int W, class T>
void head_columns(std::int64_t m, std::int64_t k, const T* a, std::int64_t a_row, std::int64_t a_col, const T* b,
                  std::int64_t ldb, T* c, std::int64_t ldc, std::int64_t width) {
    std::int64_t i = 0;
    for (; i + 4 <= m; i += 4) head_tile<4, W>(k, a + i * a_row, a_row, a_col, b, ldb, c + i * ldc, ldc, width);
    const T* ai = a + i * a_row;
    T* ci = c + i * ldc;
    switch (m - i) {
        case 3:
            head_tile<3, W>(k, ai, a_row, a_col, b, ldb, ci, ldc, width);
            break;
        case 2:
            head_tile<2, W>(k, ai, a_row, a_col, b, ldb, ci, ldc, width);
            break;
        case 1:
            head_tile<1, W>(k, ai, a_row, a_col, b, ldb, ci, ldc, width);
            break;
        default:
            break;
    }
}

// C[m, n] = A B; B's rows are ldb apart and readable padded_width(n) wide (a packed copy,
// or B in place when n is a multiple of 8); C's rows are ldc apart. Columns go in blocks
// of up to three registers, rows in tiles of four: twelve running sums.
template <class T>
void head_product(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t a_row, std::int64_t a_col,
                  const T* b, std::int64_t ldb, T* c, std::int64_t ldc) {
    for (std::int64_t j = 0; j < n; j += 3 * kLanes) {
        const std::int64_t width = std::min(3 * kLanes, n - j);
        switch (padded_width(width) / kLanes) {
            case 3:
                head_columns<3>(m, k, a, a_row, a_col, b + j, ldb, c + j, ldc, width);
                break;
            case 2:
                head_columns<2>(m, k, a, a_row, a_col, b + j, ldb, c + j, ldc, width);
                break;
            default:
                head_columns<1>(m, k, a, a_row, a_col, b + j, ldb, c + j, ldc, width);
                break;
        }
    }
}

// out = src's [rows, cols] (rows ld apart), rows padded_width(cols) wide with zeros.
template <class T>
void pack_rows(const T* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, T* out) {
    const std::int64_t w = padded_width(cols);
    for (std::int64_t r = 0; r < rows; ++r) {
        std::copy(src + r * ld, src + r * ld + cols, out + r * w);
        std::fill(out + r * w + cols, out + (r + 1) * w, T(0));
    }
}

// The transpose of an 8 x 8 block: rows of src (ld apart) become rows of out (ldo apart).
// Three rounds of shuffles, as the unpack, shuffle and lane-permute instructions do it.
template <class T>
inline void transpose_block(const T* src, std::int64_t ld, T* out, std::int64_t ldo) {
    using V = Lanes<T>;
    V r[8], t[8], u[8];
    for (int i = 0; i < 8; ++i) std::memcpy(&r[i], src + i * ld, sizeof(V));
    for (int i = 0; i < 8; i += 2) {  // t: pairs of rows interleaved within each half
        t[i] = __builtin_shufflevector(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        t[i + 1] = __builtin_shufflevector(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
    for (int i = 0; i < 8; i += 4)  // u: four rows' elements together within each half
        for (int h = 0; h < 2; ++h) {
            u[i + 2 * h] = __builtin_shufflevector(t[i + h], t[i + h + 2], 0, 1, 8, 9, 4, 5, 12, 13);
            u[i + 2 * h + 1] = __builtin_shufflevector(t[i + h], t[i + h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        }
    for (int j = 0; j < 4; ++j) {  // the halves of rows 0-3 and 4-7 joined: columns j and j + 4
        const V lo = __builtin_shufflevector(u[j], u[j + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        const V hi = __builtin_shufflevector(u[j], u[j + 4], 4, 5, 6, 7, 12, 13, 14, 15);
        std::memcpy(out + j * ldo, &lo, sizeof(V));
        std::memcpy(out + (j + 4) * ldo, &hi, sizeof(V));
    }
}

// out = the transpose of src's [rows, cols] (rows ld apart): [cols, rows], its rows
// padded_width(rows) wide with zeros. Whole 8 x 8 blocks in registers, the edges one by one.
template <class T>
void pack_transposed(const T* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, T* out) {
    const std::int64_t w = padded_width(rows);
    const std::int64_t rows8 = rows / kLanes * kLanes, cols8 = cols / kLanes * kLanes;
    for (std::int64_t r = 0; r < rows8; r += kLanes)
        for (std::int64_t c = 0; c < cols8; c += kLanes) transpose_block(src + r * ld + c, ld, out + c * w + r, w);
    for (std::int64_t r = 0; r < rows8; ++r)  // the columns past the last whole block
        for (std::int64_t c = cols8; c < cols; ++c) out[c * w + r] = src[r * ld + c];
    for (std::int64_t c = 0; c < cols; ++c) {  // the rows past the last whole block, and the padding
        for (std::int64_t r = rows8; r < rows; ++r) out[c * w + r] = src[r * ld + c];
        std::fill(out + c * w + rows, out + (c + 1) * w, T(0));
    }
}

// The products on views (matrix_view.h): each computes reference::product_ab, product_abt or
// product_atb (reference/head_products.h); tested equal in
// tests/autograd/test_fast_equals_reference.cpp. Each packs the operand it reads by rows into
// `pack` when it is not readable in place; pack_size says how large `pack` must be.
inline std::int64_t pack_size(std::int64_t rows, std::int64_t cols) {
    return std::max(rows * padded_width(cols), cols * padded_width(rows));
}

// B's rows as head_product reads them: B in place when its width is whole vectors, else a
// padded copy in `pack`; *ldb says how far apart they are.
template <class T>
const T* rows_of(MatrixView<const T> B, T* pack, std::int64_t* ldb) {
    if (B.cols % kLanes == 0) {
        *ldb = B.ld;
        return B.data;
    }
    pack_rows(B.data, B.ld, B.rows, B.cols, pack);
    *ldb = padded_width(B.cols);
    return pack;
}

// C = A B
template <class T>
void product_ab(MatrixView<const T> A, MatrixView<const T> B, MatrixView<T> C, T* pack) {
    std::int64_t ldb = 0;
    const T* b = rows_of(B, pack, &ldb);
    head_product(A.rows, B.cols, A.cols, A.data, A.ld, 1, b, ldb, C.data, C.ld);
}

// C = A B^T: B^T packed, then A times it.
template <class T>
void product_abt(MatrixView<const T> A, MatrixView<const T> B, MatrixView<T> C, T* pack) {
    pack_transposed(B.data, B.ld, B.rows, B.cols, pack);
    head_product(A.rows, B.rows, A.cols, A.data, A.ld, 1, pack, padded_width(B.rows), C.data, C.ld);
}

// C = A^T B: A read down its columns.
template <class T>
void product_atb(MatrixView<const T> A, MatrixView<const T> B, MatrixView<T> C, T* pack) {
    std::int64_t ldb = 0;
    const T* b = rows_of(B, pack, &ldb);
    head_product(A.cols, B.cols, A.rows, A.data, 1, A.ld, b, ldb, C.data, C.ld);
}

}  // namespace autograd::detail
