#pragma once
#include <memory>
#include <vector>

#include "lectern/models/decoder_layer.h"
#include "lectern/nn/layer_norm.h"

namespace models {

// The decoder's state between cached decoding steps: one cache per layer.
using DecoderCache = std::vector<DecoderLayerCache>;

// The decoder stack: N decoder layers (001 Decoder; 000's Decoder(Y, E, N)),
// then a final LayerNorm in pre-norm mode.
class Decoder : public nn::Module {
public:
    Decoder(std::int64_t n_layers, const nn::BlockConfig& config, autograd::Generator& gen);
    Tensor forward(const Tensor& x, const Tensor& memory, const Tensor& src_mask, const Tensor& tgt_mask) const;
    // One new position through every layer, with one cache per layer.
    Tensor forward_cached(const Tensor& x_new, const Tensor& memory, const Tensor& src_mask,
                          DecoderCache& caches) const;

    std::shared_ptr<nn::ModuleList<DecoderLayer>> layers;
    std::shared_ptr<nn::LayerNorm> norm;  // null in post-norm mode
};

// A Decoder's parameters, from its arguments: each layer's self- and cross-attention, FFN and
// three sublayers' norms, and the final norm in pre-norm mode.
double decoder_parameter_count(std::int64_t n_layers, const nn::BlockConfig& config);

}  // namespace models
