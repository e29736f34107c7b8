#pragma once
#include <functional>
#include <memory>

#include "nn/dropout.h"
#include "nn/layer_norm.h"

namespace nn {

enum class Norm { pre, post };

// The residual connection around a sublayer, in both forms of 003 "Encoder layer":
//   post-norm:  LN(x + dropout(sublayer(x)))      (the original Transformer; 000's EncoderBlock)
//   pre-norm:   x + dropout(sublayer(LN(x)))      (001's SublayerConnection; "more stable")
class SublayerConnection : public Module {
public:
    SublayerConnection(std::int64_t d_model, double dropout = 0.0, Norm norm = Norm::pre);
    Tensor forward(const Tensor& x, const std::function<Tensor(const Tensor&)>& sublayer) const;

    std::shared_ptr<LayerNorm> norm;
    std::shared_ptr<Dropout> dropout;
    Norm placement;
};

}  // namespace nn
