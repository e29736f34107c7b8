#pragma once
// The loop shared by the elementwise kernels of one operand: y = f(x), element by
// element, into a new tensor of x's shape and floating dtype, split over the
// threads. Internal to autograd.
#include <cstdint>

#include "lectern/autograd/parallel.h"
#include "lectern/autograd/tensor.h"

namespace autograd::detail {

template <class F>
Tensor map(const Tensor& x, F f) {
    Tensor y = Tensor::empty(x.shape(), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* __restrict__ px = x.data<T>();  // y is a new tensor: no aliasing, so the loop vectorises
        T* __restrict__ py = y.data<T>();
        parallel_for(x.numel(), 1, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) py[i] = f(px[i]);
        });
    });
    return y;
}

}  // namespace autograd::detail
