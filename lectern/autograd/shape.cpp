#include "lectern/autograd/shape.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lectern/autograd/errors.h"

namespace autograd {

namespace {

// Throws unless every size is >= 0 and the product of the sizes, with 0 read as
// 1, fits in int64: then the element count and every contiguous stride fit too,
// even for an empty tensor like [0, 2^40, 2^40].
void check_countable(const char* op, const Shape& s) {
    std::int64_t extent = 1;
    for (auto d : s) {
        if (d < 0) throw ShapeError(fmt::format("{}: negative size in shape {}", op, shape_str(s)));
        if (__builtin_mul_overflow(extent, std::max<std::int64_t>(d, 1), &extent))
            throw ShapeError(
                fmt::format("{}: shape {} is too large: the product of its sizes overflows int64", op, shape_str(s)));
    }
}

}  // namespace

std::int64_t numel(const Shape& s) {
    check_countable("numel", s);
    std::int64_t n = 1;
    for (auto d : s) n *= d;
    return n;
}

std::string shape_str(const Shape& s) { return fmt::format("[{}]", fmt::join(s, ", ")); }

Shape contiguous_strides(const Shape& s) {
    check_countable("contiguous_strides", s);
    Shape st(s.size());
    std::int64_t acc = 1;
    for (std::size_t i = s.size(); i-- > 0;) {
        st[i] = acc;
        acc *= s[i];
    }
    return st;
}

int normalize_dim(const char* op, std::int64_t dim, std::int64_t ndim) {
    std::int64_t d = dim < 0 ? dim + ndim : dim;
    if (d < 0 || d >= ndim)
        throw IndexError(fmt::format("{}: dim {} out of range for a tensor of {} dims", op, dim, ndim));
    return static_cast<int>(d);
}

AroundDim around_dim(const Shape& s, int d) {
    AroundDim a;
    for (int i = 0; i < d; ++i) a.outer *= s[i];
    a.n = s[d];
    for (std::size_t i = d + 1; i < s.size(); ++i) a.inner *= s[i];
    return a;
}

Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b) {
    std::size_t n = std::max(a.size(), b.size());
    Shape out(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
        std::int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
        if (da != db && da != 1 && db != 1)
            throw ShapeError(fmt::format("{}: shapes cannot be broadcast: {} and {}", op, shape_str(a), shape_str(b)));
        out[i] = da == 1 ? db : da;
    }
    return out;
}

Shape broadcast_strides(const Shape& s, const Shape& out) {
    Shape st(out.size(), 0);
    Shape own = contiguous_strides(s);
    std::size_t off = out.size() - s.size();
    for (std::size_t i = 0; i < s.size(); ++i) st[off + i] = s[i] == 1 ? 0 : own[i];
    return st;
}

}  // namespace autograd
