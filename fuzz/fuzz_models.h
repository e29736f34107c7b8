#pragma once
// The models the checkpoint and safetensors fuzz targets load into, shared
// with the program that writes their seed files, so seeds match the models.
#include <memory>

#include "lectern/models/gpt.h"
#include "lectern/models/transformer.h"
#include "lectern/nn/optim/adam.h"

namespace fuzz {

std::shared_ptr<models::Transformer> tiny_transformer();
// GPT-2's shape at d_model 4 (1 layer, vocab 3, context 2): its weights file fits in 2 KB.
std::shared_ptr<models::GPT> tiny_gpt2();

}  // namespace fuzz
