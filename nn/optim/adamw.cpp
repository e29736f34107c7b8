#include "nn/optim/adamw.h"

namespace nn::optim {

AdamW::AdamW(std::vector<Tensor> params, AdamOptions options) : Adam(std::move(params), options) {}

void AdamW::update(std::size_t i, Tensor& param, const Tensor& grad) { adam_update(i, param, grad, true); }

}  // namespace nn::optim
