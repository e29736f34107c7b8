// Lectern against PyTorch, op by op and layer by layer, in float64: values and
// every gradient (the files are made by make_reference.py; docs/reference.md).
#include "lectern/nn/binary_positional_encoding.h"
#include "lectern/nn/concatenated_positional_encoding.h"
#include "lectern/nn/dot_product_attention.h"
#include "lectern/nn/feed_forward.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/nn/scaled_dot_product_attention.h"
#include "lectern/nn/sinusoidal_positional_encoding.h"
#include "lectern/models/decoder_layer.h"
#include "lectern/models/encoder_layer.h"
#include "reference_case.h"

using namespace autograd;

TEST_CASE("Linear matches PyTorch: y = x W^T + b and its gradients", "[reference]") {
    reference::Case ref("linear");
    nn::Linear lin(4, 5);
    lin.to(Dtype::float64);
    ref.load_parameters(lin);
    Tensor x = ref.input("x");
    Tensor y = lin(x);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &lin);
}

TEST_CASE("LayerNorm matches PyTorch (003's formula, eps 1e-5 inside the square root)", "[reference]") {
    reference::Case ref("layer_norm");
    nn::LayerNorm ln(5);
    ln.to(Dtype::float64);
    ref.load_parameters(ln);
    Tensor x = ref.input("x");
    Tensor y = ln(x);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &ln);
}

TEST_CASE("001's LayerNorm matches PyTorch: a_2 (x - mean) / (unbiased std + 1e-6) + b_2", "[reference]") {
    reference::Case ref("layer_norm_annotated");
    nn::LayerNorm ln(5, nn::LayerNormFormula::annotated);
    ln.to(Dtype::float64);
    ref.load_parameters(ln);
    Tensor x = ref.input("x");
    Tensor y = ln(x);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &ln);
}

TEST_CASE("softmax and log_softmax match PyTorch", "[reference]") {
    for (bool log : {false, true}) {
        reference::Case ref(log ? "log_softmax" : "softmax");
        Tensor x = ref.input("x");
        Tensor y = log ? log_softmax(x, -1) : softmax(x, -1);
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}});
    }
}

TEST_CASE("scaled dot-product attention matches PyTorch: causal, padding, a fully masked row", "[reference]") {
    for (const char* name : {"attention_causal", "attention_padding"}) {
        reference::Case ref(name);
        Tensor q = ref.input("q"), k = ref.input("k"), v = ref.input("v");
        ref.compare("out.p", nn::attention_weights(q, k, ref["mask"]));
        Tensor z = nn::scaled_dot_product_attention(q, k, v, ref["mask"]);
        ref.compare("out.z", z);
        ref.compare_gradients(z, {{"q", q}, {"k", k}, {"v", v}});
    }
}

TEST_CASE("multi-head attention matches PyTorch: causal self-attention and padded cross-attention", "[reference]") {
    {
        reference::Case ref("mha_self_causal");
        nn::MultiHeadAttention mha(8, 2);
        mha.to(Dtype::float64);
        ref.load_parameters(mha);
        Tensor x = ref.input("x");
        Tensor y = mha(x, x, x, ref["mask"]);
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}}, &mha);
    }
    {
        reference::Case ref("mha_cross_padding");
        nn::MultiHeadAttention mha(8, 2);
        mha.to(Dtype::float64);
        ref.load_parameters(mha);
        Tensor x = ref.input("x"), memory = ref.input("memory");
        Tensor y = mha(x, memory, memory, ref["mask"]);
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}, {"memory", memory}}, &mha);
    }
}

TEST_CASE("multi-head attention matches PyTorch with keys and values of their own widths, 5 and 3 (003)",
          "[reference]") {
    reference::Case ref("mha_kdim_vdim");
    nn::MultiHeadAttention mha(8, 2, 5, 3);
    mha.to(Dtype::float64);
    ref.load_parameters(mha);
    Tensor x = ref.input("x"), keys = ref.input("keys"), values = ref.input("values");
    Tensor y = mha(x, keys, values, ref["mask"]);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}, {"keys", keys}, {"values", values}}, &mha);
}

TEST_CASE("the sinusoidal table matches eq. 15.57 computed by PyTorch's reference in float64", "[reference]") {
    reference::Case ref("sinusoidal_pe");
    nn::SinusoidalPositionalEncoding pe(6, 0.0, 16);
    pe.to(Dtype::float64);
    ref.compare("table", pe.table, 1e-15);
}

TEST_CASE("004's binary code added to x matches PyTorch, at positions 3 to 7", "[reference]") {
    reference::Case ref("binary_positions");
    nn::BinaryPositionalEncoding pos(6, 0.0, 8);
    pos.to(Dtype::float64);
    Tensor x = ref.input("x");
    Tensor y = pos.forward(x, 3);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &pos);
}

TEST_CASE("the sinusoid concatenated to x matches PyTorch: [x ; P_K] at positions 2 to 4", "[reference]") {
    reference::Case ref("concatenated_positions");
    nn::ConcatenatedPositionalEncoding pos(8, 4, 0.0, 8);
    pos.to(Dtype::float64);
    Tensor x = ref.input("x");
    Tensor y = pos.forward(x, 2);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &pos);
}

