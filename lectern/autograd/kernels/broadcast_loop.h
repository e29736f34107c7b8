#pragma once
// The loop shared by every broadcasting kernel: walks the output row by row
// (a row is the last dim) and hands the kernel each row's offsets into the two
// operands, whose strides are 0 along broadcast dims. Internal to autograd.
#include <cstdint>

#include "lectern/autograd/parallel.h"
#include "lectern/autograd/shape.h"

namespace autograd::detail {

// row(out_offset, a_offset, b_offset, row_length, a_step, b_step) for the rows
// [begin, end) of the output `out` (more than 0 dims, none of size 0).
template <class RowFn>
void for_broadcast_rows(const Shape& out, const Shape& a_strides, const Shape& b_strides, std::int64_t begin,
                        std::int64_t end, RowFn row) {
    const std::size_t n = out.size();
    const std::int64_t len = out[n - 1];
    // The multi-index of row `begin` over the outer dims, and its offsets.
    Shape idx(n, 0);
    std::int64_t off_a = 0, off_b = 0;
    for (std::int64_t rest = begin, d = static_cast<std::int64_t>(n) - 2; d >= 0; --d) {
        idx[d] = rest % out[d];
        rest /= out[d];
        off_a += idx[d] * a_strides[d];
        off_b += idx[d] * b_strides[d];
    }
    for (std::int64_t r = begin; r < end; ++r) {
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

// Every row of `out` in order, on the calling thread (for kernels that accumulate
// into shared outputs).
template <class RowFn>
void for_each_broadcast_row(const Shape& out, const Shape& a_strides, const Shape& b_strides, RowFn row) {
    if (out.empty()) {
        row(0, 0, 0, 1, 0, 0);
        return;
    }
    const std::int64_t len = out.back(), rows = len == 0 ? 0 : numel(out) / len;
    if (rows > 0) for_broadcast_rows(out, a_strides, b_strides, 0, rows, row);
}

// Every row of `out`, split over the threads: `row` must write only its own row's outputs.
// `cost` is the work per element (1 for a load and a store).
template <class RowFn>
void parallel_for_each_broadcast_row(const Shape& out, const Shape& a_strides, const Shape& b_strides, RowFn row,
                                     std::int64_t cost = 1) {
    if (out.empty()) {
        row(0, 0, 0, 1, 0, 0);
        return;
    }
    const std::int64_t len = out.back(), rows = len == 0 ? 0 : numel(out) / len;
    parallel_for(rows, len * cost, [&](std::int64_t begin, std::int64_t end) {
        for_broadcast_rows(out, a_strides, b_strides, begin, end, row);
    });
}

}  // namespace autograd::detail
