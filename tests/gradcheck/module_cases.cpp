// One gradcheck per nn module and model, with respect to its input and every
// parameter (the module is converted to float64 and its own parameter tensors
// are perturbed).
#include <tuple>

#include "catalog.h"
#include "lectern/models/attention_rollout.h"
#include "lectern/models/conformer_block.h"
#include "lectern/models/decomposable_attention.h"
#include "lectern/models/gpt.h"
#include "lectern/models/masked_language_model.h"
#include "lectern/models/rnn_seq2seq.h"
#include "lectern/models/sequence_tagger.h"
#include "lectern/models/text_classifier.h"
#include "lectern/models/textual_similarity.h"
#include "lectern/models/token_pooling.h"
#include "lectern/models/transformer.h"
#include "lectern/models/vit.h"
#include "lectern/nn/activation.h"
#include "lectern/nn/additive_attention.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/binary_positional_encoding.h"
#include "lectern/nn/concatenated_positional_encoding.h"
#include "lectern/nn/conformer_convolution.h"
#include "lectern/nn/conv1d.h"
#include "lectern/nn/depthwise_conv1d.h"
#include "lectern/nn/dot_product_attention.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/feed_forward.h"
#include "lectern/nn/gru.h"
#include "lectern/nn/hard_attention.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/learned_positional_embedding.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/mixture_of_experts.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/nn/no_positional_encoding.h"
#include "lectern/nn/reinforce.h"
#include "lectern/nn/scaled_dot_product_attention.h"
#include "lectern/nn/sequential.h"
#include "lectern/nn/sinusoidal_positional_encoding.h"
#include "lectern/nn/sublayer_connection.h"

namespace gradcheck_catalog {
namespace {

using namespace autograd;

Tensor ids(const std::vector<double>& v, const Shape& s) { return tensor(v, s, Dtype::int64); }

// A case for module M built by `make`, fed `inputs` (made fresh per run) through `f`.
template <class M>
Case module_case(std::string layer, std::string name, std::string shapes, std::function<std::shared_ptr<M>()> make,
                 std::function<std::vector<Tensor>()> inputs,
                 std::function<Tensor(const M&, const std::vector<Tensor>&)> f) {
    return {std::move(layer), std::move(name), std::move(shapes), [make, inputs, f] {
                std::shared_ptr<M> m = make();
                m->to(Dtype::float64);
                std::vector<Tensor> in = inputs();
                const std::size_t n = in.size();
                for (const Tensor& p : m->parameters()) in.push_back(p);
                return gradcheck(
                    [&](const std::vector<Tensor>& x) {
                        return f(*m, std::vector<Tensor>(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n)));
                    },
                    in);
            }};
}

models::TransformerConfig tiny_transformer(nn::Norm norm,
                                           nn::LayerNormFormula layer_norm = nn::LayerNormFormula::standard,
                                           nn::Positions positions = nn::Positions::sinusoidal) {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = 7;
    c.n_layers = 1, c.d_model = 8, c.d_ff = 16, c.heads = 2, c.dropout = 0.0, c.norm = norm, c.seed = 3;
    c.layer_norm = layer_norm, c.positions = positions, c.max_len = 8;
    return c;
}

}  // namespace

