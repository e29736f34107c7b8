// The shapes of one copy-task batch through Transformer::forward, at copy_task's defaults
// (B 64, L 10, V 11, N 2, d_model 64, h 4, d_k 16, d_ff 256): the walk-through of
// docs/start-here.md, each step's shape pinned here.
#include "check.h"
#include "lectern/data/copy_task.h"
#include "lectern/models/transformer.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/loss.h"

using namespace autograd;

namespace {

void require_shape(const char* what, const Tensor& t, const Shape& expected) {
    INFO(what << ": " << shape_str(t.shape()) << ", expected " << shape_str(expected));
    REQUIRE(t.shape() == expected);
}

}  // namespace

TEST_CASE("one copy-task batch through Transformer::forward has the shapes of docs/start-here.md", "[model]") {
    const std::int64_t B = 64, L = 10, V = 11, D = 64, h = 4, F = 256;
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = V;
    c.n_layers = 2, c.d_model = D, c.heads = h, c.d_ff = F, c.dropout = 0.0, c.seed = 1;
    auto model = models::make_transformer(c);
    Generator gen(1);
    const data::CopyBatch b = data::copy_task_batch(V, L, B, gen);
    require_shape("src: the start symbol, then L - 1 symbols", b.src, {B, L});
    require_shape("tgt_in: the target shifted right", b.tgt_in, {B, L - 1});
    require_shape("tgt_out: the target shifted left", b.tgt_out, {B, L - 1});

    const Tensor src_mask = nn::padding_mask(b.src, data::kCopyPad);
    const Tensor tgt_mask = models::target_mask(b.tgt_in, data::kCopyPad);
    require_shape("src_mask: padding, one row for every query", src_mask, {B, 1, L});
    require_shape("tgt_mask: causal and padding", tgt_mask, {B, L - 1, L - 1});

    // encode: X = Embed(src) sqrt(D), X + P, then N encoder layers and the final LayerNorm.
    const Tensor x = model->src_embed->forward(b.src);
    require_shape("Embed(src)", x, {B, L, D});
    const Tensor h0 = model->src_pos->forward(x);
    require_shape("POS(Embed(src))", h0, {B, L, D});
    const models::EncoderLayer& layer = (*model->encoder->layers)[0];
    require_shape("Q = X W^Q: the h heads of d_k side by side", layer.self_attn->w_q->forward(h0), {B, L, D});
    require_shape("one layer's self-attention", layer.self_attn->self_attention(h0, src_mask), {B, L, D});
    require_shape("P of the encoder's self-attention: a row of L weights per head and query",
                  layer.self_attn->last_attention(), {B, h, L, L});
    require_shape("the FFN's hidden units", layer.feed_forward->w_1->forward(h0), {B, L, F});
    const Tensor memory = model->encode(b.src, src_mask);
    require_shape("memory = encode(src)", memory, {B, L, D});

    // decode: the target's embeddings through N decoder layers, reading the memory.
    const Tensor out = model->decode(memory, src_mask, b.tgt_in, tgt_mask);
    require_shape("decode(memory, tgt_in)", out, {B, L - 1, D});
    const models::DecoderLayer& dec = (*model->decoder->layers)[1];
    require_shape("P of the decoder's masked self-attention", dec.self_attn->last_attention(), {B, h, L - 1, L - 1});
    require_shape("P of the cross-attention: target queries over source keys", dec.src_attn->last_attention(),
                  {B, h, L - 1, L});
    REQUIRE(model->forward(b.src, b.tgt_in, src_mask, tgt_mask).shape() == Shape{B, L - 1, D});

    const Tensor log_probs = model->generator->forward(out);
    require_shape("the generator's log-probabilities", log_probs, {B, L - 1, V});
    const nn::LabelSmoothingLoss criterion(V, data::kCopyPad, 0.0);
    require_shape("the loss: one number", criterion(log_probs, b.tgt_out), {});
}
