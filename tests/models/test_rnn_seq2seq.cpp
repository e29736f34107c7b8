// The RNN encoder-decoder with additive attention (models/rnn_seq2seq.h; 003 "Traditional
// attention"; 004 §15.5.1 -> §15.4.4): one decoder step worked by hand with widths of 1, then
// teacher forcing, greedy decoding and the source's padding held to that step.
#include <cmath>

#include "check.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/models/rnn_seq2seq.h"

using namespace autograd;

namespace {

void set(Tensor& p, const std::vector<double>& values) {
    NoGradGuard no_grad;
    p.copy_(tensor(values, p.shape(), Dtype::float64));
}

Tensor ids(const std::vector<double>& v, const Shape& s) { return tensor(v, s, Dtype::int64); }

// V 3 (0 the padding), E = H = d_a = 1, every gate at sigmoid(0) = 1/2:
//   source embedding 1 -> 1, 2 -> -1; target embedding 1 -> 0.5, 2 -> -0.5
//   encoder:  r = z = 1/2, n_t = tanh(x_t),                       h_t = (n_t + h_{t-1}) / 2
//   scores:   W_q = W_k = v = 1,                                  e_ij = tanh(s_{i-1} + h_j)
//   decoder:  r = z = 1/2, n = tanh(E y + 2 c + s_{i-1} / 2),     s_i = (n + s_{i-1}) / 2
//   output:   W_o = [[1, 0], [0, 1], [1, -1]], b_o = 0,           logits = (s_i, c_i, s_i - c_i)
// The decoder's input weights (1 for E y, 2 for c) and W_o's columns differ so that the order of
// [E y ; c] and [s ; c] shows.
std::shared_ptr<models::RnnSeq2Seq> hand_model() {
    models::RnnSeq2SeqConfig c;
    c.src_vocab = c.tgt_vocab = 3, c.d_embed = c.hidden = c.d_attention = 1;
    auto p = std::make_shared<models::RnnSeq2Seq>(c);
    models::RnnSeq2Seq& m = *p;
    m.to(Dtype::float64);
    set(m.src_embed->weight, {0, 1, -1});
    set(m.tgt_embed->weight, {0, 0.5, -0.5});
    set(m.encoder->w_ih->weight, {0, 0, 1}), set(m.encoder->w_ih->bias, {0, 0, 0});
    set(m.encoder->w_hh->weight, {0, 0, 0}), set(m.encoder->w_hh->bias, {0, 0, 0});
    set(m.attention->w_q, {1}), set(m.attention->w_k, {1}), set(m.attention->v, {1});
    set(m.decoder->w_ih->weight, {0, 0, 0, 0, 1, 2}), set(m.decoder->w_ih->bias, {0, 0, 0});
    set(m.decoder->w_hh->weight, {0, 0, 1}), set(m.decoder->w_hh->bias, {0, 0, 0});
    set(m.generator->proj->weight, {1, 0, 0, 1, 1, -1}), set(m.generator->proj->bias, {0, 0, 0});
    return p;
}

}  // namespace

TEST_CASE("one decoder step by hand: e_ij, alpha, c, s_1 and log p(y_1) (003; 004 §15.4.4; 001 additive)", "[model]") {
    auto model = hand_model();
    const models::RnnSeq2Seq& m = *model;
    // Source 1, 2: h_1 = tanh(1) / 2 = 0.380797, h_2 = (tanh(-1) + h_1) / 2 = -0.190399, s_0 = h_2.
    const double h1 = std::tanh(1.0) / 2, h2 = (std::tanh(-1.0) + h1) / 2, s0 = h2;
    // e_11 = tanh(s_0 + h_1) = 0.188131, e_12 = tanh(s_0 + h_2) = -0.363399; alpha_1 = (0.634491, 0.365509).
    const double e1 = std::tanh(s0 + h1), e2 = std::tanh(s0 + h2);
    const double a1 = std::exp(e1) / (std::exp(e1) + std::exp(e2)), a2 = 1 - a1;
    // c_1 = alpha_11 h_1 + alpha_12 h_2 = 0.172020; y_0 = 1 (E y_0 = 0.5):
    // n = tanh(0.5 + 2 c_1 + s_0 / 2) = 0.634456, s_1 = (n + s_0) / 2 = 0.222029.
    const double c = a1 * h1 + a2 * h2;
    const double n = std::tanh(0.5 + 2 * c + s0 / 2), s1 = (n + s0) / 2;
    // log p(y_1) = (s_1, c_1, s_1 - c_1) - log sum exp = (-1.027182, -1.077191, -1.199202).
    const double lse = std::log(std::exp(s1) + std::exp(c) + std::exp(s1 - c));
    const std::vector<double> log_probs = {s1 - lse, c - lse, s1 - c - lse};
    REQUIRE(std::abs(a1 - 0.634491) < 1e-6);
    REQUIRE(std::abs(c - 0.172020) < 1e-6);
    REQUIRE(std::abs(s1 - 0.222029) < 1e-6);
    REQUIRE(std::abs(log_probs[0] + 1.027182) < 1e-6);
    REQUIRE(std::abs(log_probs[2] + 1.199202) < 1e-6);

    models::EncodedSource source = m.encode(ids({1, 2}, {1, 2}));
    require_values(source.states, {h1, h2}, 1e-15);
    require_values(source.last, {s0}, 1e-15);
    models::RnnStep step = m.step(source, source.last, ids({1}, {1}));
    require_values(step.weights, {a1, a2}, 1e-15);
    require_values(step.state, {s1}, 1e-15);
    require_values(step.log_probs, log_probs, 1e-15);

    // Padding after the source changes nothing: it is masked out of alpha, and s_0 is the state
    // after the last real token (here beside a sequence of three real tokens).
    source = m.encode(ids({1, 2, 0, 2, 1, 1}, {2, 3}));
    require_values(select(source.last, 0, 0), {s0}, 1e-15);
    step = m.step(source, source.last, ids({1, 1}, {2}));
    require_values(select(step.weights, 0, 0), {a1, a2, 0}, 1e-15);
    require_values(select(step.log_probs, 0, 0), log_probs, 1e-15);
}

