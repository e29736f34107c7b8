#pragma once
// The loop shared by every broadcasting kernel: walks the output row by row
// (a row is the last dim) and hands the kernel each row's offsets into the two
// operands, whose strides are 0 along broadcast dims. Internal to autograd.
#include <cstdint>

#include "autograd/shape.h"

namespace autograd::detail {

// row(out_offset, a_offset, b_offset, row_length, a_step, b_step) for each row.
template <class RowFn>
void for_each_broadcast_row(const Shape& out, const Shape& a_strides, const Shape& b_strides, RowFn row) {
    const std::size_t n = out.size();
    if (n == 0) {
        row(0, 0, 0, 1, 0, 0);
        return;
    }
    const std::int64_t len = out[n - 1];
    const std::int64_t rows = len == 0 ? 0 : numel(out) / len;
    Shape idx(n, 0);
    std::int64_t off_a = 0, off_b = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
        row(r * len, off_a, off_b, len, a_strides[n - 1], b_strides[n - 1]);
        // Advance the multi-index over the outer dims (an odometer).
        for (std::size_t d = n - 1; d-- > 0;) {
            if (++idx[d] < out[d]) {
                off_a += a_strides[d];
                off_b += b_strides[d];
                break;
            }
            off_a -= a_strides[d] * (out[d] - 1);
            off_b -= b_strides[d] * (out[d] - 1);
            idx[d] = 0;
        }
    }
}

}  // namespace autograd::detail
