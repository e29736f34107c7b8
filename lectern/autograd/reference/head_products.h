#pragma once
// The three matrix products of one attention head, as plain loops over views (matrix_view.h):
// the reference for kernels/head_products.h's, tested equal in
// tests/autograd/test_fast_equals_reference.cpp.
//   C = A B,  C = A B^T,  C = A^T B
#include <cstdint>

#include "lectern/autograd/matrix_view.h"

namespace autograd::reference {

// C [m, n] = A [m, k] B [k, n]
template <class T>
void product_ab(MatrixView<const T> A, MatrixView<const T> B, MatrixView<T> C) {
    for (std::int64_t i = 0; i < A.rows; ++i)
        for (std::int64_t j = 0; j < B.cols; ++j) {
            T acc = 0;
            for (std::int64_t x = 0; x < A.cols; ++x) acc += A(i, x) * B(x, j);
            C(i, j) = acc;
        }
}

// C [m, n] = A [m, k] B^T, B [n, k]
template <class T>
void product_abt(MatrixView<const T> A, MatrixView<const T> B, MatrixView<T> C) {
    for (std::int64_t i = 0; i < A.rows; ++i)
        for (std::int64_t j = 0; j < B.rows; ++j) {
            T acc = 0;
            for (std::int64_t x = 0; x < A.cols; ++x) acc += A(i, x) * B(j, x);
            C(i, j) = acc;
        }
}

// C [m, n] = A^T B, A [k, m], B [k, n]
template <class T>
void product_atb(MatrixView<const T> A, MatrixView<const T> B, MatrixView<T> C) {
    for (std::int64_t i = 0; i < A.cols; ++i)
        for (std::int64_t j = 0; j < B.cols; ++j) {
            T acc = 0;
            for (std::int64_t x = 0; x < A.rows; ++x) acc += A(x, i) * B(x, j);
            C(i, j) = acc;
        }
}

}  // namespace autograd::reference
