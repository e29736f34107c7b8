#pragma once
// The model and optimizer the checkpoint fuzz target loads into, shared with
// the program that writes its seed files, so seeds match the model.
#include <memory>

#include "models/transformer.h"
#include "nn/optim/adam.h"

namespace fuzz {

std::shared_ptr<models::Transformer> tiny_transformer();

}  // namespace fuzz
