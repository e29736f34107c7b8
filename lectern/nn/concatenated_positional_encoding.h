#pragma once
#include "lectern/nn/positional_encoding.h"

namespace nn {

// The sinusoid concatenated to the embeddings instead of added (004 §15.5.3
// "we can concatenate the word embeddings with a positional embedding"; 000
// §15.5.3 "We could also concatenate both matrix" (sic), "but adding takes less space"):
//   POS(X) = [X ; P_K],   X [T, D - K] the token embeddings,  P_K [T, K] eq. 15.57 with d = K.
// The state keeps its width D = d_model: the embeddings are K narrower, so the
// model has the parameters of the added code less K per vocabulary row, and the
// position lives in K coordinates of its own that no token can overwrite. (000's
// remark runs the other way: an added code can mimic this one if the learned
// embeddings leave K coordinates at zero.) Dropout acts on the concatenation.
class ConcatenatedPositionalEncoding : public PositionalEncoding {
public:
    // d_model = D, width = K with 0 < K < D, K even (sin and cos pairs).
    ConcatenatedPositionalEncoding(std::int64_t d_model, std::int64_t width, double dropout = 0.0,
                                   std::int64_t max_len = 5000);
    using PositionalEncoding::forward;
    // x [B, T, D - K] -> dropout([x ; P_K[start : start + T]]) [B, T, D]
    Tensor forward(const Tensor& x, std::int64_t start) const override;
    std::int64_t input_width() const override { return d_model - table.size(1); }

    std::int64_t d_model;
    Tensor table;  // P_K [max_len, K], in the module's dtype, computed in it

private:
    void recompute_buffers() override;
};

}  // namespace nn
