#include "lectern/autograd/kernels/attention_head.h"

#include <algorithm>

#include "lectern/autograd/kernels/head_products.h"

namespace autograd::detail {
namespace {

// P~ = P f: P itself without dropout, else P's dropped copy in `out`.
MatrixView<const float> dropped(MatrixView<const float> P, const DropoutOnP& drop, std::int64_t first, float* out) {
    if (!drop) return P;
    apply_dropout(*drop, P.data, out, P.rows * P.cols, first);
    return packed_view<const float>(out, P.rows, P.cols);
}

}  // namespace

HeadScratch::HeadScratch(std::int64_t Tq, std::int64_t Tk, std::int64_t d, bool backward)
    : s(new float[Tq * Tk]),
      p_dropped(new float[Tq * Tk]),
      ds(backward ? new float[Tq * Tk] : nullptr),
      pack(new float[pack_size(std::max(Tq, Tk), d)]) {}

void attention_head(MatrixView<const float> Q, MatrixView<const float> K, MatrixView<const float> V,
                    const MaskRows& mask, float scale, SoftmaxRow* softmax_row, const DropoutOnP& drop,
                    std::int64_t first, MatrixView<float> Z, MatrixView<float> P, HeadScratch& scratch) {
    const MatrixView<float> S = packed_view(scratch.s.get(), Q.rows, K.rows);
    product_abt(Q, K, S, scratch.pack.get());  // S = Q K^T
    for (std::int64_t i = 0; i < S.rows; ++i)  // P = softmax(M + scale S)
        softmax_row(S.row(i), P.row(i), S.cols, mask.row(i), mask.col_step, scale);
    const MatrixView<const float> Pd = dropped(P, drop, first, scratch.p_dropped.get());  // P~ = P f
    product_ab(Pd, V, Z, scratch.pack.get());                                             // Z = P~ V
}

void attention_head_over_cache(MatrixView<const float> Q, MatrixView<const float> KT, MatrixView<const float> V,
                               const MaskRows& mask, float scale, SoftmaxRow* softmax_row, MatrixView<float> Z,
                               MatrixView<float> P, HeadScratch& scratch) {
    const MatrixView<float> S = packed_view(scratch.s.get(), Q.rows, KT.cols);
    head_product(Q.rows, KT.cols, Q.cols, Q.data, Q.ld, 1, KT.data, KT.ld, S.data, S.ld);  // S = Q K^T
    for (std::int64_t i = 0; i < S.rows; ++i)                                              // P = softmax(M + scale S)
        softmax_row(S.row(i), P.row(i), S.cols, mask.row(i), mask.col_step, scale);
    product_ab<float>(P, V, Z, scratch.pack.get());  // Z = P V
}

void attention_head_backward(MatrixView<const float> dZ, MatrixView<const float> Q, MatrixView<const float> K,
                             MatrixView<const float> V, MatrixView<const float> P, float scale, const DropoutOnP& drop,
                             std::int64_t first, MatrixView<float> dQ, MatrixView<float> dK, MatrixView<float> dV,
                             HeadScratch& scratch) {
    float* pack = scratch.pack.get();
    if (dV.data) {
        const MatrixView<const float> Pd = dropped(P, drop, first, scratch.p_dropped.get());  // P~ = P f
        product_atb(Pd, dZ, dV, pack);                                                        // dV = P~^T dZ
    }
    if (!dQ.data && !dK.data) return;
    const MatrixView<float> dP = packed_view(scratch.s.get(), P.rows, P.cols);
    const MatrixView<float> dS = packed_view(scratch.ds.get(), P.rows, P.cols);
    product_abt(dZ, V, dP, pack);                                                // dP~ = dZ V^T
    if (drop) apply_dropout(*drop, dP.data, dP.data, dP.rows * dP.cols, first);  // dP = dP~ f
    for (std::int64_t i = 0; i < dP.rows; ++i)                                   // dS = scale P (dP - sum(dP P))
        masked_softmax_row_backward(dP.row(i), P.row(i), dS.row(i), dP.cols, scale);
    if (dQ.data) product_ab<float>(dS, K, dQ, pack);   // dQ = dS K
    if (dK.data) product_atb<float>(dS, Q, dK, pack);  // dK = dS^T Q
}

}  // namespace autograd::detail
