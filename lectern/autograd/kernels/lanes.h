#pragma once
// Eight Ts as one value (GCC's and Clang's vector extension): one AVX2 register of floats,
// two of doubles. Kernels that plain loops would not vectorise well write their vectors
// out with it: attention's per-head products (head_products.h), the softmax row
// (softmax_row.cpp) and layer norm's rows (layer_norm_row.h). Internal to autograd.
#include <cstdint>
#include <cstring>

namespace autograd::detail {

inline constexpr std::int64_t kLanes = 8;  // one AVX2 register of floats

template <class T>
using Lanes [[gnu::vector_size(kLanes * sizeof(T))]] = T;

// Eight floats from memory that need not be aligned, and back. (Not templates: inside a
// template GCC reads Lanes<T> as plain T.)
inline Lanes<float> load_lanes(const float* p) {
    Lanes<float> v;
    std::memcpy(&v, p, sizeof(v));
    return v;
}
inline void store_lanes(float* p, Lanes<float> v) { std::memcpy(p, &v, sizeof(v)); }

// The sum of the eight, ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)): eight_way_sum.h's order.
inline float sum_lanes(Lanes<float> v) {
    v += __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
    v += __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5);
    v += __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3);
    return v[0];
}

// The largest of the eight (NaN lanes aside).
inline float max_lanes(Lanes<float> v) {
    Lanes<float> w = __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3);
    v = v > w ? v : w;
    w = __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5);
    v = v > w ? v : w;
    w = __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
    v = v > w ? v : w;
    return v[0];
}

}  // namespace autograd::detail
