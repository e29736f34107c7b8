#include "lectern/models/greedy_decode.h"

#include "lectern/nn/attention_mask.h"

#include <functional>

#include <fmt/format.h>

namespace models {

using namespace autograd;

namespace {

void check_args(const Tensor& src, std::int64_t max_len, std::int64_t start_symbol, std::int64_t end_symbol,
                std::int64_t tgt_vocab) {
    check_dtype("greedy_decode", src, Dtype::int64, "src");
    if (src.dim() != 2)
        throw ShapeError(fmt::format("greedy_decode: src must be [B, S], got {}", shape_str(src.shape())));
    if (max_len < 1) throw ValueError(fmt::format("greedy_decode: max_len {} must be >= 1", max_len));
    if (start_symbol < 0 || start_symbol >= tgt_vocab)
        throw IndexError(
            fmt::format("greedy_decode: start symbol {} is outside the vocabulary [0, {})", start_symbol, tgt_vocab));
    if (end_symbol >= tgt_vocab)
        throw IndexError(
            fmt::format("greedy_decode: end symbol {} is outside the vocabulary [0, {})", end_symbol, tgt_vocab));
}

// Appends the arg-max of log_probs [B, V] to tokens column t and its value to
// scores column t-1; a finished sequence (lengths[b] > 0) repeats the end symbol
// instead. Returns whether every sequence is finished.
bool choose(const Tensor& log_probs, Tensor& tokens, Tensor& scores, std::int64_t t, std::int64_t end_symbol,
            std::vector<std::int64_t>& lengths) {
    Tensor best = argmax(log_probs, -1);  // [B]
    bool all_done = true;
    for (std::int64_t b = 0; b < best.numel(); ++b) {
        auto& length = lengths[static_cast<std::size_t>(b)];
        std::int64_t tok = length > 0 ? end_symbol : best.data<std::int64_t>()[b];
        tokens.set({b, t}, static_cast<double>(tok));
        scores.set({b, t - 1}, length > 0 ? 0.0 : log_probs.at({b, tok}));
        if (length == 0 && tok == end_symbol) length = t + 1;
        all_done = all_done && length > 0;
    }
    return all_done;
}

// The loop every decoder shares, under the guards its caller set: for t = 1 .. max_len-1 ask
// `next` for the log-probabilities [B, V] of token t given tokens[:, :t], and append the most
// probable one.
Decoded greedy_loop(std::int64_t batch, std::int64_t max_len, std::int64_t start_symbol, std::int64_t end_symbol,
                    Dtype dtype, const std::function<Tensor(const Tensor& tokens, std::int64_t t)>& next) {
    Tensor tokens = full({batch, max_len}, static_cast<double>(start_symbol), Dtype::int64);
    Tensor scores = zeros({batch, max_len - 1}, dtype);
    std::vector<std::int64_t> lengths(static_cast<std::size_t>(batch), 0);  // 0: not finished
    std::int64_t length = max_len;
    for (std::int64_t t = 1; t < max_len; ++t)
        if (choose(next(tokens, t), tokens, scores, t, end_symbol, lengths)) {
            length = t + 1;  // every sequence has ended
            break;
        }
    for (auto& l : lengths) l = l > 0 ? l : max_len;
    return {narrow(tokens, 1, 0, length), narrow(scores, 1, 0, length - 1), lengths};
}

}  // namespace

Decoded greedy_decode(const Transformer& model, const Tensor& src, const Tensor& src_mask, std::int64_t max_len,
                      std::int64_t start_symbol, std::int64_t end_symbol) {
    check_args(src, max_len, start_symbol, end_symbol, model.config.tgt_vocab);
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const Tensor memory = model.encode(src, src_mask);
    DecoderCache cache = model.new_cache();
    auto next = [&](const Tensor& tokens, std::int64_t t) {
        Tensor last = narrow(tokens, 1, t - 1, 1);                             // [B, 1]: only the newest token
        Tensor out = model.decode_step(memory, src_mask, last, t - 1, cache);  // [B, 1, D] at position t-1
        return reshape(model.generator->forward(out), {tokens.size(0), -1});
    };
    return greedy_loop(src.size(0), max_len, start_symbol, end_symbol, memory.dtype(), next);
}

Decoded greedy_decode_recompute(const Transformer& model, const Tensor& src, const Tensor& src_mask,
                                std::int64_t max_len, std::int64_t start_symbol, std::int64_t end_symbol) {
    check_args(src, max_len, start_symbol, end_symbol, model.config.tgt_vocab);
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const Tensor memory = model.encode(src, src_mask);
    auto next = [&](const Tensor& tokens, std::int64_t t) {
        Tensor prefix = narrow(tokens, 1, 0, t);                                      // [B, t]: the whole prefix
        Tensor out = model.decode(memory, src_mask, prefix, nn::subsequent_mask(t));  // [B, t, D]
        return model.generator->forward(select(out, 1, t - 1));                       // the last position [B, D]
    };
    return greedy_loop(src.size(0), max_len, start_symbol, end_symbol, memory.dtype(), next);
}

Decoded greedy_decode(const RnnSeq2Seq& model, const Tensor& src, std::int64_t max_len, std::int64_t start_symbol,
                      std::int64_t end_symbol, Tensor* weights) {
    check_args(src, max_len, start_symbol, end_symbol, model.config.tgt_vocab);
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const EncodedSource source = model.encode(src);
    Tensor state = source.last;  // s_0
    std::vector<Tensor> alphas;
    auto next = [&](const Tensor& tokens, std::int64_t t) {
        RnnStep out = model.step(source, state, select(tokens, 1, t - 1));  // y_{t-1}, s_{t-1} -> y_t's log p, s_t
        state = out.state;
        alphas.push_back(out.weights);
        return out.log_probs;
    };
    Decoded d = greedy_loop(src.size(0), max_len, start_symbol, end_symbol, source.states.dtype(), next);
    if (weights)
        *weights = alphas.empty() ? zeros({src.size(0), 0, src.size(1)}, source.states.dtype()) : stack(alphas, 1);
    return d;
}

}  // namespace models
