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

// NumPy broadcasting: align from the right, sizes equal or 1.
// ShapeError "op: shapes cannot be broadcast: [2, 3] and [4]".
Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b);

// Strides of `s` read as if it had `out`'s shape: 0 where s broadcasts.
Shape broadcast_strides(const Shape& s, const Shape& out);

}  // namespace autograd
