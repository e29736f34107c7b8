// A model's config counts the parameters of the model it builds, from the config alone
// (parameter_count of TransformerConfig, ViTConfig, GPTConfig, TextClassifierConfig and
// SequenceTaggerConfig): held equal to the built model's Module::parameter_count over configs
// that change what there is to count.
#include <string>

#include "check.h"
#include "lectern/models/gpt.h"
#include "lectern/models/gpt2_config.h"
#include "lectern/models/sequence_tagger.h"
#include "lectern/models/text_classifier.h"
#include "lectern/models/transformer.h"
#include "lectern/models/vit.h"

namespace {

template <class Model, class Config>
void check_count(const std::string& what, const Config& c) {
    INFO(what);
    CHECK(c.parameter_count() == static_cast<double>(Model(c).parameter_count()));
}

}  // namespace

TEST_CASE("a Transformer's config counts its parameters: shared, learned, concatenated, post-norm, additive",
          "[model]") {
    models::TransformerConfig c;
    c.src_vocab = 13, c.tgt_vocab = 11, c.n_layers = 2, c.d_model = 16, c.d_ff = 24, c.heads = 4, c.max_len = 40;
    check_count<models::Transformer>("the default: sinusoidal positions, pre-norm", c);
    models::TransformerConfig shared = c;
    shared.src_vocab = shared.tgt_vocab = 11, shared.share_embeddings = true;
    check_count<models::Transformer>("one embedding matrix for source, target and generator", shared);
    models::TransformerConfig learned = c;
    learned.positions = nn::Positions::learned;
    check_count<models::Transformer>("learned positions: two tables of max_len x d_model", learned);
    models::TransformerConfig concatenated = c;
    concatenated.positions = nn::Positions::concatenated, concatenated.position_width = 6;
    check_count<models::Transformer>("concatenated positions: embeddings K narrower", concatenated);
    models::TransformerConfig post = c;
    post.norm = nn::Norm::post, post.layer_norm = nn::LayerNormFormula::annotated, post.n_layers = 3;
    check_count<models::Transformer>("post-norm: no final norms", post);
    models::TransformerConfig additive = c;
    additive.compatibility = nn::Compatibility::additive, additive.positions = nn::Positions::binary;
    check_count<models::Transformer>("additive scores: v [H, d_k] in every attention", additive);
}

TEST_CASE("a ViT's config counts its parameters: [CLASS] or mean pooling, colour, patch sizes", "[model]") {
    models::ViTConfig c;
    c.d_model = 16, c.depth = 2, c.heads = 2, c.mlp = 32;
    check_count<models::ViT>("28 x 28, patch 4, [CLASS]", c);
    models::ViTConfig mean = c;
    mean.pooling = models::Pooling::mean;
    check_count<models::ViT>("mean pooling: no x_class, N positions", mean);
    models::ViTConfig colour = c;
    colour.image_size = 12, colour.channels = 3, colour.patch = 6, colour.classes = 5, colour.depth = 3;
    check_count<models::ViT>("12 x 12 x 3, patch 6, five classes", colour);
}

TEST_CASE("a GPT's config counts its parameters: tied or not, positions, experts, blocks", "[model]") {
    models::GPTConfig c;
    c.vocab = 29, c.context = 24, c.d_model = 16, c.n_layers = 2, c.heads = 4, c.d_ff = 32;
    check_count<models::GPT>("tied, learned positions", c);
    models::GPTConfig untied = c;
    untied.tie_weights = false, untied.positions = nn::Positions::sinusoidal;
    check_count<models::GPT>("untied, sinusoidal positions", untied);
    models::GPTConfig concatenated = untied;
    concatenated.positions = nn::Positions::concatenated;
    check_count<models::GPT>("concatenated positions: E_tok narrower", concatenated);
    models::GPTConfig experts = c;
    experts.experts = 3, experts.top_k = 2, experts.block = 4;
    check_count<models::GPT>("three experts per block, block-local attention", experts);
    models::GPTConfig gpt2_like = c;
    gpt2_like.activation = nn::Activation::gelu_tanh, gpt2_like.layer_norm_eps = 1e-5, gpt2_like.n_layers = 3;
    check_count<models::GPT>("GPT-2's layout, small", gpt2_like);
}

TEST_CASE("GPT-2 124M's config counts the 124,439,808 parameters OpenAI's weights hold, without building it",
          "[model]") {
    CHECK(models::gpt2_config("124M").parameter_count() == 124439808.0);
}

TEST_CASE("a text classifier's config counts its parameters: [CLASS] or mean pooling", "[model]") {
    models::TextClassifierConfig c;
    c.vocab = 37, c.max_len = 20, c.d_model = 16, c.n_layers = 2, c.heads = 2, c.d_ff = 32, c.classes = 3;
    check_count<models::TextClassifier>("[CLASS] pooling", c);
    models::TextClassifierConfig mean = c;
    mean.pooling = models::Pooling::mean;
    check_count<models::TextClassifier>("mean pooling", mean);
}

TEST_CASE("a sequence tagger's config counts its parameters: attention, GRU or convolutions", "[model]") {
    models::SequenceTaggerConfig c;
    c.vocab = 13, c.d_model = 16, c.n_layers = 3, c.heads = 2, c.d_ff = 24, c.max_len = 64;
    check_count<models::SequenceTagger>("causal self-attention", c);
    models::SequenceTaggerConfig local = c;
    local.bidirectional = true, local.attention = {nn::AttentionPattern::Kind::hybrid, 4};
    check_count<models::SequenceTagger>("bidirectional, the hybrid pattern", local);
    models::SequenceTaggerConfig recurrent = c;
    recurrent.layer = models::SequenceLayer::recurrent;
    check_count<models::SequenceTagger>("GRUs", recurrent);
    models::SequenceTaggerConfig conv = c;
    conv.layer = models::SequenceLayer::convolutional, conv.kernel = 5, conv.dilated = true;
    check_count<models::SequenceTagger>("dilated convolutions of kernel 5", conv);
}

TEST_CASE("a config counts a model too large to build without overflow", "[model]") {
    models::GPTConfig huge;
    huge.vocab = 1 << 20, huge.n_layers = 1 << 20;
    huge.d_model = std::int64_t{1} << 40, huge.d_ff = std::int64_t{1} << 42;
    CHECK(huge.parameter_count() > 1e30);
}
