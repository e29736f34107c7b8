#include "nn/sublayer_connection.h"

namespace nn {

SublayerConnection::SublayerConnection(std::int64_t d_model, double p, Norm n) : placement(n) {
    norm = register_module("norm", std::make_shared<LayerNorm>(d_model));
    dropout = register_module("dropout", std::make_shared<Dropout>(p));
}

Tensor SublayerConnection::forward(const Tensor& x, const std::function<Tensor(const Tensor&)>& sublayer) const {
    if (placement == Norm::pre) return x + dropout->forward(sublayer(norm->forward(x)));
    return norm->forward(x + dropout->forward(sublayer(x)));
}

}  // namespace nn
