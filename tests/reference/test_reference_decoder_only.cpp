// Lectern against PyTorch for the decoder-only pieces: learned positions (002),
// block-local attention (004 §15.6.1), the mixture of experts (004 §15.5.7), the
// GPT block and whole GPTs (nanoGPT's layout), values and every gradient.
#include "lectern/models/gpt.h"
#include "lectern/models/gpt_block.h"
#include "lectern/nn/learned_positional_embedding.h"
#include "lectern/nn/mixture_of_experts.h"
#include "lectern/nn/multi_head_attention.h"
#include "reference_case.h"

using namespace autograd;

TEST_CASE("learned positions match PyTorch: x + W_pos[start : start + T], from 0 and from 2", "[reference]") {
    for (std::int64_t start : {0, 2}) {
        reference::Case ref(start == 0 ? "learned_positions" : "learned_positions_offset");
        nn::LearnedPositionalEmbedding pos(6, 8);
        pos.to(Dtype::float64);
        ref.load_parameters(pos);
        Tensor x = ref.input("x");
        Tensor y = pos.forward(x, start);
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}}, &pos);
    }
}

TEST_CASE("block-local attention matches PyTorch's full attention under the block mask (blocks of 2 over 5)",
          "[reference]") {
    reference::Case ref("mha_block_local");
    nn::MultiHeadAttention mha(8, 2);
    mha.to(Dtype::float64);
    ref.load_parameters(mha);
    Tensor x = ref.input("x");
    Tensor y =
        mha.self_attention(x, Tensor(),
                           nn::AttentionPattern::block_local(2,
                                                             nn::Direction::causal));  // per block, the last one padded
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &mha);
}

TEST_CASE("the mixture of experts matches PyTorch token by token: top-2 of 3, softmax over the chosen logits",
          "[reference]") {
    reference::Case ref("moe");
    nn::MixtureOfExperts moe(8, 16, 3, 2);
    moe.to(Dtype::float64);
    ref.load_parameters(moe);
    Tensor x = ref.input("x");
    Tensor y = moe(x);
    ref.compare("out.y", y);
    ref.compare("out.aux", moe.aux_loss());
    ref.compare_gradients(y, {{"x", x}}, &moe);
}

TEST_CASE("a GPT block matches PyTorch: h + MHA(LN(h)) causal, then + MLP(LN(.)) with GELU", "[reference]") {
    reference::Case ref("gpt_block");
    autograd::Generator gen(0);
    models::GPTBlock block({8, 2, 16, 0.0, nn::Norm::pre, nn::Activation::gelu}, 0, 0, 2, gen);
    block.to(Dtype::float64);
    ref.load_parameters(block);
    Tensor x = ref.input("x");
    Tensor y = block.forward(x);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &block);
}

TEST_CASE("whole GPTs match PyTorch: logits, next-token loss and every gradient (full; block-local with MoE)",
          "[reference]") {
    for (bool local_moe : {false, true}) {
        reference::Case ref(local_moe ? "gpt_local_moe" : "gpt");
        models::GPTConfig c;
        c.vocab = 7, c.context = 6, c.d_model = 8, c.n_layers = 2, c.heads = 2, c.d_ff = 16;
        c.block = local_moe ? 2 : 0, c.experts = local_moe ? 3 : 0, c.top_k = 2;
        models::GPT gpt(c);
        gpt.to(Dtype::float64);
        ref.load_parameters(gpt);
        Tensor logits = gpt.forward(ref["ids"]);
        ref.compare("out.logits", logits);
        Tensor loss = cross_entropy(reshape(logits, {-1, 7}), reshape(ref["targets"], {-1}));
        ref.compare("out.loss", reshape(loss, {1}));
        loss.backward();
        for (const auto& [name, p] : gpt.named_parameters()) ref.compare("grad." + name, p.grad());
    }
}
