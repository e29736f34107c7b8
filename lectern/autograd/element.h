#pragma once
// One element of any dtype read or written as a double, by its flat (row-major)
// index: element access, conversions and factories of any dtype. Internal to autograd.
#include <cstdint>

#include "lectern/autograd/tensor.h"

namespace autograd::detail {

inline double read_element(const Tensor& t, std::int64_t i) {
    switch (t.dtype()) {
        case Dtype::float32:
            return t.data<float>()[i];
        case Dtype::float64:
            return t.data<double>()[i];
        case Dtype::int64:
            return static_cast<double>(t.data<std::int64_t>()[i]);
    }
    return 0;
}

inline void write_element(const Tensor& t, std::int64_t i, double v) {
    switch (t.dtype()) {
        case Dtype::float32:
            t.data<float>()[i] = static_cast<float>(v);
            break;
        case Dtype::float64:
            t.data<double>()[i] = v;
            break;
        case Dtype::int64:
            t.data<std::int64_t>()[i] = static_cast<std::int64_t>(v);
            break;
    }
}

}  // namespace autograd::detail
