#include "lectern/nn/feed_forward.h"

namespace nn {

FeedForward::FeedForward(std::int64_t d_model, std::int64_t d_ff, double p, Activation act, autograd::Generator& gen)
    : activation(act) {
    w_1 = register_module("w_1", std::make_shared<Linear>(d_model, d_ff, true, gen));
    w_2 = register_module("w_2", std::make_shared<Linear>(d_ff, d_model, true, gen));
    dropout = register_module("dropout", std::make_shared<Dropout>(p));
}

// w_2(dropout(phi(w_1(x))))
Tensor FeedForward::forward(const Tensor& x) const {
    Tensor h = w_1->forward(x);
    switch (activation) {
        case Activation::relu:
            h = autograd::relu(h);
            break;
        case Activation::gelu:
            h = autograd::gelu(h);
            break;
        case Activation::gelu_tanh:
            h = autograd::gelu_tanh(h);
            break;
        case Activation::silu:
            h = autograd::silu(h);
            break;
    }
    return w_2->forward(dropout->forward(h));
}

}  // namespace nn
