#include "nn/optim/adamw.h"

namespace nn::optim {

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions o) : Adam(std::move(params), o, 1e-2) {}

void AdamW::update(std::size_t i, Tensor& param, const Tensor& grad) { adam_update(i, param, grad, true); }

}  // namespace nn::optim
