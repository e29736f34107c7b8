#pragma once
// The positional codes a model can be built with, by kind and by name, and the one
// function that builds any of them: what a model's config and a program's flags name.
#include <cstdint>
#include <memory>
#include <string>

#include "lectern/nn/positional_encoding.h"

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

// K = d_model / 4 rounded down to even (16 of 64): room for the sinusoid's fast and
// slow pairs, three quarters of the state left to the tokens.
std::int64_t default_concat_width(std::int64_t d_model);

// The width of the embeddings that encoding takes: d_model, or d_model - K when concatenated.
std::int64_t embedding_width(Positions kind, std::int64_t d_model, std::int64_t concat_width);

// The parameters of that encoding: learned positions' table [max_len, d_model]; the others
// have none (their codes are fixed).
double positional_parameter_count(Positions kind, std::int64_t d_model, std::int64_t max_len);

// The encoding a model asks for by `kind`, for d_model-wide states and up to
// max_len positions. concat_width is K for Positions::concatenated (0 < K < d_model,
// K even; 0 asks for default_concat_width) and ignored otherwise. Learned positions
// draw W_pos from `gen`.
std::shared_ptr<PositionalEncoding> make_positional_encoding(Positions kind, std::int64_t d_model, std::int64_t max_len,
                                                             double dropout, std::int64_t concat_width,
                                                             autograd::Generator& gen);

}  // namespace nn
