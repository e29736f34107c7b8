#include "lectern/autograd/ops/reshape.h"

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"

namespace autograd {
namespace {

// A new handle on the same storage with another shape.
Tensor view_as(const Tensor& x, const Shape& shape) {
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = x.impl()->storage;
    impl->shape = shape;
    impl->dtype = x.dtype();
    return Tensor(std::move(impl));
}

Tensor reshape_recorded(const char* op, const Tensor& x, const Shape& shape) {
    Tensor y = view_as(x, shape);
    Shape x_shape = x.shape();
    return record(op, {x}, y, [x_shape](const Tensor& dy) { return std::vector{reshape(dy, x_shape)}; });
}

}  // namespace

// y has x's elements in order, in `shape`;  dx = reshape(dy, x.shape)
Tensor reshape(const Tensor& x, const Shape& shape) {
    check_defined("reshape", x);
    Shape s = shape;
    std::int64_t known = 1;
    int infer = -1;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == -1) {
            if (infer >= 0) throw ShapeError(fmt::format("reshape: more than one -1 in {}", shape_str(shape)));
            infer = static_cast<int>(i);
        } else if (s[i] < 0) {
            throw ShapeError(fmt::format("reshape: negative size in {}", shape_str(shape)));
        } else {
            known *= s[i];
        }
    }
    if (infer >= 0) {
        if (known == 0 || x.numel() % known != 0)
            throw ShapeError(fmt::format("reshape: cannot reshape {} into {}", shape_str(x.shape()), shape_str(shape)));
        s[infer] = x.numel() / known;
    }
    if (numel(s) != x.numel())
        throw ShapeError(fmt::format("reshape: cannot reshape {} ({} elements) into {} ({} elements)",
                                     shape_str(x.shape()), x.numel(), shape_str(s), numel(s)));
    return reshape_recorded("reshape", x, s);
}

// y = x with a size-1 dim inserted at `dim`;  dx = squeeze(dy, dim)
Tensor unsqueeze(const Tensor& x, std::int64_t dim) {
    check_defined("unsqueeze", x);
    Shape s = x.shape();
    int d = normalize_dim("unsqueeze", dim, x.dim() + 1);
    s.insert(s.begin() + d, 1);
    return reshape_recorded("unsqueeze", x, s);
}

// y = x without its size-1 dim `dim`;  dx = unsqueeze(dy, dim)
Tensor squeeze(const Tensor& x, std::int64_t dim) {
    check_defined("squeeze", x);
    Shape s = x.shape();
    int d = normalize_dim("squeeze", dim, x.dim());
    if (s[d] != 1) throw ShapeError(fmt::format("squeeze: dim {} of {} has size {}, not 1", dim, shape_str(s), s[d]));
    s.erase(s.begin() + d);
    return reshape_recorded("squeeze", x, s);
}

}  // namespace autograd
