#pragma once
// Shapes and the index arithmetic every op shares: dims, strides, NumPy
// broadcasting.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace autograd {

using Shape = std::vector<std::int64_t>;

// numel and contiguous_strides throw ShapeError for a negative size or a shape
// whose sizes multiply past int64 (read from a corrupt file, say), never wrap.
std::int64_t numel(const Shape& s);
std::string shape_str(const Shape& s);  // "[2, 3]"
Shape contiguous_strides(const Shape& s);

// Maps a possibly negative dim into [0, ndim); IndexError naming `op` if out of range.
int normalize_dim(const char* op, std::int64_t dim, std::int64_t ndim);

// A shape viewed as [outer, n, inner] around dim d: outer is the product of the sizes
// before d, n = s[d], inner the product of those after. Element (o, k, i) sits at
// (o * n + k) * inner + i, so the ops that work along one dim (softmax, the reductions,
// concat, index_select) need only these three numbers.
struct AroundDim {
    std::int64_t outer = 1, n = 1, inner = 1;
};
AroundDim around_dim(const Shape& s, int d);

// NumPy broadcasting: align from the right, sizes equal or 1.
// ShapeError "op: shapes cannot be broadcast: [2, 3] and [4]".
Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b);

// Strides of `s` read as if it had `out`'s shape: 0 where s broadcasts.
Shape broadcast_strides(const Shape& s, const Shape& out);

}  // namespace autograd
