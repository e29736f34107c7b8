#include "lectern/nn/make_positional_encoding.h"

#include <utility>

#include <fmt/format.h>

#include "lectern/nn/binary_positional_encoding.h"
#include "lectern/nn/concatenated_positional_encoding.h"
#include "lectern/nn/learned_positional_embedding.h"
#include "lectern/nn/no_positional_encoding.h"
#include "lectern/nn/sinusoidal_positional_encoding.h"

namespace nn {

namespace {
constexpr std::pair<Positions, const char*> kNames[] = {{Positions::none, "none"},
                                                        {Positions::sinusoidal, "sinusoidal"},
                                                        {Positions::learned, "learned"},
                                                        {Positions::binary, "binary"},
                                                        {Positions::concatenated, "concatenated"}};
}  // namespace

std::string positions_name(Positions p) {
    for (auto [kind, name] : kNames)
        if (kind == p) return name;
    throw autograd::ValueError("positions_name: not a Positions value");
}

Positions parse_positions(const std::string& name) {
    for (auto [kind, word] : kNames)
        if (name == word) return kind;
    throw autograd::ValueError(
        fmt::format("positions '{}': choose none, sinusoidal, learned, binary or concatenated", name));
}

std::int64_t default_concat_width(std::int64_t d_model) { return d_model / 4 - (d_model / 4) % 2; }

std::int64_t embedding_width(Positions kind, std::int64_t d_model, std::int64_t concat_width) {
    if (kind != Positions::concatenated) return d_model;
    return d_model - (concat_width == 0 ? default_concat_width(d_model) : concat_width);
}

double positional_parameter_count(Positions kind, std::int64_t d_model, std::int64_t max_len) {
    return kind == Positions::learned ? static_cast<double>(max_len) * static_cast<double>(d_model) : 0;
}

std::shared_ptr<PositionalEncoding> make_positional_encoding(Positions kind, std::int64_t d_model, std::int64_t max_len,
                                                             double dropout, std::int64_t concat_width,
                                                             autograd::Generator& gen) {
    switch (kind) {
        case Positions::none:
            return std::make_shared<NoPositionalEncoding>(d_model, dropout);
        case Positions::sinusoidal:
            return std::make_shared<SinusoidalPositionalEncoding>(d_model, dropout, max_len);
        case Positions::learned: {
            auto pos = std::make_shared<LearnedPositionalEmbedding>(max_len, d_model, gen);
            pos->dropout = dropout;
            return pos;
        }
        case Positions::binary:
            return std::make_shared<BinaryPositionalEncoding>(d_model, dropout, max_len);
        case Positions::concatenated:
            return std::make_shared<ConcatenatedPositionalEncoding>(d_model,
                                                                    concat_width == 0 ? default_concat_width(d_model)
                                                                                      : concat_width,
                                                                    dropout, max_len);
    }
    throw autograd::ValueError("make_positional_encoding: not a Positions value");
}

}  // namespace nn
