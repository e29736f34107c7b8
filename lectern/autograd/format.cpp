#include "lectern/autograd/format.h"

#include <ostream>

namespace autograd {
namespace {

// Nested brackets, one level per dim; long dims are elided in the middle. A dim of size 0
// prints as [] and holds nothing, so the dims inside it are not entered.
void append(std::string& out, const Tensor& t, const std::vector<double>& v, std::size_t dim, std::int64_t offset,
            std::int64_t stride) {
    const Shape& s = t.shape();
    constexpr std::int64_t kEdge = 3;
    std::int64_t n = s[dim];
    out += '[';
    if (n == 0) {
        out += ']';
        return;
    }
    std::int64_t inner = stride / n;
    for (std::int64_t i = 0; i < n; ++i) {
        if (n > 2 * kEdge + 1 && i == kEdge) {
            out += "..., ";
            i = n - kEdge - 1;
            continue;
        }
        if (dim + 1 == s.size())
            out += t.dtype() == Dtype::int64 ? fmt::format("{}", static_cast<std::int64_t>(v[offset + i]))
                                             : fmt::format("{:.4g}", v[offset + i]);
        else append(out, t, v, dim + 1, offset + i * inner, inner);
        if (i + 1 < n) out += ", ";
    }
    out += ']';
}

}  // namespace

std::string to_string(const Tensor& t) {
    if (!t.defined()) return "tensor(undefined)";
    std::vector<double> v = t.to_vector();
    std::string body;
    if (t.dim() == 0)
        body = t.dtype() == Dtype::int64 ? fmt::format("{}", static_cast<std::int64_t>(v[0]))
                                         : fmt::format("{:.4g}", v[0]);
    else append(body, t, v, 0, 0, t.numel());
    // An empty tensor's brackets do not tell [0, 3] from [0]: its shape is printed too.
    const std::string shape = t.numel() == 0 ? fmt::format(", shape={}", shape_str(t.shape())) : "";
    return fmt::format("tensor({}{}, dtype={}{})", body, shape, dtype_name(t.dtype()),
                       t.requires_grad() ? ", requires_grad" : "");
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << to_string(t); }

}  // namespace autograd
