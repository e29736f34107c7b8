#include "lectern/nn/optim/adamw.h"

namespace nn::optim {

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions o) : Adam(std::move(params), o, 1e-2, /*decoupled=*/true) {}

}  // namespace nn::optim
