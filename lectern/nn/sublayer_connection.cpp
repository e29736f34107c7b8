#include "lectern/nn/sublayer_connection.h"

namespace nn {

SublayerConnection::SublayerConnection(std::int64_t d_model, double p, Norm n, LayerNormFormula formula,
                                       std::optional<double> eps)
    : placement(n) {
    norm = register_module("norm", std::make_shared<LayerNorm>(d_model, formula, eps));
    dropout = register_module("dropout", std::make_shared<Dropout>(p));
}

// pre-norm:   x + Dropout(sublayer(LN(x)))     (001's SublayerConnection; 003: it trains more stably)
// post-norm:  LN(x + Dropout(sublayer(x)))     (the original Transformer; 000's EncoderBlock)
Tensor SublayerConnection::forward(const Tensor& x, const std::function<Tensor(const Tensor&)>& sublayer) const {
    if (placement == Norm::pre) return x + (*dropout)(sublayer((*norm)(x)));
    return (*norm)(x + (*dropout)(sublayer(x)));
}

}  // namespace nn
