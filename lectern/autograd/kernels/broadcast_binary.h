#pragma once
// out = f(a, b) elementwise over the broadcast shape of a and b, split over the threads:
// the loop of the arithmetic (ops/arithmetic.cpp) and comparison (ops/compare.cpp) ops.
// Internal to autograd.
#include <cstdint>

#include "lectern/autograd/kernels/broadcast_loop.h"
#include "lectern/autograd/parallel.h"
#include "lectern/autograd/tensor.h"

namespace autograd::detail {

// a and b of element type T; out a new tensor of the broadcast shape (broadcast_shapes).
template <class T, class F>
void broadcast_binary_into(const Tensor& a, const Tensor& b, Tensor& out, F f) {
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* __restrict__ po = out.data<T>();  // a new tensor
    if (a.shape() == b.shape()) {        // the common case: one flat loop
        parallel_for(out.numel(), 1, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) po[i] = f(pa[i], pb[i]);
        });
        return;
    }
    parallel_for_each_broadcast_row(
        out.shape(), broadcast_strides(a.shape(), out.shape()), broadcast_strides(b.shape(), out.shape()),
        [&](std::int64_t o, std::int64_t ia, std::int64_t ib, std::int64_t len, std::int64_t sa, std::int64_t sb) {
            if (sa == 1 && sb == 0) {  // e.g. a bias [D] added to rows of [N, D]: b is fixed along the row
                const T vb = pb[ib];
                for (std::int64_t i = 0; i < len; ++i) po[o + i] = f(pa[ia + i], vb);
            } else if (sa == 1 && sb == 1) {
                for (std::int64_t i = 0; i < len; ++i) po[o + i] = f(pa[ia + i], pb[ib + i]);
            } else {
                for (std::int64_t i = 0; i < len; ++i) po[o + i] = f(pa[ia + i * sa], pb[ib + i * sb]);
            }
        });
}

// The same on floating a and b of one dtype, into a new tensor.
template <class F>
Tensor broadcast_binary(const char* op, const Tensor& a, const Tensor& b, F f) {
    Tensor out = Tensor::empty(broadcast_shapes(op, a.shape(), b.shape()), a.dtype());
    dispatch_floating(a.dtype(), [&](auto zero) { broadcast_binary_into<decltype(zero)>(a, b, out, f); });
    return out;
}

}  // namespace autograd::detail
