#pragma once
#include <memory>

#include "lectern/nn/feed_forward.h"

namespace nn {

// Which experts each token went to in the last forward, for tests and plots.
struct Routing {
    Tensor experts;  // int64 [N, k]: token n's experts, highest gate logit first
    Tensor weights;  // [N, k]: their gate weights (each row sums to 1)
};

// A mixture-of-experts feed-forward layer (004 §15.5.7; GShard, Switch): E
// expert FFNs (GELU, as the MLP they replace) and a learned gate g(x) = x W_g.
// Each token goes to the k experts of largest gate logit and the layer returns
//   y = sum_{j=1..k} w_j FFN_{e_j}(x),   w = softmax(g(x)_{e_1}, ..., g(x)_{e_k}).
// The softmax is taken over the k selected logits only (Mixtral's choice, not
// GShard's softmax over all E renormalised): the weights sum to 1 for any k, and
// the gate's gradient reaches exactly the logits that were used.
// Tokens are routed, not masked: each expert runs only on its own tokens
// (gathered with index_select, padded to a multiple of 64 rows), so the cost
// is k FFNs per token, not E.
//
// Load balancing (Switch Transformer eq. 4; GShard's l_aux): after a forward,
//   aux_loss() = E * sum_e f_e P_e,
// f_e = the fraction of the N k assignments that went to expert e (a count, no
// gradient), P_e = the mean over tokens of softmax(g(x))_e (differentiable).
// It is 1 when tokens and gate probability are spread evenly and grows as they
// collapse onto few experts; the training loss adds it times a coefficient.
class MixtureOfExperts : public Module {
public:
    MixtureOfExperts(std::int64_t d_model, std::int64_t d_ff, std::int64_t experts, std::int64_t top_k,
                     double dropout = 0.0, autograd::Generator& gen = autograd::default_generator());
    // x [..., D] -> [..., D]
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    // The load-balancing loss of the last forward (a scalar with its graph).
    Tensor aux_loss() const { return aux_loss_; }
    Routing last_routing() const { return routing_; }

    std::shared_ptr<Linear> gate;  // W_g [E, D], no bias
    std::shared_ptr<ModuleList<FeedForward>> experts;
    std::int64_t top_k;

private:
    mutable Tensor aux_loss_;
    mutable Routing routing_;
};

}  // namespace nn
