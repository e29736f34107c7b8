#include "lectern/models/masked_language_model.h"

#include <fmt/format.h>

namespace models {

using namespace autograd;

MaskedLanguageModel::MaskedLanguageModel(std::shared_ptr<TextClassifier> m, std::uint64_t seed)
    : classifier(register_module("classifier", std::move(m))) {
    Generator gen(seed);
    predict = register_module("predict", std::make_shared<nn::Linear>(classifier->config.d_model,
                                                                      classifier->config.vocab, true, gen));
}

Tensor MaskedLanguageModel::forward(const Tensor& ids, const Tensor& positions) const {
    check_dtype("MaskedLanguageModel", positions, Dtype::int64, "positions");
    if (positions.dim() != 1)
        throw ShapeError(fmt::format("MaskedLanguageModel: positions {} must be [M]", shape_str(positions.shape())));
    const std::int64_t offset = classifier->config.pooling == Pooling::cls ? 1 : 0;  // h_N^0 is [CLASS]
    Tensor h = narrow(classifier->encode(ids), 1, offset, ids.size(1));              // the tokens' h_N^t [B, T, D]
    h = index_select(reshape(h, {h.size(0) * h.size(1), classifier->config.d_model}), 0, positions);  // [M, D]
    return (*predict)(h);                                                                             // [M, vocab]
}

}  // namespace models
