#include "lectern/models/attention_rollout.h"

#include <fmt/format.h>

namespace models {

using namespace autograd;

Tensor attention_rollout(const std::vector<Tensor>& attentions, Pooling pooling) {
    if (attentions.empty()) throw ValueError("attention_rollout: no attention maps (run a forward pass first)");
    NoGradGuard no_grad;
    Tensor rollout;
    for (const Tensor& a : attentions) {
        check_floating("attention_rollout", a);
        if (a.dim() != 4 || a.size(2) != a.size(3))
            throw ShapeError(fmt::format("attention_rollout: attention {} must be [B, H, T, T]", shape_str(a.shape())));
        const std::int64_t T = a.size(2);
        Tensor eye = zeros({T, T}, a.dtype());
        for (std::int64_t i = 0; i < T; ++i) eye.set({i, i}, 1);
        Tensor m = mean(a, 1) + eye;                           // average the heads, add the residual path
        m = m / sum(m, -1, true);                              // renormalise each row
        rollout = rollout.defined() ? matmul(m, rollout) : m;  // later layers multiply on the left
    }
    if (pooling == Pooling::mean) return mean(rollout, 1);  // the mean of the rows: every token is a patch
    const std::int64_t T = rollout.size(1);
    return narrow(select(rollout, 1, 0), 1, 1, T - 1);  // the [CLASS] row, without [CLASS] itself
}

Tensor attention_rollout(const ViT& model) {
    std::vector<Tensor> maps;
    for (const auto& layer : *model.layers) maps.push_back(layer->self_attn->last_attention());
    if (!maps.front().defined()) throw ValueError("attention_rollout: the model has not run a forward pass yet");
    return attention_rollout(maps, model.config.pooling);
}

}  // namespace models
