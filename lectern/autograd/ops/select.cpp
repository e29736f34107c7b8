#include "lectern/autograd/ops/select.h"

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/ops/concat.h"
#include "lectern/autograd/ops/reshape.h"

namespace autograd {

// select(x, dim, i) = squeeze(narrow(x, dim, i, 1), dim); the backward is theirs:
//   dx = zeros like x with dy placed at i along dim.
Tensor select(const Tensor& x, std::int64_t dim, std::int64_t index) {
    check_defined("select", x);
    int d = normalize_dim("select", dim, x.dim());
    const std::int64_t n = x.size(d);
    if (index < -n || index >= n)
        throw IndexError(fmt::format("select: index {} is outside [-{}, {}) for dim {} of {}", index, n, n, d,
                                     shape_str(x.shape())));
    return squeeze(narrow(x, d, index < 0 ? index + n : index, 1), d);
}

}  // namespace autograd
