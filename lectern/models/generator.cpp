#include "lectern/models/generator.h"

namespace models {

Generator::Generator(std::int64_t d_model, std::int64_t vocab, autograd::Generator& gen) {
    proj = register_module("proj", std::make_shared<nn::Linear>(d_model, vocab, true, gen));
}

autograd::Tensor Generator::forward(const autograd::Tensor& x) const {
    return autograd::log_softmax(proj->forward(x), -1);
}

}  // namespace models
