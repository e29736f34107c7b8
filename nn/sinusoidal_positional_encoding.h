#pragma once
#include "nn/module.h"

namespace nn {

// The fixed sinusoidal code of 004 §15.5.3 eq. 15.57 (000 §15.5.3; 001
// "Positional Encoding"):
//   p_{i,2j} = sin(i / C^{2j/d}),  p_{i,2j+1} = cos(i / C^{2j/d}),  C = 10000,
// added to the embeddings, POS(Embed(X)) = X + P (eq. 15.61), then dropout (001).
// Because each (sin, cos) pair rotates with i, p_{t+phi} = M(phi) p_t for a
// fixed block-diagonal rotation M (eq. 15.59).
class SinusoidalPositionalEncoding : public Module {
public:
    SinusoidalPositionalEncoding(std::int64_t d_model, double dropout = 0.0, std::int64_t max_len = 5000);
    // x [B, T, d] -> dropout(x + P[:T]); ShapeError if T > max_len or d differs.
    Tensor forward(const Tensor& x) const;
    // The same for positions [start, start + T): incremental decoding feeds one token at a time.
    Tensor forward(const Tensor& x, std::int64_t start) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    Tensor table;  // P [max_len, d], in the module's dtype, computed in it (recomputed by to())
    double dropout;

private:
    void recompute_buffers() override;
};

}  // namespace nn
