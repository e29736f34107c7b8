#pragma once
// A linear layer's product for one row of x, y = W x + b, in float32: computes reference::linear
// (reference/linear.h) for one row; tested equal in tests/autograd/test_fast_equals_reference.cpp.
// Internal to autograd. ops/linear.cpp runs it when x has too few rows for a GEMM (a token at a
// time, as generation runs), each thread over its own block of W's rows.
//
// The time is W's reading: every weight is read once and used once, so the kernel is as fast as
// the memory hands it W. Rows go two at a time, and the kernel asks for each line of W 32 KiB
// before it reads it (matrix_vector.cpp says why).
//
// Each row's dot product is summed in one order set by n alone: eight lane sums, lane l adding
// the terms i = l (mod 8) below n rounded down to a multiple of 8, in order of i; their
// sum_lanes (lanes.h); the last n mod 8 terms, in order; then b[j] plus that. So W's rows may
// be split between threads in any way, two at a time or one, and give the same bits, on any
// machine that runs the binary.
#include <cstdint>

namespace autograd::detail {

// y[j] = b[j] + sum over i < n of W[j][i] x[i] for j < m, W [m, n] row-major (rows n apart);
// 0 in place of b[j] when b is null. y overlaps none of W, x and b.
void matrix_vector(std::int64_t m, std::int64_t n, const float* w, const float* x, const float* b, float* y);

}  // namespace autograd::detail