std::vector<Case> module_cases() {
    using nn::Norm;
    std::vector<Case> cases;
    // The catalog is a table, a case a row: its lambdas stay on the rows clang-format would break.
    // clang-format off
    cases.push_back(module_case<nn::Linear>(
        "nn", "Linear", "[2,3,4] -> 5", [] { return std::make_shared<nn::Linear>(4, 5); },
        [] { return std::vector{leaf({2, 3, 4}, 1)}; }, [](const nn::Linear& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<nn::Linear>(
        "nn", "Linear (a vector)", "[4] -> 5", [] { return std::make_shared<nn::Linear>(4, 5); },
        [] { return std::vector{leaf({4}, 1)}; }, [](const nn::Linear& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<nn::Embedding>(
        "nn", "Embedding (x sqrt d)", "ids [2,3], V 6, d 4", [] { return std::make_shared<nn::Embedding>(6, 4, true); },
        [] { return std::vector<Tensor>{}; },
        [](const nn::Embedding& m, auto&) { return m(ids({1, 5, 1, 0, 2, 3}, {2, 3})); }));
    cases.push_back(module_case<nn::SinusoidalPositionalEncoding>(
        "nn", "SinusoidalPositionalEncoding", "[2,5,6]",
        [] { return std::make_shared<nn::SinusoidalPositionalEncoding>(6, 0.0, 16); },
        [] { return std::vector{leaf({2, 5, 6}, 2)}; },
        [](const nn::SinusoidalPositionalEncoding& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<nn::LearnedPositionalEmbedding>(
        "nn", "LearnedPositionalEmbedding", "[2,5,6], max_len 8",
        [] { return std::make_shared<nn::LearnedPositionalEmbedding>(8, 6); },
        [] { return std::vector{leaf({2, 5, 6}, 3)}; },
        [](const nn::LearnedPositionalEmbedding& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<nn::BinaryPositionalEncoding>(
        "nn", "BinaryPositionalEncoding", "[2,5,6] from position 3",
        [] { return std::make_shared<nn::BinaryPositionalEncoding>(6, 0.0, 8); },
        [] { return std::vector{leaf({2, 5, 6}, 2)}; },
        [](const nn::BinaryPositionalEncoding& m, auto& x) { return m.forward(x[0], 3); }));
    cases.push_back(module_case<nn::ConcatenatedPositionalEncoding>(
        "nn", "ConcatenatedPositionalEncoding", "[2,5,4] -> [2,5,6], K 2, from position 1",
        [] { return std::make_shared<nn::ConcatenatedPositionalEncoding>(6, 2, 0.0, 8); },
        [] { return std::vector{leaf({2, 5, 4}, 2)}; },
        [](const nn::ConcatenatedPositionalEncoding& m, auto& x) { return m.forward(x[0], 1); }));
    cases.push_back(module_case<nn::NoPositionalEncoding>(
        "nn", "NoPositionalEncoding", "[2,5,6]", [] { return std::make_shared<nn::NoPositionalEncoding>(6); },
        [] { return std::vector{leaf({2, 5, 6}, 2)}; },
        [](const nn::NoPositionalEncoding& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<nn::LayerNorm>(
        "nn", "LayerNorm", "[2,3,5]", [] { return std::make_shared<nn::LayerNorm>(5); },
        [] { return std::vector{leaf({2, 3, 5}, 4)}; }, [](const nn::LayerNorm& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<nn::LayerNorm>(
        "nn", "LayerNorm (001's formula)", "[2,3,5]",
        [] { return std::make_shared<nn::LayerNorm>(5, nn::LayerNormFormula::annotated); },
        [] { return std::vector{leaf({2, 3, 5}, 4)}; }, [](const nn::LayerNorm& m, auto& x) { return m(x[0]); }));
    for (auto [act, name] : {std::pair{nn::Activation::relu, "FeedForward (ReLU)"}, {nn::Activation::gelu, "FeedForward (GELU)"},
                             {nn::Activation::gelu_tanh, "FeedForward (tanh GELU, GPT-2)"},
                             {nn::Activation::silu, "FeedForward (Swish, the conformer's)"}})
        cases.push_back(module_case<nn::FeedForward>(
            "nn", name, "[2,3,4], d_ff 6",
            [act = act] { return std::make_shared<nn::FeedForward>(4, 6, 0.0, act); },  // clang < 16 captures no binding
            [] { return std::vector{leaf({2, 3, 4}, 5)}; }, [](const nn::FeedForward& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<nn::DepthwiseConv1d>(
        "nn", "DepthwiseConv1d (same)", "[2,6,3], k 3", [] { return std::make_shared<nn::DepthwiseConv1d>(3, 3); },
        [] { return std::vector{leaf({2, 6, 3}, 5)}; }, [](const nn::DepthwiseConv1d& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<nn::ConformerConvolution>(
        "nn", "ConformerConvolution (004 §15.5.7)", "[2,5,4], k 3",
        [] { return std::make_shared<nn::ConformerConvolution>(4, 3); }, [] { return std::vector{leaf({2, 5, 4}, 6)}; },
        [](const nn::ConformerConvolution& m, auto& x) { return m(x[0]); }));
    auto mha = [] { return std::make_shared<nn::MultiHeadAttention>(4, 2); };
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (self)", "[2,3,4], 2 heads", mha, [] { return std::vector{leaf({2, 3, 4}, 6)}; },
        [](const nn::MultiHeadAttention& m, auto& x) { return m(x[0], x[0], x[0]); }));
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (cross)", "q [2,3,4], kv [2,5,4]", mha,
        [] { return std::vector{leaf({2, 3, 4}, 7), leaf({2, 5, 4}, 8)}; },
        [](const nn::MultiHeadAttention& m, auto& x) { return m(x[0], x[1], x[1]); }));
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (kdim 3, vdim 5)", "q [2,3,4], k [2,5,3], v [2,5,5], padding",
        [] { return std::make_shared<nn::MultiHeadAttention>(4, 2, 3, 5); },
        [] { return std::vector{leaf({2, 3, 4}, 13), leaf({2, 5, 3}, 14), leaf({2, 5, 5}, 15)}; },
        [](const nn::MultiHeadAttention& m, auto& x) {
            return m(x[0], x[1], x[2], tensor({1, 1, 1, 0, 0, 1, 1, 1, 1, 1}, {2, 1, 5}, Dtype::int64));
        }));
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (causal)", "[2,3,4], mask [1,3,3]", mha, [] { return std::vector{leaf({2, 3, 4}, 9)}; },
        [](const nn::MultiHeadAttention& m, auto& x) { return m(x[0], x[0], x[0], nn::subsequent_mask(3)); }));
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (padding)", "kv [2,5,4], mask [2,1,5]", mha,
        [] { return std::vector{leaf({2, 3, 4}, 10), leaf({2, 5, 4}, 11)}; },
        [](const nn::MultiHeadAttention& m, auto& x) {
            return m(x[0], x[1], x[1], nn::padding_mask(ids({1, 2, 3, 0, 0, 4, 5, 6, 7, 0}, {2, 5}), 0));
        }));
    cases.push_back({"nn", "scaled_dot_product_attention", "q [2,2,3,4], kv [2,2,5,4], a fully masked row", [] {
                         // Row 1 of batch 1 may attend to nothing: P = 0 there, and so is its gradient.
                         Tensor mask = ids({1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0,
                                            1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, {2, 1, 3, 5});
                         return gradcheck([&](auto& x) { return nn::scaled_dot_product_attention(x[0], x[1], x[2], mask); },
                                          {leaf({2, 2, 3, 4}, 30), leaf({2, 2, 5, 4}, 31), leaf({2, 2, 5, 4}, 32)});
                     }});
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (block-local, L 2)", "[2,5,4], 2 heads", mha, [] { return std::vector{leaf({2, 5, 4}, 18)}; },
        [](const nn::MultiHeadAttention& m, auto& x) {
            return m.self_attention(x[0], Tensor(), nn::AttentionPattern::block_local(2, nn::Direction::causal));
        }));
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (unscaled, causal)", "[2,3,4], 2 heads, P = softmax(Q K^T + M)",
        [] {
            auto m = std::make_shared<nn::MultiHeadAttention>(4, 2);
            m->scaled = false;
            return m;
        },
        [] { return std::vector{leaf({2, 3, 4}, 20)}; },
        [](const nn::MultiHeadAttention& m, auto& x) { return m.self_attention(x[0], nn::subsequent_mask(3)); }));
    cases.push_back(module_case<nn::AdditiveAttention>(
        "nn", "AdditiveAttention (001)", "q [2,3,4], k [2,5,3], v [2,5,2], d_a 6, padding",
        [] { return std::make_shared<nn::AdditiveAttention>(4, 3, 6); },
        [] { return std::vector{leaf({2, 3, 4}, 40), leaf({2, 5, 3}, 41), leaf({2, 5, 2}, 42)}; },
        [](const nn::AdditiveAttention& m, auto& x) {
            return m(x[0], x[1], x[2], tensor({1, 1, 1, 0, 0, 1, 1, 1, 1, 1}, {2, 1, 5}, Dtype::int64));
        }));
    cases.push_back({"nn", "additive_attention_weights", "q [2,2,3,4], k [2,2,5,4], v [2,1,1,4], a fully masked row", [] {
                         Tensor mask = ids({1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0,
                                            1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, {2, 1, 3, 5});
                         return gradcheck([&](auto& x) { return nn::additive_attention_weights(x[0], x[1], x[2], mask); },
                                          {leaf({2, 2, 3, 4}, 43), leaf({2, 2, 5, 4}, 44), leaf({2, 1, 1, 4}, 45)});
                     }});
    // 004 §15.4.7 with the draws fixed: the glimpse c = v_z beside log p(z), and the estimator's loss.
    cases.push_back({"nn", "glimpse (hard attention, z fixed)", "s [3,4], v [3,4,2], z (1, 3, 0)", [] {
                         const Tensor z = ids({1, 3, 0}, {3});
                         return gradcheck(
                             [&](auto& x) {
                                 nn::Glimpse g = nn::glimpse(x[0], x[1], z);
                                 return concat({g.value, reshape(g.log_prob, {3, 1})}, 1);
                             },
                             {leaf({3, 4}, 47), leaf({3, 4, 2}, 48)});
                     }});
    cases.push_back({"nn", "reinforce_loss", "s [3,4], z (1, 3, 0), r (1, 0, 0.5), b 0.4", [] {
                         const Tensor z = ids({1, 3, 0}, {3}), v = zeros({3, 4, 1}, Dtype::float64);
                         const Tensor r = tensor({1, 0, 0.5}, {3}, Dtype::float64);
                         return gradcheck(
                             [&](auto& x) { return nn::reinforce_loss(nn::glimpse(x[0], v, z).log_prob, r, 0.4); },
                             {leaf({3, 4}, 49)});
                     }});
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (additive, causal)", "[2,3,4], 2 heads, e = v_h^T tanh(q W_h^Q + k W_h^K)",
        [] {
            auto m = std::make_shared<nn::MultiHeadAttention>(4, 2);
            m->use_additive_scores();
            return m;
        },
        [] { return std::vector{leaf({2, 3, 4}, 46)}; },
        [](const nn::MultiHeadAttention& m, auto& x) { return m.self_attention(x[0], nn::subsequent_mask(3)); }));
    cases.push_back({"nn", "dot_product_attention (003, no projections)", "x [2,3,4] over y [2,5,4], padding", [] {
                         Tensor mask = ids({1, 1, 1, 0, 0, 1, 1, 1, 1, 1}, {2, 1, 5});
                         return gradcheck([&](auto& x) { return nn::dot_product_attention(x[0], x[1], mask); },
                                          {leaf({2, 3, 4}, 33), leaf({2, 5, 4}, 34)});
                     }});
    cases.push_back({"nn", "dot_product_attention (self, scaled)", "x [2,4,3] over itself", [] {
                         return gradcheck([&](auto& x) { return nn::dot_product_attention(x[0], x[0], Tensor(), true); },
                                          {leaf({2, 4, 3}, 35)});
                     }});
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (block-local L 2, bidirectional, padding)", "[2,5,4], 2 heads, key mask [2,1,5]", mha,
        [] { return std::vector{leaf({2, 5, 4}, 21)}; },
        [](const nn::MultiHeadAttention& m, auto& x) {
            return m.self_attention(x[0], ids({1, 1, 1, 1, 1, 1, 1, 1, 0, 0}, {2, 1, 5}),
                                    nn::AttentionPattern::block_local(2, nn::Direction::bidirectional));
        }));
    for (nn::Direction d : {nn::Direction::causal, nn::Direction::bidirectional})
        cases.push_back(module_case<nn::MultiHeadAttention>(
            "nn", d == nn::Direction::causal ? "MultiHeadAttention (strided S 2, causal)" : "MultiHeadAttention (strided S 2, bidirectional)",
            "[2,5,4], 2 heads", mha, [] { return std::vector{leaf({2, 5, 4}, 22)}; },
            [d](const nn::MultiHeadAttention& m, auto& x) {
                return m.self_attention(x[0], Tensor(), nn::AttentionPattern::strided(2, d));
            }));
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (hybrid L = S 2, bidirectional, padding)", "[2,5,6], 3 heads, key mask [2,1,5]",
        [] { return std::make_shared<nn::MultiHeadAttention>(6, 3); }, [] { return std::vector{leaf({2, 5, 6}, 23)}; },
        [](const nn::MultiHeadAttention& m, auto& x) {
            return m.self_attention(x[0], ids({1, 1, 1, 1, 1, 1, 1, 1, 0, 0}, {2, 1, 5}),
                                    nn::AttentionPattern::hybrid(2, 2, nn::Direction::bidirectional));
        }));
    cases.push_back(module_case<nn::MultiHeadAttention>(
        "nn", "MultiHeadAttention (hybrid L = S 2, causal, additive scores)", "[2,5,4], 2 heads",
        [] {
            auto m = std::make_shared<nn::MultiHeadAttention>(4, 2);
            m->use_additive_scores();
            return m;
        },
        [] { return std::vector{leaf({2, 5, 4}, 24)}; },
        [](const nn::MultiHeadAttention& m, auto& x) {
            return m.self_attention(x[0], Tensor(), nn::AttentionPattern::hybrid(2, 2, nn::Direction::causal));
        }));
    for (std::int64_t k : {1, 2})
        cases.push_back(module_case<nn::MixtureOfExperts>(
            "nn", k == 1 ? "MixtureOfExperts (top 1) + aux loss" : "MixtureOfExperts (top 2) + aux loss",
            "[2,4,4], 3 experts, d_ff 5", [k] { return std::make_shared<nn::MixtureOfExperts>(4, 5, 3, k); },
            [] { return std::vector{leaf({2, 4, 4}, 19)}; },
            [](const nn::MixtureOfExperts& m, auto& x) {
                Tensor y = sum(m(x[0]));
                return y + m.aux_loss();
            }));
    for (Norm norm : {Norm::pre, Norm::post})
        cases.push_back(module_case<nn::SublayerConnection>(
            "nn", norm == Norm::pre ? "SublayerConnection (pre-norm)" : "SublayerConnection (post-norm)",
            "[2,3,4], sublayer tanh", [norm] { return std::make_shared<nn::SublayerConnection>(4, 0.0, norm); },
            [] { return std::vector{leaf({2, 3, 4}, 12)}; },
            [](const nn::SublayerConnection& m, auto& x) { return m.forward(x[0], [](const Tensor& h) { return tanh(h); }); }));
    {
        Tensor t = ids({1, 0, 3, 4, 0, 2}, {2, 3});
        cases.push_back({"nn", "nll_loss", "[2,3,5], ignore 0", [t] {
                             return gradcheck([&](auto& x) { return nn::nll_loss(log_softmax(x[0], -1), t, 0); },
                                              {leaf({2, 3, 5}, 14)});
                         }});
        cases.push_back({"nn", "LabelSmoothingLoss (0.1)", "[2,3,5], padding 0", [t] {
                             nn::LabelSmoothingLoss crit(5, 0, 0.1);
                             return gradcheck([&](auto& x) { return crit(log_softmax(x[0], -1), t); }, {leaf({2, 3, 5}, 15)});
                         }});
    }
    // The elementwise losses, with respect to the input and the target; probabilities and
    // targets kept inside (0, 1) by a sigmoid and by (y + 1) / 2.
    cases.push_back({"nn", "mse_loss", "[2,3] against [2,3], mean", [] {
                         return gradcheck([](auto& x) { return nn::mse_loss(x[0], x[1]); }, {leaf({2, 3}, 16), leaf({2, 3}, 17)});
                     }});
    cases.push_back({"nn", "l1_loss", "[2,3] against [2,3], sum", [] {
                         return gradcheck([](auto& x) { return nn::l1_loss(x[0], x[1], nn::Reduction::sum); },
                                          {leaf({2, 3}, 18), leaf({2, 3}, 19)});
                     }});
    cases.push_back({"nn", "binary_cross_entropy", "[4] probabilities against [4] soft targets, none", [] {
                         return gradcheck(
                             [](auto& x) {
                                 return nn::binary_cross_entropy(sigmoid(x[0] * 2.0), (x[1] + 1.0) / 2.0, nn::Reduction::none);
                             },
                             {leaf({4}, 20), leaf({4}, 21)});
                     }});
    cases.push_back({"nn", "binary_cross_entropy_with_logits", "[2,3] logits in (-4, 4) against soft targets, mean", [] {
                         return gradcheck(
                             [](auto& x) { return nn::binary_cross_entropy_with_logits(x[0] * 4.0, (x[1] + 1.0) / 2.0); },
                             {leaf({2, 3}, 22), leaf({2, 3}, 23)});
                     }});
    cases.push_back(module_case<nn::Sequential>(
        "nn", "Sequential (Linear, ReLU, Linear, Tanh)", "[2,3,4] -> 6 -> 2",
        [] {
            autograd::Generator g(5);
            return std::make_shared<nn::Sequential>(std::make_shared<nn::Linear>(4, 6, true, g), std::make_shared<nn::ReLU>(),
                                                    std::make_shared<nn::Linear>(6, 2, true, g), std::make_shared<nn::Tanh>());
        },
        [] { return std::vector{leaf({2, 3, 4}, 24)}; }, [](const nn::Sequential& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<nn::Sequential>(
        "nn", "Sequential (LayerNorm, GELU, Sigmoid, SiLU, GELU tanh)", "[3,4]",
        [] {
            return std::make_shared<nn::Sequential>(std::make_shared<nn::LayerNorm>(4), std::make_shared<nn::GELU>(),
                                                    std::make_shared<nn::Sigmoid>(), std::make_shared<nn::SiLU>(),
                                                    std::make_shared<nn::GELU>(true));
        },
        [] { return std::vector{leaf({3, 4}, 25)}; }, [](const nn::Sequential& m, auto& x) { return m(x[0]); }));
    using LN = nn::LayerNormFormula;
    using P = nn::Positions;
    for (auto [name, norm, ln, pos] :
         {std::tuple{"Transformer (pre-norm)", Norm::pre, LN::standard, P::sinusoidal},
          {"Transformer (post-norm)", Norm::post, LN::standard, P::sinusoidal},
          {"Transformer (pre-norm, 001's LayerNorm)", Norm::pre, LN::annotated, P::sinusoidal},
          {"Transformer (learned positions)", Norm::pre, LN::standard, P::learned},
          {"Transformer (004's binary positions)", Norm::pre, LN::standard, P::binary},
          {"Transformer (sinusoid concatenated)", Norm::pre, LN::standard, P::concatenated},
          {"Transformer (no positions)", Norm::pre, LN::standard, P::none}})
        cases.push_back(module_case<models::Transformer>(
            "models", name, "N 1, d 8, 2 heads, src [2,4], tgt [2,3]",
            [norm = norm, ln = ln, pos = pos] {  // init-captures: clang 14 cannot capture a structured binding
                return models::make_transformer(tiny_transformer(norm, ln, pos));
            },
            [] { return std::vector<Tensor>{}; },
            [](const models::Transformer& m, auto&) {
                Tensor src = ids({1, 3, 4, 0, 1, 5, 6, 2}, {2, 4}), tgt = ids({1, 3, 4, 1, 5, 6}, {2, 3});
                return m.generator->forward(m.forward(src, tgt, nn::padding_mask(src, 0), models::target_mask(tgt, 0)));
            }));
    cases.push_back(module_case<models::ConformerBlock>(
        "models", "ConformerBlock (004 §15.5.7)", "[2,5,4], 2 heads, d_ff 6, k 3",
        [] {
            Generator g(3);
            return std::make_shared<models::ConformerBlock>(nn::BlockConfig{4, 2, 6, 0.0}, 3, g);
        },
        [] { return std::vector{leaf({2, 5, 4}, 17)}; }, [](const models::ConformerBlock& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<models::PatchEmbedding>(
        "models", "PatchEmbedding ([CLASS], E_pos)", "[2,2,8,8], patch 4, D 6",
        [] {
            Generator g(1);
            return std::make_shared<models::PatchEmbedding>(8, 2, 4, 6, g);
        },
        [] { return std::vector{leaf({2, 2, 8, 8}, 16)}; }, [](const models::PatchEmbedding& m, auto& x) { return m.forward(x[0]); }));
    cases.push_back(module_case<models::ViT>(
        "models", "ViT", "[2,1,8,8], patch 4, D 8, depth 1",
        [] {
            models::ViTConfig c;
            c.image_size = 8, c.patch = 4, c.d_model = 8, c.depth = 1, c.heads = 2, c.mlp = 16, c.classes = 3, c.seed = 2;
            return std::make_shared<models::ViT>(c);
        },
        [] { return std::vector{leaf({2, 1, 8, 8}, 17)}; }, [](const models::ViT& m, auto& x) { return m.forward(x[0]); }));
    // 002 "Output transformations": the [CLASS] position, or the mean over the tokens that are not padding.
    for (auto [name, pooling, masked] : {std::tuple{"pool_tokens (cls)", models::Pooling::cls, false},
                                         {"pool_tokens (mean)", models::Pooling::mean, false},
                                         {"pool_tokens (mean, padding mask)", models::Pooling::mean, true}})
        cases.push_back({"models", name, "[2,4,3], mask [2,1,4]", [pooling = pooling, masked = masked] {
                             Tensor mask = masked ? ids({1, 1, 0, 0, 1, 1, 1, 0}, {2, 1, 4}) : Tensor();
                             return gradcheck([&](auto& x) { return models::pool_tokens(x[0], pooling, mask); },
                                              {leaf({2, 4, 3}, 18)});
                         }});
    cases.push_back(module_case<models::ViT>(
        "models", "ViT (mean pooling, no [CLASS])", "[2,1,8,8], patch 4, D 8, depth 1",
        [] {
            models::ViTConfig c;
            c.image_size = 8, c.patch = 4, c.d_model = 8, c.depth = 1, c.heads = 2, c.mlp = 16, c.classes = 3, c.seed = 2;
            c.pooling = models::Pooling::mean;
            return std::make_shared<models::ViT>(c);
        },
        [] { return std::vector{leaf({2, 1, 8, 8}, 17)}; }, [](const models::ViT& m, auto& x) { return m.forward(x[0]); }));
    for (auto [name, pooling] : {std::pair{"TextClassifier ([CLASS])", models::Pooling::cls},
                                 {"TextClassifier (mean pooling)", models::Pooling::mean}})
        cases.push_back(module_case<models::TextClassifier>(
            "models", name, "N 2, d 8, 2 heads, V 7, ids [2,5] with padding",
            [pooling = pooling] {
                models::TextClassifierConfig c;
                c.vocab = 7, c.max_len = 6, c.d_model = 8, c.n_layers = 2, c.heads = 2, c.d_ff = 12, c.dropout = 0;
                c.classes = 3, c.pooling = pooling, c.seed = 5;
                auto m = std::make_shared<models::TextClassifier>(c);
                Generator g(6);  // weights of O(1), so the check does not pass on weights of 0.02 alone
                NoGradGuard no_grad;
                for (Tensor& p : m->parameters()) p.copy_(uniform(p.shape(), -1, 1, g));
                return m;
            },
            [] { return std::vector<Tensor>{}; },
            [](const models::TextClassifier& m, auto&) { return m.forward(ids({3, 1, 4, 1, 5, 2, 6, 5, 0, 0}, {2, 5})); }));
    for (auto [name, pooling] : {std::pair{"MaskedLanguageModel ([CLASS])", models::Pooling::cls},
                                 {"MaskedLanguageModel (mean pooling)", models::Pooling::mean}})
        cases.push_back(module_case<models::MaskedLanguageModel>(
            "models", name, "N 1, d 8, 2 heads, V 7, ids [2,5] with padding, 3 positions",
            [pooling = pooling] {
                models::TextClassifierConfig c;
                c.vocab = 7, c.max_len = 6, c.d_model = 8, c.n_layers = 1, c.heads = 2, c.d_ff = 12, c.dropout = 0;
                c.classes = 3, c.pooling = pooling, c.seed = 5;
                auto m = std::make_shared<models::MaskedLanguageModel>(std::make_shared<models::TextClassifier>(c), 7);
                Generator g(8);  // weights of O(1), as the classifier's case
                NoGradGuard no_grad;
                for (Tensor& p : m->parameters()) p.copy_(uniform(p.shape(), -1, 1, g));
                return m;
            },
            [] { return std::vector<Tensor>{}; },
            [](const models::MaskedLanguageModel& m, auto&) {
                return m.forward(ids({3, 1, 4, 1, 5, 2, 6, 5, 0, 0}, {2, 5}), ids({1, 5, 7}, {3}));
            }));
    cases.push_back(module_case<models::ViT>(
        "models", "ViT (strided attention S 2)", "[2,1,8,8], patch 4, D 8, depth 1, 5 tokens",
        [] {
            models::ViTConfig c;
            c.image_size = 8, c.patch = 4, c.d_model = 8, c.depth = 1, c.heads = 2, c.mlp = 16, c.classes = 3, c.seed = 2;
            c.attention = {nn::AttentionPattern::Kind::strided, 2};
            return std::make_shared<models::ViT>(c);
        },
        [] { return std::vector{leaf({2, 1, 8, 8}, 17)}; }, [](const models::ViT& m, auto& x) { return m.forward(x[0]); }));
    struct GPTVariant {
        const char* name;
        std::int64_t block, experts;
        models::Positions positions;
        bool tie;
        nn::Activation activation = nn::Activation::gelu;
    };
    for (GPTVariant v : {GPTVariant{"GPT", 0, 0, models::Positions::learned, true},
                         {"GPT (sinusoidal positions, untied)", 0, 0, models::Positions::sinusoidal, false},
                         {"GPT (block-local L 2)", 2, 0, models::Positions::learned, true},
                         {"GPT (MoE 3 experts, top 2)", 0, 3, models::Positions::learned, true},
                         {"GPT (block-local L 2 and MoE)", 2, 3, models::Positions::sinusoidal, true},
                         {"GPT (GPT-2's tanh GELU)", 0, 0, models::Positions::learned, true, nn::Activation::gelu_tanh},
                         {"GPT (004's binary positions)", 0, 0, models::Positions::binary, true},
                         {"GPT (sinusoid concatenated, untied)", 0, 0, models::Positions::concatenated, false}}) {
        cases.push_back(module_case<models::GPT>(
            "models", v.name, "N 1, d 8, 2 heads, V 7, ids [2,5]",
            [v] {
                models::GPTConfig c;
                c.vocab = 7, c.context = 8, c.d_model = 8, c.n_layers = 1, c.heads = 2, c.d_ff = 12;
                c.block = v.block, c.experts = v.experts, c.positions = v.positions, c.tie_weights = v.tie, c.seed = 4;
                c.activation = v.activation;
                return models::make_gpt(c);
            },
            [] { return std::vector<Tensor>{}; },
            [](const models::GPT& m, auto&) {
                Tensor logits = m.forward(ids({1, 3, 4, 0, 6, 2, 5, 5, 1, 0}, {2, 5}));
                return sum(logits * logits) + m.aux_loss();
            }));
    }
    cases.push_back(module_case<nn::GRU>(
        "nn", "GRU", "[2,4,3] -> hidden 5", [] { return std::make_shared<nn::GRU>(3, 5); },
        [] { return std::vector{leaf({2, 4, 3}, 50)}; }, [](const nn::GRU& m, auto& x) { return m(x[0]); }));
    cases.push_back(module_case<nn::Conv1d>(
        "nn", "Conv1d (causal, dilation 2)", "[2,6,3] -> 4, k 3",
        [] { return std::make_shared<nn::Conv1d>(3, 4, 3, 2); },
        [] { return std::vector{leaf({2, 6, 3}, 51)}; }, [](const nn::Conv1d& m, auto& x) { return m(x[0]); }));
    for (auto [name, layer, dilated] :
         {std::tuple{"SequenceTagger (self-attention)", models::SequenceLayer::self_attention, false},
          {"SequenceTagger (recurrent)", models::SequenceLayer::recurrent, false},
          {"SequenceTagger (convolutional, dilated)", models::SequenceLayer::convolutional, true}})
        cases.push_back(module_case<models::SequenceTagger>(
            "models", name, "N 2, d 4, V 6, k 2, ids [2,5]",
            [layer = layer, dilated = dilated] {
                models::SequenceTaggerConfig c;
                c.layer = layer, c.vocab = 6, c.d_model = 4, c.n_layers = 2, c.heads = 2, c.d_ff = 6, c.kernel = 2;
                c.dilated = dilated, c.max_len = 8, c.seed = 4;
                return std::make_shared<models::SequenceTagger>(c);
            },
            [] { return std::vector<Tensor>{}; },
            [](const models::SequenceTagger& m, auto&) { return m(ids({1, 3, 4, 0, 5, 2, 5, 5, 1, 0}, {2, 5})); }));
    // 004 §15.4.6 eq. 15.49-15.53, with a padded premise word and a padded hypothesis word.
    for (auto [name, alignment] : {std::pair{"DecomposableAttention (004 eq. 15.49-15.53)", models::Alignment::soft},
                                   {"DecomposableAttention (uniform weights)", models::Alignment::uniform},
                                   {"DecomposableAttention (no comparison)", models::Alignment::none}})
        cases.push_back(module_case<models::DecomposableAttention>(
            "models", name, "E 4, H 5, V 9, premise [2,4], hypothesis [2,3], padding",
            [alignment = alignment] {
                models::DecomposableAttentionConfig c;
                c.vocab = 9, c.d_embed = 4, c.hidden = 5, c.alignment = alignment, c.seed = 7;
                return std::make_shared<models::DecomposableAttention>(c);
            },
            [] { return std::vector<Tensor>{}; },
            [](const models::DecomposableAttention& m, auto&) {
                return m.forward(ids({1, 5, 2, 0, 3, 8, 4, 6}, {2, 4}), ids({5, 7, 0, 6, 3, 2}, {2, 3}));
            }));
    // 004 §15.4.6 after eq. 15.53: the same model with h of one output, y_hat = 5 sigmoid(h).
    cases.push_back(module_case<models::TextualSimilarity>(
        "models", "TextualSimilarity (STS, 004 §15.4.6)", "E 4, H 5, V 9, premise [2,4], hypothesis [2,3], padding",
        [] {
            models::DecomposableAttentionConfig c;
            c.vocab = 9, c.d_embed = 4, c.hidden = 5, c.classes = 1, c.seed = 8;
            return std::make_shared<models::TextualSimilarity>(c);
        },
        [] { return std::vector<Tensor>{}; },
        [](const models::TextualSimilarity& m, auto&) {
            return m.forward(ids({1, 5, 2, 0, 3, 8, 4, 6}, {2, 4}), ids({5, 7, 0, 6, 3, 2}, {2, 3}));
        }));
    // The RNN encoder-decoder with additive attention (003; 004 §15.5.1 -> §15.4.4): teacher
    // forcing over 3 steps, the second source ending in padding.
    cases.push_back(module_case<models::RnnSeq2Seq>(
        "models", "RnnSeq2Seq (GRUs, additive attention)", "E 3, H 4, d_a 5, V 7, src [2,4], tgt [2,3]",
        [] {
            models::RnnSeq2SeqConfig c;
            c.src_vocab = c.tgt_vocab = 7, c.d_embed = 3, c.hidden = 4, c.d_attention = 5, c.seed = 8;
            return std::make_shared<models::RnnSeq2Seq>(c);
        },
        [] { return std::vector<Tensor>{}; },
        [](const models::RnnSeq2Seq& m, auto&) {
            return m.forward(ids({1, 3, 4, 6, 2, 5, 5, 0}, {2, 4}), ids({1, 4, 2, 1, 5, 5}, {2, 3}));
        }));
    // clang-format on
    return cases;
}

}  // namespace gradcheck_catalog
