#include "lectern/autograd/factories.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/autograd/element.h"
#include "lectern/autograd/graph.h"

namespace autograd {

Tensor full(const Shape& shape, double value, Dtype dtype) {
    Tensor t = Tensor::empty(shape, dtype);
    NoGradGuard g;
    t.fill_(value);
    return t;
}
Tensor zeros(const Shape& shape, Dtype dtype) { return full(shape, 0.0, dtype); }
Tensor ones(const Shape& shape, Dtype dtype) { return full(shape, 1.0, dtype); }

Tensor arange(std::int64_t end, Dtype dtype) { return arange(0.0, static_cast<double>(end), 1.0, dtype); }

Tensor arange(double start, double end, double step, Dtype dtype) {
    if (step == 0 || (end - start) * step < 0)
        throw ValueError(fmt::format("arange: step {} cannot go from {} to {}", step, start, end));
    auto n = static_cast<std::int64_t>(std::ceil((end - start) / step));
    Tensor t = Tensor::empty({n}, dtype);
    for (std::int64_t i = 0; i < n; ++i) detail::write_element(t, i, start + static_cast<double>(i) * step);
    return t;
}

Tensor tensor(const std::vector<double>& values, const Shape& shape, Dtype dtype) {
    if (static_cast<std::int64_t>(values.size()) != autograd::numel(shape))
        throw ShapeError(fmt::format("tensor: {} values do not fill shape {} ({} elements)", values.size(),
                                     shape_str(shape), autograd::numel(shape)));
    Tensor t = Tensor::empty(shape, dtype);
    for (std::size_t i = 0; i < values.size(); ++i) detail::write_element(t, static_cast<std::int64_t>(i), values[i]);
    return t;
}

Tensor tensor(const std::vector<double>& values, Dtype dtype) {
    return tensor(values, {static_cast<std::int64_t>(values.size())}, dtype);
}

}  // namespace autograd
