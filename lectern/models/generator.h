#pragma once
#include <memory>

#include "lectern/nn/linear.h"

namespace models {

// The output step: a linear map to the vocabulary and log-softmax
// (001 Generator), giving log-probabilities of the next token.
class Generator : public nn::Module {
public:
    Generator(std::int64_t d_model, std::int64_t vocab, autograd::Generator& gen);
    autograd::Tensor forward(const autograd::Tensor& x) const;  // [..., D] -> [..., vocab]

    std::shared_ptr<nn::Linear> proj;
};

}  // namespace models
