#include "lectern/autograd/random_factories.h"

#include <utility>

#include <fmt/format.h>

namespace autograd {

namespace {
template <class Draw>
Tensor random_tensor(const char* op, const Shape& shape, Dtype dtype, Draw draw) {
    if (!is_floating(dtype)) throw DtypeError(fmt::format("{}: random tensors are float32 or float64", op));
    Tensor t = Tensor::empty(shape, dtype);
    dispatch_floating(dtype, [&](auto zero) {
        using T = decltype(zero);
        T* p = t.data<T>();
        for (std::int64_t i = 0, n = t.numel(); i < n; ++i) p[i] = static_cast<T>(draw());
    });
    return t;
}
}  // namespace

Tensor randn(const Shape& shape, Generator& gen, Dtype dtype) {
    return random_tensor("randn", shape, dtype, [&] { return gen.normal(); });
}
Tensor rand(const Shape& shape, Generator& gen, Dtype dtype) {
    return random_tensor("rand", shape, dtype, [&] { return gen.uniform(); });
}
Tensor uniform(const Shape& shape, double low, double high, Generator& gen, Dtype dtype) {
    if (!(low <= high)) throw ValueError(fmt::format("uniform: low {} is above high {}", low, high));
    return random_tensor("uniform", shape, dtype, [&] { return low + (high - low) * gen.uniform(); });
}

Tensor randperm(std::int64_t n, Generator& gen) {
    if (n < 0) throw ValueError(fmt::format("randperm: n {} is negative", n));
    Tensor t = Tensor::empty({n}, Dtype::int64);
    std::int64_t* p = t.data<std::int64_t>();
    for (std::int64_t i = 0; i < n; ++i) p[i] = i;
    for (std::int64_t i = n; i > 1; --i) std::swap(p[i - 1], p[gen.randint(i)]);
    return t;
}

}  // namespace autograd
