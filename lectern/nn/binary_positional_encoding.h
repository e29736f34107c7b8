#pragma once
#include "lectern/nn/positional_encoding.h"

namespace nn {

// The binary code of 004 §15.5.3 (before eq. 15.57): position i as its bits,
// added to the embeddings, POS(X) = X + B (eq. 15.61's sum, B in place of P):
//   B_{i,k} = floor(i / 2^k) mod 2,   k = 0 .. d - 1.
// Column 0 toggles fastest, as column 0 of the sinusoid has the highest
// frequency (the note's "we could of course change this"); the columns past
// log2(max_len) are zero for every position.
class BinaryPositionalEncoding : public PositionalEncoding {
public:
    BinaryPositionalEncoding(std::int64_t d_model, double dropout = 0.0, std::int64_t max_len = 5000);
    using PositionalEncoding::forward;
    // x [B, T, d] -> dropout(x + B[start : start + T])
    Tensor forward(const Tensor& x, std::int64_t start) const override;
    std::int64_t input_width() const override { return table.size(1); }

    Tensor table;  // B [max_len, d] of zeros and ones
};

}  // namespace nn
