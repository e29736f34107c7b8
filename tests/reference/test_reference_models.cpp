// Lectern against PyTorch for the models' own steps: the ViT (002's equations),
// attention rollout, and greedy decoding with the KV cache against PyTorch's
// recomputing loop.
#include "lectern/models/attention_rollout.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/models/transformer.h"
#include "lectern/models/text_classifier.h"
#include "lectern/models/vit.h"
#include "lectern/nn/attention_mask.h"
#include "reference_case.h"

using namespace autograd;

TEST_CASE("a tiny ViT matches PyTorch: logits and the gradient of every parameter and pixel", "[reference]") {
    reference::Case ref("vit");
    models::ViTConfig c;
    c.image_size = 4, c.channels = 1, c.patch = 2, c.d_model = 8, c.depth = 1, c.heads = 2, c.mlp = 16, c.classes = 3;
    models::ViT vit(c);
    vit.to(Dtype::float64);
    ref.load_parameters(vit);
    Tensor images = ref.input("images");
    Tensor logits = vit.forward(images);
    ref.compare("out.logits", logits);
    ref.compare_gradients(logits, {{"images", images}}, &vit);
}

TEST_CASE("a ViT pooling the mean of its patches (no [CLASS]) matches PyTorch", "[reference]") {
    reference::Case ref("vit_mean_pooling");
    models::ViTConfig c;
    c.image_size = 4, c.channels = 1, c.patch = 2, c.d_model = 8, c.depth = 1, c.heads = 2, c.mlp = 16, c.classes = 3;
    c.pooling = models::Pooling::mean;
    models::ViT vit(c);
    vit.to(Dtype::float64);
    ref.load_parameters(vit);
    Tensor images = ref.input("images");
    Tensor logits = vit.forward(images);
    ref.compare("out.logits", logits);
    ref.compare_gradients(logits, {{"images", images}}, &vit);
}

TEST_CASE("the text classifier matches PyTorch, [CLASS] and mean pooling, with a padded text", "[reference]") {
    for (auto pooling : {models::Pooling::cls, models::Pooling::mean}) {
        reference::Case ref("text_classifier_" + models::pooling_name(pooling));
        models::TextClassifierConfig c;
        c.vocab = 7, c.max_len = 6, c.d_model = 8, c.n_layers = 2, c.heads = 2, c.d_ff = 16, c.dropout = 0;
        c.classes = 3, c.pooling = pooling;
        models::TextClassifier model(c);
        model.to(Dtype::float64);
        ref.load_parameters(model);
        Tensor logits = model.forward(ref["ids"]);
        ref.compare("out.logits", logits);
        ref.compare_gradients(logits, {}, &model);
    }
}

TEST_CASE("attention rollout matches PyTorch: prod norm(mean_heads A + I), the [CLASS] row", "[reference]") {
    reference::Case ref("attention_rollout");
    ref.compare("out.rollout", models::attention_rollout(std::vector<Tensor>{ref["attention.0"], ref["attention.1"]}),
                1e-14);
}

TEST_CASE("greedy decoding with the KV cache matches PyTorch's recomputing loop, token for token", "[reference]") {
    reference::Case ref("greedy_decode");
    auto model = reference::tiny_transformer(ref);
    NoGradGuard no_grad;
    const Tensor& src = ref["src"];
    models::Decoded d = models::greedy_decode(*model, src, nn::padding_mask(src, 0), 6, 1);
    CHECK(d.tokens.to_vector() == ref["out.tokens"].to_vector());
    ref.compare("out.log_probs", d.log_probs, 1e-12);
}
