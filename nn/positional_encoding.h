#pragma once
#include <memory>
#include <string>

#include "nn/module.h"

namespace nn {

// How a model tells attention where each token is. Without positions,
// self-attention is permutation-equivariant, A(RX) = R A(X) (002 "Attention
// does not account for the order of input"; 004 §15.5.3): a model that must
// reverse or sort a sequence cannot tell its first token from its last.
enum class Positions {
    none,          // X alone
    sinusoidal,    // X + P, P of 004 eq. 15.57 (001 "Positional Encoding")
    learned,       // X + W_pos (002 "Positional Information in Transformers")
    binary,        // X + B, B_{i,k} = bit k of i (004 §15.5.3, the code before eq. 15.57)
    concatenated,  // [X ; P_K]: embeddings of width D - K beside eq. 15.57's code of width K (004 §15.5.3; 000)
};

// "none", "sinusoidal", "learned", "binary", "concatenated"
std::string positions_name(Positions p);
// The inverse of positions_name; ValueError naming the choices for any other word.
Positions parse_positions(const std::string& name);

// POS(Embed(X)) of 004 eq. 15.61 for any of the codes above, followed by
// dropout on the result (001 "Positional Encoding": dropout(x + P)).
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

// No positions: dropout(X). The model then sees its input as a set (002).
class NoPositionalEncoding : public PositionalEncoding {
public:
    explicit NoPositionalEncoding(std::int64_t d_model, double dropout = 0.0);
    using PositionalEncoding::forward;
    Tensor forward(const Tensor& x, std::int64_t start) const override;
    std::int64_t input_width() const override { return d_model; }

    std::int64_t d_model;
};

// The encoding a model asks for by `kind`, for d_model-wide states and up to
// max_len positions. concat_width is K for Positions::concatenated (0 < K < d_model,
// K even; 0 asks for default_concat_width) and ignored otherwise. Learned positions
// draw W_pos from `gen`.
// K = d_model / 4 rounded down to even (16 of 64): room for the sinusoid's fast and
// slow pairs, three quarters of the state left to the tokens.
std::int64_t default_concat_width(std::int64_t d_model);

// The width of the embeddings that encoding takes: d_model, or d_model - K when concatenated.
std::int64_t embedding_width(Positions kind, std::int64_t d_model, std::int64_t concat_width);

std::shared_ptr<PositionalEncoding> make_positional_encoding(Positions kind, std::int64_t d_model, std::int64_t max_len,
                                                             double dropout, std::int64_t concat_width,
                                                             autograd::Generator& gen);

}  // namespace nn
