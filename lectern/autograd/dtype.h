#pragma once
// Element types. float32 trains, float64 checks gradients (docs/design.md, "Two floating types"); int64
// holds token ids, class labels and masks, and is never differentiated.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lectern/autograd/errors.h"

namespace autograd {

enum class Dtype { float32, float64, int64 };

constexpr std::string_view dtype_name(Dtype d) {
    switch (d) {
        case Dtype::float32:
            return "float32";
        case Dtype::float64:
            return "float64";
        case Dtype::int64:
            return "int64";
    }
    return "?";
}

constexpr std::size_t dtype_size(Dtype d) { return d == Dtype::float32 ? 4 : 8; }

constexpr bool is_floating(Dtype d) { return d != Dtype::int64; }

template <class T>
constexpr Dtype dtype_of();
template <>
constexpr Dtype dtype_of<float>() {
    return Dtype::float32;
}
template <>
constexpr Dtype dtype_of<double>() {
    return Dtype::float64;
}
template <>
constexpr Dtype dtype_of<std::int64_t>() {
    return Dtype::int64;
}

// Calls fn(T{}) with T the C++ type of a floating dtype; kernels are written
// once as templates and dispatched here.
template <class Fn>
decltype(auto) dispatch_floating(Dtype d, Fn&& fn) {
    if (d == Dtype::float32) return fn(float{});
    if (d == Dtype::float64) return fn(double{});
    throw DtypeError("internal: dispatch on a non-floating dtype");
}

}  // namespace autograd
