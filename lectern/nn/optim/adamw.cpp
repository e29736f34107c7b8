#include "lectern/nn/optim/adamw.h"

namespace nn::optim {

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions o) : AdamW(std::vector{ParamGroup{std::move(params)}}, o) {}

AdamW::AdamW(const NamedParameters& params, AdamWOptions o) : AdamW(std::vector{named_group(params)}, o) {}

AdamW::AdamW(std::vector<ParamGroup> groups, AdamWOptions o) : Adam(std::move(groups), o, 1e-2, /*decoupled=*/true) {}

}  // namespace nn::optim
