#pragma once
#include <cstdint>

#include "lectern/nn/module.h"

namespace nn {

// POS(Embed(X)) of 004 eq. 15.61: what every positional code does to the embeddings,
// followed by dropout on the result (001 "Positional Encoding": dropout(x + P)). The codes
// are its subclasses (sinusoidal_positional_encoding.h, learned_positional_embedding.h, ...);
// make_positional_encoding.h builds one by kind.
class PositionalEncoding : public Module {
public:
    // x [B, T, input_width()] at positions start .. start + T - 1 -> [B, T, d_model].
    // ShapeError if the width differs or start + T exceeds the table.
    virtual Tensor forward(const Tensor& x, std::int64_t start) const = 0;
    Tensor forward(const Tensor& x) const { return forward(x, 0); }
    Tensor operator()(const Tensor& x) const { return forward(x, 0); }
    // The embeddings' width: d_model, or d_model - K when the code is concatenated.
    virtual std::int64_t input_width() const = 0;

    double dropout = 0.0;  // on POS(x), in training

protected:
    // ShapeError naming `who` unless x is floating [B, T, width] with 0 <= start, start + T <= max_len.
    static void check_input(const char* who, const Tensor& x, std::int64_t start, std::int64_t width,
                            std::int64_t max_len);
    Tensor drop(const Tensor& y) const;
};

}  // namespace nn