TEST_CASE("the RNN decoder: teacher forcing is its steps one after another, and greedy decoding feeds back the argmax",
          "[model]") {
    models::RnnSeq2SeqConfig c;
    c.src_vocab = 7, c.tgt_vocab = 6, c.d_embed = 3, c.hidden = 4, c.d_attention = 5, c.seed = 2;
    models::RnnSeq2Seq m(c);
    m.to(Dtype::float64);
    const Tensor src = ids({1, 3, 4, 6, 2, 5, 5, 0}, {2, 4}), tgt_in = ids({1, 4, 2, 1, 5, 5}, {2, 3});
    Tensor weights;
    const Tensor log_probs = m.forward(src, tgt_in, &weights);
    REQUIRE(log_probs.shape() == Shape{2, 3, 6});
    REQUIRE(weights.shape() == Shape{2, 3, 4});
    const models::EncodedSource source = m.encode(src);
    Tensor s = source.last;
    for (std::int64_t i = 0; i < 3; ++i) {
        const models::RnnStep step = m.step(source, s, select(tgt_in, 1, i));
        require_values(select(log_probs, 1, i), step.log_probs.to_vector(), 0);
        require_values(select(weights, 1, i), step.weights.to_vector(), 0);
        s = step.state;
    }
    // Each alpha_i sums to 1 over the real tokens; the padded position of sequence 1 gets none.
    require_values(sum(weights, -1), {1, 1, 1, 1, 1, 1}, 1e-12);
    require_values(select(select(weights, 0, 1), 1, 3), {0, 0, 0}, 0);

    // Greedy decoding: each token is the argmax of teacher forcing on the tokens before it.
    Tensor greedy_weights;
    models::Decoded d = models::greedy_decode(m, src, 5, 1, -1, &greedy_weights);
    REQUIRE(d.tokens.shape() == Shape{2, 5});
    REQUIRE(greedy_weights.shape() == Shape{2, 4, 4});
    const Tensor forced = m.forward(src, narrow(d.tokens, 1, 0, 4));
    require_values(narrow(d.tokens, 1, 1, 4), argmax(forced, -1).to_vector(), 0);
    require_values(d.log_probs, max(forced, -1).to_vector(), 1e-12);
}

TEST_CASE("the RNN encoder-decoder counts its parameters, names them and refuses bad input", "[model][errors]") {
    models::RnnSeq2SeqConfig c;
    c.src_vocab = 9, c.tgt_vocab = 8, c.d_embed = 3, c.hidden = 4, c.d_attention = 5;
    models::RnnSeq2Seq m(c);
    CHECK(static_cast<double>(m.parameter_count()) == c.parameter_count());
    std::vector<std::string> names;
    for (auto& [name, p] : m.named_parameters()) names.push_back(name);
    CHECK(names == std::vector<std::string>{"src_embed.weight", "tgt_embed.weight", "encoder.w_ih.weight",
                                            "encoder.w_ih.bias", "encoder.w_hh.weight", "encoder.w_hh.bias",
                                            "attention.w_q", "attention.w_k", "attention.v", "decoder.w_ih.weight",
                                            "decoder.w_ih.bias", "decoder.w_hh.weight", "decoder.w_hh.bias",
                                            "generator.proj.weight", "generator.proj.bias"});
    CHECK(m.decoder->w_ih->weight.shape() == Shape{12, 7});      // the decoder reads [E y ; c], E + H wide
    CHECK(m.generator->proj->weight.shape() == Shape{8, 8});     // W_o reads [s ; c], 2H wide
    CHECK_THROWS_AS(m.encode(ids({0, 0}, {1, 2})), ValueError);  // a source of padding only
    CHECK_THROWS_AS(m.encode(ids({1, 2}, {2})), ShapeError);
    CHECK_THROWS_AS(m.forward(ids({1, 2}, {1, 2}), ids({1, 2}, {2, 1})), ShapeError);  // batches differ
    CHECK_THROWS_AS(m.forward(ids({1, 2}, {1, 2}), ids({1, 8}, {1, 2})), IndexError);  // a token outside the vocabulary
    CHECK_THROWS_AS(models::greedy_decode(m, ids({1, 2}, {1, 2}), 3, 8), IndexError);
    c.pad = 9;
    CHECK_THROWS_AS(models::RnnSeq2Seq(c), ValueError);
    c.pad = 0, c.hidden = 0;
    CHECK_THROWS_AS(models::RnnSeq2Seq(c), ValueError);
}
