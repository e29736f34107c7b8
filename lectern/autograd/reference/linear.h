#pragma once
// The linear layer's affine map over rows and its gradients: the plain reference (003's
// Q = X W_Q; PyTorch's nn.Linear, weight [out, in]). float64 runs it; ops/linear.cpp's BLAS
// calls are its float32 twin, tested equal in tests/autograd/test_fast_equals_reference.cpp.
//   x [rows, in], W [out, in], b [out] (or null), y [rows, out]
//   y = x W^T + b
//   dx = dy W,  dW = dy^T x,  db = sum over rows of dy
#include <cstdint>

namespace autograd::reference {

template <class T>
void linear(const T* x, const T* W, const T* b, std::int64_t rows, std::int64_t in, std::int64_t out, T* y) {
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t o = 0; o < out; ++o) {
            T acc = b ? b[o] : T(0);
            for (std::int64_t i = 0; i < in; ++i) acc += x[r * in + i] * W[o * in + i];
            y[r * out + o] = acc;
        }
}

// Writes whichever of dx, dW and db is not null.
template <class T>
void linear_backward(const T* dy, const T* x, const T* W, std::int64_t rows, std::int64_t in, std::int64_t out, T* dx,
                     T* dW, T* db) {
    for (std::int64_t r = 0; dx && r < rows; ++r)
        for (std::int64_t i = 0; i < in; ++i) {
            T acc = 0;
            for (std::int64_t o = 0; o < out; ++o) acc += dy[r * out + o] * W[o * in + i];
            dx[r * in + i] = acc;
        }
    for (std::int64_t o = 0; dW && o < out; ++o)
        for (std::int64_t i = 0; i < in; ++i) {
            T acc = 0;
            for (std::int64_t r = 0; r < rows; ++r) acc += dy[r * out + o] * x[r * in + i];
            dW[o * in + i] = acc;
        }
    for (std::int64_t o = 0; db && o < out; ++o) {
        T acc = 0;
        for (std::int64_t r = 0; r < rows; ++r) acc += dy[r * out + o];
        db[o] = acc;
    }
}

}  // namespace autograd::reference
