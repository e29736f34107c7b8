#pragma once
// Attention's masked softmax on one float32 row and its backward: each computes
// reference::masked_softmax_row or reference::masked_softmax_row_backward (reference/
// softmax_row.h, the equations); tested equal in tests/autograd/test_fast_equals_reference.cpp.
// Used by masked_softmax (softmax.cpp) and attention's head kernel (attention_head.cpp).
// Internal to autograd. Compiled in their own file: inlined into a caller's loops, GCC turns the exp's
// selects into branches, and the row's loop stays scalar.
#include <cstdint>

namespace autograd::detail {

// p = softmax(M + scale s) over `len` scores (len > 0); score j is kept when
// keep[j keep_step] != 0, every score when keep is null. p and s do not overlap.
using SoftmaxRow = void(const float* s, float* p, std::int64_t len, const std::int64_t* keep, std::int64_t keep_step,
                        float scale);

// Any row.
SoftmaxRow masked_softmax_row;
// A row with no mask (keep is not read), at least eight scores and a scale that is not 0: the
// ViT's every row, as whole vectors.
SoftmaxRow softmax_row_unmasked;

// The row function for every row of a call, chosen once: `masked` says whether a mask is given.
inline SoftmaxRow* softmax_row_for(bool masked, std::int64_t len, float scale) {
    return !masked && len >= 8 && scale != 0 ? softmax_row_unmasked : masked_softmax_row;
}

// ds = scale p (dp - sum(dp p)) over a row of `len`; ds does not overlap dp or p.
void masked_softmax_row_backward(const float* dp, const float* p, float* ds, std::int64_t len, float scale);

}  // namespace autograd::detail
