#include "nn/positional_encoding.h"

#include <fmt/format.h>

#include "nn/binary_positional_encoding.h"
#include "nn/concatenated_positional_encoding.h"
#include "nn/learned_positional_embedding.h"
#include "nn/sinusoidal_positional_encoding.h"

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
    throw autograd::ValueError(fmt::format(
        "positions '{}': choose none, sinusoidal, learned, binary or concatenated", name));
}

void PositionalEncoding::check_input(const char* who, const Tensor& x, std::int64_t start, std::int64_t width,
                                     std::int64_t max_len) {
    autograd::check_floating(who, x);
    if (x.dim() != 3 || x.size(2) != width || start < 0 || start + x.size(1) > max_len)
        throw autograd::ShapeError(fmt::format("{}: input {} at position {} needs [B, T, {}] with start + T <= max_len {}",
                                               who, autograd::shape_str(x.shape()), start, width, max_len));
}

Tensor PositionalEncoding::drop(const Tensor& y) const {
    return autograd::dropout(y, dropout, is_training(), autograd::default_generator());
}

NoPositionalEncoding::NoPositionalEncoding(std::int64_t d, double p) : d_model(d) {
    if (d <= 0) throw autograd::ValueError(fmt::format("NoPositionalEncoding: d_model must be positive, got {}", d));
    dropout = p;
}

// No table, so no longest sequence: any start and T.
Tensor NoPositionalEncoding::forward(const Tensor& x, std::int64_t start) const {
    check_input("NoPositionalEncoding", x, start, d_model, start + (x.dim() == 3 ? x.size(1) : 0));
    return drop(x);
}

std::int64_t default_concat_width(std::int64_t d_model) { return d_model / 4 - (d_model / 4) % 2; }

std::int64_t embedding_width(Positions kind, std::int64_t d_model, std::int64_t concat_width) {
    if (kind != Positions::concatenated) return d_model;
    return d_model - (concat_width == 0 ? default_concat_width(d_model) : concat_width);
}

std::shared_ptr<PositionalEncoding> make_positional_encoding(Positions kind, std::int64_t d_model, std::int64_t max_len,
                                                             double dropout, std::int64_t concat_width,
                                                             autograd::Generator& gen) {
    switch (kind) {
    case Positions::none: return std::make_shared<NoPositionalEncoding>(d_model, dropout);
    case Positions::sinusoidal: return std::make_shared<SinusoidalPositionalEncoding>(d_model, dropout, max_len);
    case Positions::learned: {
        auto pos = std::make_shared<LearnedPositionalEmbedding>(max_len, d_model, gen);
        pos->dropout = dropout;
        return pos;
    }
    case Positions::binary: return std::make_shared<BinaryPositionalEncoding>(d_model, dropout, max_len);
    case Positions::concatenated:
        return std::make_shared<ConcatenatedPositionalEncoding>(
            d_model, concat_width == 0 ? default_concat_width(d_model) : concat_width, dropout, max_len);
    }
    throw autograd::ValueError("make_positional_encoding: not a Positions value");
}

}  // namespace nn
