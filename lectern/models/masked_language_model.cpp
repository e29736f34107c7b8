#include "lectern/models/masked_language_model.h"

#include <vector>

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

std::pair<Tensor, std::int64_t> MaskedLanguageModel::loss(const Tensor& ids, const Tensor& targets) const {
    check_dtype("MaskedLanguageModel::loss", targets, Dtype::int64, "targets");
    if (targets.shape() != ids.shape())
        throw ShapeError(fmt::format("MaskedLanguageModel::loss: targets {} must be shaped as the ids {}",
                                     shape_str(targets.shape()), shape_str(ids.shape())));
    std::vector<double> chosen, original;  // the flat positions b T + t of the chosen tokens, and those tokens
    for (std::int64_t i = 0; i < targets.numel(); ++i)
        if (const std::int64_t token = targets.data<std::int64_t>()[i]; token != -100)
            chosen.push_back(static_cast<double>(i)), original.push_back(static_cast<double>(token));
    if (chosen.empty()) throw ValueError("MaskedLanguageModel::loss: no token is chosen (every target is -100)");
    const auto M = static_cast<std::int64_t>(chosen.size());
    return {cross_entropy(forward(ids, tensor(chosen, Dtype::int64)), tensor(original, Dtype::int64)), M};
}

}  // namespace models
