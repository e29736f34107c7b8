#include "lectern/models/rnn_seq2seq.h"

#include <fmt/format.h>

#include "lectern/nn/attention_mask.h"

namespace models {

using namespace autograd;

double RnnSeq2SeqConfig::parameter_count() const {
    const auto E = static_cast<double>(d_embed), H = static_cast<double>(hidden), A = static_cast<double>(d_attention),
               Vs = static_cast<double>(src_vocab), Vt = static_cast<double>(tgt_vocab);
    const double embeddings = (Vs + Vt) * E;
    const double encoder = 3 * H * (E + H) + 6 * H;
    const double attention = 2 * A * H + A;
    const double decoder = 3 * H * (E + H + H) + 6 * H;
    const double output = 2 * H * Vt + Vt;
    return embeddings + encoder + attention + decoder + output;
}

RnnSeq2Seq::RnnSeq2Seq(const RnnSeq2SeqConfig& c) : config(c) {
    if (c.src_vocab <= 0 || c.tgt_vocab <= 0 || c.d_embed <= 0 || c.hidden <= 0 || c.d_attention <= 0)
        throw ValueError(fmt::format("RnnSeq2Seq: vocabularies {} and {}, E = {}, H = {} and d_a = {} must be positive",
                                     c.src_vocab, c.tgt_vocab, c.d_embed, c.hidden, c.d_attention));
    if (c.pad < 0 || c.pad >= c.src_vocab)
        throw ValueError(
            fmt::format("RnnSeq2Seq: the padding id {} is not in the source vocabulary [0, {})", c.pad, c.src_vocab));
    autograd::Generator gen(c.seed);
    src_embed = register_module("src_embed", std::make_shared<nn::Embedding>(c.src_vocab, c.d_embed, false, gen));
    tgt_embed = register_module("tgt_embed", std::make_shared<nn::Embedding>(c.tgt_vocab, c.d_embed, false, gen));
    encoder = register_module("encoder", std::make_shared<nn::GRU>(c.d_embed, c.hidden, gen));
    attention =
        register_module("attention", std::make_shared<nn::AdditiveAttention>(c.hidden, c.hidden, c.d_attention, gen));
    decoder = register_module("decoder", std::make_shared<nn::GRU>(c.d_embed + c.hidden, c.hidden, gen));
    generator = register_module("generator", std::make_shared<models::Generator>(2 * c.hidden, c.tgt_vocab, gen));
}

EncodedSource RnnSeq2Seq::encode(const Tensor& src) const {
    check_dtype("RnnSeq2Seq", src, Dtype::int64, "src");
    if (src.dim() != 2 || src.size(1) == 0)
        throw ShapeError(fmt::format("RnnSeq2Seq: src must be [B, S] with S >= 1, got {}", shape_str(src.shape())));
    const std::int64_t B = src.size(0), S = src.size(1);
    EncodedSource e;
    e.mask = nn::padding_mask(src, config.pad);  // [B, 1, S]
    // The last real position of each sequence: its state is s_0. Padding follows the tokens, so
    // the GRU's states up to there never saw a pad.
    Tensor last = zeros({B, 1, config.hidden}, Dtype::int64);
    for (std::int64_t b = 0; b < B; ++b) {
        std::int64_t at = -1;
        for (std::int64_t j = 0; j < S; ++j)
            if (e.mask.data<std::int64_t>()[b * S + j] != 0) at = j;
        if (at < 0) throw ValueError(fmt::format("RnnSeq2Seq: source sequence {} is all padding", b));
        for (std::int64_t k = 0; k < config.hidden; ++k) last.data<std::int64_t>()[b * config.hidden + k] = at;
    }
    e.states = encoder->forward(src_embed->forward(src));  // h_1..h_S [B, S, H]
    e.keys = linear(e.states, attention->w_k);             // W_k h_j [B, S, d_a], once for every step
    e.last = squeeze(gather(e.states, 1, last), 1);        // h_{S_b} [B, H]
    return e;
}

RnnStep RnnSeq2Seq::step(const EncodedSource& source, const Tensor& state, const Tensor& previous) const {
    check_dtype("RnnSeq2Seq", previous, Dtype::int64, "previous token");
    if (previous.dim() != 1 || previous.size(0) != source.states.size(0))
        throw ShapeError(fmt::format("RnnSeq2Seq: the previous tokens must be [B = {}], got {}", source.states.size(0),
                                     shape_str(previous.shape())));
    // alpha_i = softmax_j(v^T tanh(W_q s_{i-1} + W_k h_j) + M_j): one query per sequence, [B, 1, S].
    Tensor query = unsqueeze(linear(state, attention->w_q), 1);  // [B, 1, d_a]
    Tensor alpha = nn::additive_attention_weights(query, source.keys, attention->v, source.mask);
    Tensor context = squeeze(matmul(alpha, source.states), 1);  // c_i = sum_j alpha_ij h_j [B, H]
    Tensor s = decoder->step(concat({tgt_embed->forward(previous), context}, 1), state);  // s_i [B, H]
    return {generator->forward(concat({s, context}, 1)), s, squeeze(alpha, 1)};
}

Tensor RnnSeq2Seq::forward(const Tensor& src, const Tensor& tgt_in, Tensor* weights) const {
    check_dtype("RnnSeq2Seq", tgt_in, Dtype::int64, "tgt_in");
    if (tgt_in.dim() != 2 || tgt_in.size(0) != src.size(0) || tgt_in.size(1) == 0)
        throw ShapeError(fmt::format("RnnSeq2Seq: tgt_in must be [B, T] with T >= 1 beside src {}, got {}",
                                     shape_str(src.shape()), shape_str(tgt_in.shape())));
    const EncodedSource source = encode(src);
    Tensor s = source.last;
    std::vector<Tensor> log_probs, alphas;
    for (std::int64_t i = 0; i < tgt_in.size(1); ++i) {  // one step after another: s_i needs s_{i-1}
        RnnStep out = step(source, s, select(tgt_in, 1, i));
        s = out.state;
        log_probs.push_back(out.log_probs);
        alphas.push_back(out.weights);
    }
    if (weights) *weights = stack(alphas, 1);
    return stack(log_probs, 1);  // [B, T, V]
}

}  // namespace models
