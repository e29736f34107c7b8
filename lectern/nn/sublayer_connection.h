#pragma once
#include <functional>
#include <optional>
#include <memory>

#include "lectern/nn/dropout.h"
#include "lectern/nn/layer_norm.h"

namespace nn {

enum class Norm { pre, post };

// The residual connection around a sublayer, in both forms of 003 "Encoder layer"
// (the equations are in the .cpp, above forward).
class SublayerConnection : public Module {
public:
    // eps unset: the formula's own (nn/layer_norm.h).
    SublayerConnection(std::int64_t d_model, double dropout = 0.0, Norm norm = Norm::pre,
                       LayerNormFormula formula = LayerNormFormula::standard, std::optional<double> eps = {});
    Tensor forward(const Tensor& x, const std::function<Tensor(const Tensor&)>& sublayer) const;
    Tensor operator()(const Tensor& x, const std::function<Tensor(const Tensor&)>& sublayer) const {
        return forward(x, sublayer);
    }

    std::shared_ptr<LayerNorm> norm;
    std::shared_ptr<Dropout> dropout;
    Norm placement;
};

}  // namespace nn