TEST_CASE("the feed-forward layer matches PyTorch with ReLU and with exact GELU", "[reference]") {
    for (auto act : {nn::Activation::relu, nn::Activation::gelu}) {
        reference::Case ref(act == nn::Activation::relu ? "ffn_relu" : "ffn_gelu");
        nn::FeedForward ffn(4, 6, 0.0, act);
        ffn.to(Dtype::float64);
        ref.load_parameters(ffn);
        Tensor x = ref.input("x");
        Tensor y = ffn(x);
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}}, &ffn);
    }
}

TEST_CASE("encoder and decoder layers match PyTorch, pre-norm and post-norm", "[reference]") {
    for (nn::Norm norm : {nn::Norm::pre, nn::Norm::post}) {
        const std::string suffix = norm == nn::Norm::pre ? "_pre" : "_post";
        {
            reference::Case ref("encoder_layer" + suffix);
            models::EncoderLayer layer({8, 2, 16, 0.0, norm, nn::Activation::relu}, default_generator());
            layer.to(Dtype::float64);
            ref.load_parameters(layer);
            Tensor x = ref.input("x");
            Tensor y = layer.forward(x, ref["mask"]);
            ref.compare("out.y", y);
            ref.compare_gradients(y, {{"x", x}}, &layer);
        }
        {
            reference::Case ref("decoder_layer" + suffix);
            models::DecoderLayer layer({8, 2, 16, 0.0, norm, nn::Activation::relu}, default_generator());
            layer.to(Dtype::float64);
            ref.load_parameters(layer);
            Tensor x = ref.input("x"), memory = ref.input("memory");
            Tensor y = layer.forward(x, memory, ref["src_mask"], ref["tgt_mask"]);
            ref.compare("out.y", y);
            ref.compare_gradients(y, {{"x", x}, {"memory", memory}}, &layer);
        }
    }
}

TEST_CASE("attention without the 1/sqrt(d_k) scale matches PyTorch: multi-head, causal", "[reference]") {
    reference::Case ref("mha_unscaled");
    nn::MultiHeadAttention mha(8, 2);
    mha.to(Dtype::float64);
    mha.scaled = false;
    ref.load_parameters(mha);
    Tensor x = ref.input("x");
    Tensor y = mha.self_attention(x, ref["mask"]);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &mha);
}

TEST_CASE("003's dot-product attention matches PyTorch: softmax(X Y^T) Y, and X over itself", "[reference]") {
    {
        reference::Case ref("dot_product_attention");
        Tensor x = ref.input("x"), y = ref.input("y");
        Tensor a = nn::dot_product_attention(x, y, ref["mask"]);
        ref.compare("out.a", a);
        ref.compare_gradients(a, {{"x", x}, {"y", y}});
    }
    {
        reference::Case ref("dot_product_self_attention");
        Tensor x = ref.input("x");
        Tensor a = nn::dot_product_attention(x, x);
        ref.compare("out.a", a);
        ref.compare_gradients(a, {{"x", x}});
    }
}

TEST_CASE("local attention per group matches PyTorch's full attention under the pattern's mask (004 §15.6.1)",
          "[reference]") {
    // T = 7, groups of 3 (the last padded), the second sequence's last two keys padding.
    struct Variant {
        const char* name;
        bool strided;
        nn::Direction direction;
    };
    for (Variant v : {Variant{"mha_block_local_bidirectional", false, nn::Direction::bidirectional},
                      {"mha_strided_causal", true, nn::Direction::causal},
                      {"mha_strided_bidirectional", true, nn::Direction::bidirectional}}) {
        INFO(v.name);
        reference::Case ref(v.name);
        nn::MultiHeadAttention mha(8, 2);
        mha.to(Dtype::float64);
        ref.load_parameters(mha);
        Tensor x = ref.input("x");
        Tensor y = v.strided
                       ? mha.self_attention(x, ref["key_mask"], nn::AttentionPattern::strided(3, v.direction))
                       : mha.self_attention(x, ref["key_mask"], nn::AttentionPattern::block_local(3, v.direction));
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}}, &mha);
    }
}

TEST_CASE("hybrid attention per group matches PyTorch's full attention under each head's mask (004 §15.6.1)",
          "[reference]") {
    // T = 7, L = S = 3, three heads: two block-local, one strided; the second sequence's last two keys padding.
    for (nn::Direction d : {nn::Direction::causal, nn::Direction::bidirectional}) {
        const char* name = d == nn::Direction::causal ? "mha_hybrid_causal" : "mha_hybrid_bidirectional";
        INFO(name);
        reference::Case ref(name);
        nn::MultiHeadAttention mha(6, 3);
        mha.to(Dtype::float64);
        ref.load_parameters(mha);
        Tensor x = ref.input("x");
        Tensor y = mha.self_attention(x, ref["key_mask"], nn::AttentionPattern::hybrid(3, 3, d));
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}}, &mha);
    }
}
