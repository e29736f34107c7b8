#include "lectern/models/text_classifier.h"

#include <fmt/format.h>

#include "lectern/nn/attention_mask.h"
#include "lectern/nn/init.h"

namespace models {

using namespace autograd;

TextClassifier::TextClassifier(const TextClassifierConfig& c) : config(c) {
    if (c.vocab <= 0 || c.max_len <= 0 || c.n_layers <= 0 || c.classes <= 0)
        throw ValueError(
            fmt::format("TextClassifier: vocab {}, max_len {}, N = {} layers and {} classes must be positive", c.vocab,
                        c.max_len, c.n_layers, c.classes));
    if (c.pad < 0 || c.pad >= c.vocab)
        throw ValueError(
            fmt::format("TextClassifier: the padding id {} is not in the vocabulary [0, {})", c.pad, c.vocab));
    Generator gen(c.seed);
    const bool cls = c.pooling == Pooling::cls;
    tok_embed = register_module("tok_embed", std::make_shared<nn::Embedding>(c.vocab, c.d_model, false, gen));
    if (cls) class_token = register_parameter("class_token", zeros({1, 1, c.d_model}));
    pos = register_module("pos",
                          std::make_shared<nn::LearnedPositionalEmbedding>(c.max_len + (cls ? 1 : 0), c.d_model, gen));
    dropout = register_module("dropout", std::make_shared<nn::Dropout>(c.dropout));
    encoder = register_module("encoder", std::make_shared<Encoder>(c.n_layers, c.block_config(), gen));
    head = register_module("head", std::make_shared<nn::Linear>(c.d_model, c.classes, true, gen));
    for (auto& [name, p] : named_parameters()) {
        if (name.ends_with(".bias")) nn::init::zeros_(p);
        else if (p.dim() >= 2) nn::init::normal_(p, 0, 0.02, gen);
    }
}

Tensor TextClassifier::encode(const Tensor& ids, Tensor* mask_out) const {
    check_dtype("TextClassifier", ids, Dtype::int64, "ids");
    if (ids.dim() != 2 || ids.size(1) == 0 || ids.size(1) > config.max_len)
        throw ShapeError(fmt::format("TextClassifier: ids {} must be [B, T] with 0 < T <= {}", shape_str(ids.shape()),
                                     config.max_len));
    const std::int64_t B = ids.size(0), D = config.d_model;
    Tensor mask = nn::padding_mask(ids, config.pad);  // [B, 1, T]
    Tensor h = (*tok_embed)(ids);                     // E_tok[x_t] [B, T, D]
    if (class_token.defined()) {                      // [CLASS] first, never padding
        h = concat({broadcast_to(class_token, {B, 1, D}), h}, 1);
        mask = concat({ones({B, 1, 1}, Dtype::int64), mask}, 2);
    }
    if (mask_out) *mask_out = mask;
    return encoder->forward((*dropout)((*pos)(h)), mask);  // h_N [B, T(+1), D]
}

Tensor TextClassifier::forward(const Tensor& ids) const {
    Tensor mask;
    Tensor h = encode(ids, &mask);
    return (*head)(pool_tokens(h, config.pooling, mask));
}

double TextClassifierConfig::parameter_count() const {
    const auto D = static_cast<double>(d_model), K = static_cast<double>(classes);
    const double cls = pooling == Pooling::cls ? 1 : 0;
    return static_cast<double>(vocab) * D + cls * D + (static_cast<double>(max_len) + cls) * D +
           encoder_parameter_count(n_layers, block_config()) + D * K + K;
}

}  // namespace models
