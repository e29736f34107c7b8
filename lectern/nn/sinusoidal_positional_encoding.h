#pragma once
#include "lectern/nn/positional_encoding.h"

namespace nn {

// The fixed sinusoidal code of 004 §15.5.3 eq. 15.57 (000 §15.5.3; 001
// "Positional Encoding"):
//   p_{i,2j} = sin(i / C^{2j/d}),  p_{i,2j+1} = cos(i / C^{2j/d}),  C = 10000,
// added to the embeddings, POS(Embed(X)) = X + P (eq. 15.61), then dropout (001).
// Because each (sin, cos) pair rotates with i, p_{t+phi} = M(phi) p_t for a
// fixed block-diagonal rotation M (eq. 15.59).
class SinusoidalPositionalEncoding : public PositionalEncoding {
public:
    SinusoidalPositionalEncoding(std::int64_t d_model, double dropout = 0.0, std::int64_t max_len = 5000);
    using PositionalEncoding::forward;
    // x [B, T, d] at positions [start, start + T) -> dropout(x + P[start : start + T]);
    // ShapeError if start + T > max_len or d differs. Incremental decoding feeds one token at a time.
    Tensor forward(const Tensor& x, std::int64_t start) const override;
    std::int64_t input_width() const override { return table.size(1); }

    Tensor table;  // P [max_len, d], in the module's dtype, computed in it (recomputed by to())

private:
    void recompute_buffers() override;
};

// Eq. 15.57 into any table [n, d] of float32 or float64, computed in double and
// rounded once: row i is p_i.
void write_sinusoidal_code(Tensor& table);

}  // namespace nn
