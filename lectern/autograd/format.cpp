#include "lectern/autograd/format.h"

namespace autograd {
namespace {

// Nested brackets, one level per dim; long dims are elided in the middle.
void append(std::string& out, const Tensor& t, const std::vector<double>& v, std::size_t dim, std::int64_t offset,
            std::int64_t stride) {
    const Shape& s = t.shape();
    constexpr std::int64_t kEdge = 3;
    std::int64_t n = s[dim];
    std::int64_t inner = stride / n;
    out += '[';
    for (std::int64_t i = 0; i < n; ++i) {
        if (n > 2 * kEdge + 1 && i == kEdge) {
            out += "..., ";
            i = n - kEdge - 1;
            continue;
        }
        if (dim + 1 == s.size())
            out += t.dtype() == Dtype::int64 ? fmt::format("{}", static_cast<std::int64_t>(v[offset + i]))
                                             : fmt::format("{:.4g}", v[offset + i]);
        else
            append(out, t, v, dim + 1, offset + i * inner, inner);
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
        body = t.dtype() == Dtype::int64 ? fmt::format("{}", static_cast<std::int64_t>(v[0])) : fmt::format("{:.4g}", v[0]);
    else
        append(body, t, v, 0, 0, t.numel());
    return fmt::format("tensor({}, dtype={}{})", body, dtype_name(t.dtype()), t.requires_grad() ? ", requires_grad" : "");
}

}  // namespace autograd
