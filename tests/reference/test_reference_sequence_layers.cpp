// Lectern against PyTorch: additive attention (001) and Table 15.1's recurrent and convolutional
// layers (004 §15.5.5), values and every gradient in float64 (make_reference.py writes the files;
// it holds its GRU and convolutions by hand equal to torch.nn.GRU and torch's conv1d).
#include "lectern/models/sequence_tagger.h"
#include "lectern/nn/additive_attention.h"
#include "lectern/nn/conv1d.h"
#include "lectern/nn/gru.h"
#include "lectern/nn/multi_head_attention.h"
#include "reference_case.h"

using namespace autograd;

TEST_CASE("additive attention matches PyTorch: v^T tanh(W_q q + W_k k), a fully masked row", "[reference]") {
    reference::Case ref("additive_attention");
    nn::AdditiveAttention attn(4, 3, 6);
    attn.to(Dtype::float64);
    ref.load_parameters(attn);
    Tensor query = ref.input("query"), key = ref.input("key"), value = ref.input("value");
    Tensor z = attn(query, key, value, ref["mask"]);
    ref.compare("out.z", z);
    ref.compare_gradients(z, {{"query", query}, {"key", key}, {"value", value}}, &attn);
}

TEST_CASE("multi-head attention with additive scores matches PyTorch, causal", "[reference]") {
    reference::Case ref("mha_additive");
    nn::MultiHeadAttention mha(8, 2);
    mha.use_additive_scores();
    mha.to(Dtype::float64);
    ref.load_parameters(mha);
    Tensor x = ref.input("x");
    Tensor y = mha.self_attention(x, ref["mask"]);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &mha);
}

TEST_CASE("conv1d matches PyTorch's conv1d: causal, and same-padded with dilation 2", "[reference]") {
    for (auto [name, dilation, padding] : {std::tuple{"conv1d_causal", 1, ConvPadding::causal},
                                           {"conv1d_same_dilated", 2, ConvPadding::same}}) {
        reference::Case ref(name);
        nn::Conv1d conv(3, 4, 3, dilation, padding);
        conv.to(Dtype::float64);
        ref.load_parameters(conv);
        Tensor x = ref.input("x");
        Tensor y = conv(x);
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}}, &conv);
    }
}

TEST_CASE("the GRU matches torch.nn.GRU's equations over 5 steps", "[reference]") {
    reference::Case ref("gru");
    nn::GRU gru(3, 4);
    gru.to(Dtype::float64);
    ref.load_parameters(gru);
    Tensor x = ref.input("x");
    Tensor h = gru(x);
    ref.compare("out.h", h);
    ref.compare_gradients(h, {{"x", x}}, &gru);
}

TEST_CASE("the sequence tagger matches PyTorch, recurrent and convolutional (dilated)", "[reference]") {
    for (auto [name, layer] : {std::pair{"sequence_tagger_recurrent", models::SequenceLayer::recurrent},
                               {"sequence_tagger_convolutional", models::SequenceLayer::convolutional}}) {
        reference::Case ref(name);
        models::SequenceTaggerConfig c;
        c.layer = layer, c.vocab = 6, c.d_model = 4, c.n_layers = 2, c.kernel = 2, c.dilated = true;
        models::SequenceTagger m(c);
        m.to(Dtype::float64);
        ref.load_parameters(m);
        Tensor logits = m(ref["ids"]);
        ref.compare("out.logits", logits);
        ref.compare_gradients(logits, {}, &m);
    }
}
