#pragma once
// One attention head in float32, forward and backward: each computes reference::attention_head
// or reference::attention_head_backward (reference/attention.h, the equations); tested equal in
// tests/autograd/test_fast_equals_reference.cpp. Internal to autograd.
// multi_head_attention (ops/attention.cpp) runs it on every (batch entry, head) of a float32
// call. The products are head_products.h's, not BLAS's: at a head's few dozen rows a BLAS
// call's fixed costs outweigh its arithmetic. S, P~ and dS live in the calling thread's
// HeadScratch, reused head after head, so P stays in cache from softmax to product.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>

#include "lectern/autograd/kernels/dropout_draw.h"
#include "lectern/autograd/kernels/softmax_row.h"
#include "lectern/autograd/matrix_view.h"

namespace autograd::detail {

// Dropout's draw on P, kept for the backward; none in evaluation and for p = 0. Element e of
// head bh's P is element bh Tq Tk + e of the [B, H, Tq, Tk] weights: the same factors as
// autograd::dropout on the weights would draw.
using DropoutOnP = std::optional<DropoutDraw>;

// One thread's buffers, sized for any head of a call (Tq queries, Tk keys, d_k and d_v at
// most d): S (or dP), P~ and dS (backward only), and room to pack a product's operand.
struct HeadScratch {
    std::unique_ptr<float[]> s, p_dropped, ds, pack;
    HeadScratch(std::int64_t Tq, std::int64_t Tk, std::int64_t d, bool backward);
};

// S = Q K^T, P = softmax(M + scale S), P~ = P f, Z = P~ V. softmax_row: softmax_row.h's row
// function for every head of the call (softmax_row_for); `first`: P's first element in the
// [B, H, Tq, Tk] weights, where dropout's factors are drawn.
void attention_head(MatrixView<const float> Q, MatrixView<const float> K, MatrixView<const float> V,
                    const MaskRows& mask, float scale, SoftmaxRow* softmax_row, const DropoutOnP& drop,
                    std::int64_t first, MatrixView<float> Z, MatrixView<float> P, HeadScratch& scratch);

// attention_head without dropout over a decoder's cache (ops/attention.h, attention_over_cache):
// K^T [d_k, Tk] read in place, its rows KT.ld apart and readable padded_width(Tk) wide, so S =
// Q K^T is the same product as attention_head's on a packed K^T, without the packing.
void attention_head_over_cache(MatrixView<const float> Q, MatrixView<const float> KT, MatrixView<const float> V,
                               const MaskRows& mask, float scale, SoftmaxRow* softmax_row, MatrixView<float> Z,
                               MatrixView<float> P, HeadScratch& scratch);

// dV = P~^T dZ, dP = (dZ V^T) f, dS = scale P (dP - sum(dP P)), dQ = dS K, dK = dS^T Q.
// Writes each of dQ, dK and dV whose data is not null.
void attention_head_backward(MatrixView<const float> dZ, MatrixView<const float> Q, MatrixView<const float> K,
                             MatrixView<const float> V, MatrixView<const float> P, float scale, const DropoutOnP& drop,
                             std::int64_t first, MatrixView<float> dQ, MatrixView<float> dK, MatrixView<float> dV,
                             HeadScratch& scratch);

// Asks the cache for the next head's rows before the head is reached: a head's rows are
// H d_k apart (3 H d_k in qkv), too few and too far apart for the hardware prefetcher to
// follow. For float32 and float64 alike.
template <class T>
void prefetch(std::initializer_list<MatrixView<const T>> matrices) {
    constexpr std::int64_t line = 64 / sizeof(T);
    for (const MatrixView<const T>& A : matrices)
        for (std::int64_t r = 0; r < A.rows; ++r)
            for (std::int64_t c = 0; c < A.cols; c += line) __builtin_prefetch(A.row(r) + c);
}

}  // namespace autograd::detail
