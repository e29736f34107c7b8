#include "models/greedy_decode.h"

#include "nn/attention_mask.h"

#include <fmt/format.h>

namespace models {

using namespace autograd;

namespace {

// Eval mode for the duration of a decode, restored afterwards.
class EvalScope {
public:
    explicit EvalScope(const Transformer& m) : model_(const_cast<Transformer&>(m)), was_training_(m.is_training()) {
        model_.eval();
    }
    ~EvalScope() { model_.train(was_training_); }

private:
    Transformer& model_;
    bool was_training_;
};

void check_args(const Tensor& src, std::int64_t max_len, std::int64_t start_symbol, const Transformer& model) {
    check_dtype("greedy_decode", src, Dtype::int64, "src");
    if (src.dim() != 2) throw ShapeError(fmt::format("greedy_decode: src must be [B, S], got {}", shape_str(src.shape())));
    if (max_len < 1) throw ValueError(fmt::format("greedy_decode: max_len {} must be >= 1", max_len));
    if (start_symbol < 0 || start_symbol >= model.config.tgt_vocab)
        throw IndexError(fmt::format("greedy_decode: start symbol {} is outside the vocabulary [0, {})", start_symbol,
                                     model.config.tgt_vocab));
}

// Appends the arg-max of log_probs [B, V] to tokens column t and its value to scores column t-1.
void choose(const Tensor& log_probs, Tensor& tokens, Tensor& scores, std::int64_t t) {
    Tensor best = argmax(log_probs, -1);  // [B]
    for (std::int64_t b = 0; b < best.numel(); ++b) {
        std::int64_t tok = best.data<std::int64_t>()[b];
        tokens.set({b, t}, static_cast<double>(tok));
        scores.set({b, t - 1}, log_probs.at({b, tok}));
    }
}

}  // namespace

Decoded greedy_decode(const Transformer& model, const Tensor& src, const Tensor& src_mask, std::int64_t max_len,
                      std::int64_t start_symbol) {
    check_args(src, max_len, start_symbol, model);
    NoGradGuard no_grad;
    EvalScope eval(model);
    const std::int64_t B = src.size(0);
    Tensor memory = model.encode(src, src_mask);
    Tensor tokens = full({B, max_len}, static_cast<double>(start_symbol), Dtype::int64);
    Tensor scores = zeros({B, std::max<std::int64_t>(max_len - 1, 0)}, memory.dtype());
    std::vector<DecoderLayerCache> caches(model.decoder->layers->size());
    for (std::int64_t t = 1; t < max_len; ++t) {
        Tensor last = narrow(tokens, 1, t - 1, 1);                                      // [B, 1]
        Tensor x = model.tgt_pos->forward(model.tgt_embed->forward(last), t - 1);      // [B, 1, D]
        Tensor out = model.decoder->forward_cached(x, memory, src_mask, caches);       // [B, 1, D]
        choose(reshape(model.generator->forward(out), {B, -1}), tokens, scores, t);
    }
    return {tokens, scores};
}

Decoded greedy_decode_recompute(const Transformer& model, const Tensor& src, const Tensor& src_mask,
                                std::int64_t max_len, std::int64_t start_symbol) {
    check_args(src, max_len, start_symbol, model);
    NoGradGuard no_grad;
    EvalScope eval(model);
    const std::int64_t B = src.size(0);
    Tensor memory = model.encode(src, src_mask);
    Tensor tokens = full({B, max_len}, static_cast<double>(start_symbol), Dtype::int64);
    Tensor scores = zeros({B, std::max<std::int64_t>(max_len - 1, 0)}, memory.dtype());
    for (std::int64_t t = 1; t < max_len; ++t) {
        Tensor prefix = narrow(tokens, 1, 0, t);                                        // [B, t]
        Tensor out = model.decode(memory, src_mask, prefix, nn::subsequent_mask(t));   // [B, t, D]
        Tensor last = reshape(narrow(out, 1, t - 1, 1), {B, -1});
        choose(model.generator->forward(last), tokens, scores, t);
    }
    return {tokens, scores};
}

}  // namespace models
