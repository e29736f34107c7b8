#pragma once
#include <memory>

#include "lectern/models/encoder_layer.h"
#include "lectern/nn/layer_norm.h"

namespace models {

// The encoder stack: N encoder layers (001 Encoder; 000's Encoder(X, N)), then
// a final LayerNorm in pre-norm mode (each pre-norm layer leaves its output
// un-normalised; in post-norm the last layer already ends in one).
class Encoder : public nn::Module {
public:
    Encoder(std::int64_t n_layers, const nn::BlockConfig& config, autograd::Generator& gen);
    Tensor forward(const Tensor& x, const Tensor& mask) const;

    std::shared_ptr<nn::ModuleList<EncoderLayer>> layers;
    std::shared_ptr<nn::LayerNorm> norm;  // null in post-norm mode
};

// An Encoder's parameters, from its arguments: the layers', and the final norm's in pre-norm mode.
double encoder_parameter_count(std::int64_t n_layers, const nn::BlockConfig& config);

}  // namespace models
