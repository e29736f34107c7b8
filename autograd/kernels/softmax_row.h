#pragma once
// One row of attention's masked softmax and of its backward, shared by masked_softmax
// (softmax.cpp) and the fused multi_head_attention (attention.cpp). Internal to autograd.
//   P = softmax(M + scale S),  M = -inf where the mask is 0, else 0;
//   dS = scale P (dP - sum(dP P))
// A row whose every score is masked gives P = 0 (not NaN).
// Compiled in their own file: inlined into (or specialised for) a caller's loops, GCC 12
// made the exp's selects branches in one of them, and that row's loop stayed scalar.
#include <cstdint>

namespace autograd::detail {

// p = softmax(M + scale s) over the row's `len` scores (len > 0); score j is kept when
// keep[j * keep_step] != 0, and every score when keep is null. p and s do not overlap.
void masked_softmax_row(const float* s, float* p, std::int64_t len, const std::int64_t* keep, std::int64_t keep_step,
                        float scale);
void masked_softmax_row(const double* s, double* p, std::int64_t len, const std::int64_t* keep,
                        std::int64_t keep_step, double scale);

// ds = scale p (dp - sum(dp p)) over a row of `len`; ds does not overlap dp or p.
void masked_softmax_backward_row(const float* dp, const float* p, float* ds, std::int64_t len, float scale);
void masked_softmax_backward_row(const double* dp, const double* p, double* ds, std::int64_t len, double scale);

}  // namespace autograd::detail
