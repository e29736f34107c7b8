#include "nn/optim/adamw.h"

namespace nn::optim {

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions o)
    : Adam(std::move(params), {.lr = o.lr, .beta1 = o.beta1, .beta2 = o.beta2, .eps = o.eps, .weight_decay = o.weight_decay}) {}

void AdamW::update(std::size_t i, Tensor& param, const Tensor& grad) { adam_update(i, param, grad, true); }

}  // namespace nn::optim
