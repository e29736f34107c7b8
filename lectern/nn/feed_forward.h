#pragma once
#include <memory>

#include "lectern/nn/dropout.h"
#include "lectern/nn/linear.h"

namespace nn {

// gelu is exact (x Phi(x)); gelu_tanh is its tanh approximation (autograd::gelu_tanh), GPT-2's;
// silu is x sigmoid(x), the Swish of the conformer's feed-forward halves (004 §15.5.7).
enum class Activation { relu, gelu, gelu_tanh, silu };

// Position-wise feed-forward network, applied to each token alone:
//   FFN(x) = phi(x W_1 + b_1) W_2 + b_2
// with phi = ReLU (001 "Position-wise Feed-Forward Networks", 003 "FFN"),
// GELU (002 "MLP") or Swish (the conformer's); dropout on the hidden layer as 001.
class FeedForward : public Module {
public:
    FeedForward(std::int64_t d_model, std::int64_t d_ff, double dropout = 0.0, Activation activation = Activation::relu,
                autograd::Generator& gen = autograd::default_generator());
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    std::shared_ptr<Linear> w_1, w_2;
    std::shared_ptr<Dropout> dropout;
    Activation activation;
};

}  // namespace nn
