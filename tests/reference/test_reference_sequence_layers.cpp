// Lectern against PyTorch: additive attention (001) and Table 15.1's recurrent and convolutional
// layers (004 §15.5.5), values and every gradient in float64 (make_reference.py writes the files;
// it holds its GRU and convolutions by hand equal to torch.nn.GRU and torch's conv1d); and the RNN
// encoder-decoder with additive attention (003; 004 §15.5.1 -> §15.4.4) against PyTorch's own GRU
// and GRUCell (make_rnn_attention_reference.py).
#include "lectern/models/greedy_decode.h"
#include "lectern/models/rnn_seq2seq.h"
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
    for (auto [name, dilation, padding] :
         {std::tuple{"conv1d_causal", 1, ConvPadding::causal}, {"conv1d_same_dilated", 2, ConvPadding::same}}) {
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

TEST_CASE("the RNN encoder-decoder with additive attention matches PyTorch's GRU and GRUCell, teacher-forced",
          "[reference]") {
    reference::Case ref("rnn_seq2seq");
    models::RnnSeq2SeqConfig c;
    c.src_vocab = 7, c.tgt_vocab = 6, c.d_embed = 3, c.hidden = 4, c.d_attention = 5;
    models::RnnSeq2Seq m(c);
    m.to(Dtype::float64);
    ref.load_parameters(m);
    Tensor weights;
    Tensor log_probs = m.forward(ref["src"], ref["tgt_in"], &weights);
    ref.compare("out.log_probs", log_probs);
    ref.compare("out.weights", weights);
    ref.compare_gradients(log_probs, {}, &m);
}

TEST_CASE("the RNN encoder-decoder decodes greedily as PyTorch's loop does: tokens, log-probabilities, attention",
          "[reference]") {
    reference::Case ref("rnn_seq2seq_greedy");
    models::RnnSeq2SeqConfig c;
    c.src_vocab = 7, c.tgt_vocab = 6, c.d_embed = 3, c.hidden = 4, c.d_attention = 5;
    models::RnnSeq2Seq m(c);
    m.to(Dtype::float64);
    ref.load_parameters(m);
    Tensor weights;
    models::Decoded d = models::greedy_decode(m, ref["src"], 5, 1, -1, &weights);
    ref.compare("out.tokens", d.tokens.to(Dtype::float64), 0);
    ref.compare("out.log_probs", d.log_probs);
    ref.compare("out.weights", weights);
}
