// The Vision Transformer: patch extraction, the patch embedding, attention
// rollout. Its gradient checks are in the catalog.
#include "check.h"
#include "lectern/models/attention_rollout.h"
#include "lectern/models/vit.h"

using namespace autograd;

namespace {
models::ViTConfig tiny() {
    models::ViTConfig c;
    c.image_size = 8, c.channels = 1, c.patch = 4, c.d_model = 8, c.depth = 1, c.heads = 2, c.mlp = 16, c.classes = 3;
    c.seed = 2;
    return c;
}
}  // namespace

TEST_CASE("patch extraction puts pixel (r, c) where the notes say", "[model]") {
    // A 2-channel 4x4 image whose pixel (r, c) of channel k holds 100 k + 10 r + c; patch 2.
    Tensor img = Tensor::empty({1, 2, 4, 4});
    for (int k = 0; k < 2; ++k)
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) img.set({0, k, r, c}, 100 * k + 10 * r + c);
    Tensor p = models::extract_patches(img, 2);
    CHECK(p.shape() == Shape{1, 4, 8});  // N = 4 patches of P*P*C = 8 values
    for (int k = 0; k < 2; ++k)
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) {
                // patch (r/2)*2 + c/2, value ((r%2)*2 + c%2)*C + k
                INFO("pixel (" << r << ", " << c << ") of channel " << k);
                REQUIRE(p.at({0, (r / 2) * 2 + c / 2, ((r % 2) * 2 + c % 2) * 2 + k}) == 100 * k + 10 * r + c);
            }
}

TEST_CASE("the patch embedding prepends [CLASS] and adds E_pos (002)", "[model]") {
    Generator g(1);
    models::PatchEmbedding embed(8, 1, 4, 8, g);
    Tensor z = embed.forward(zeros({2, 1, 8, 8}));
    CHECK(z.shape() == Shape{2, 5, 8});
    // A black image: every patch row is E's bias + E_pos; row 0 is x_class + E_pos[0].
    require_values(narrow(narrow(z, 0, 1, 1), 1, 0, 1),
                   (reshape(embed.class_token, {1, 1, 8}) + narrow(embed.position->weight, 0, 0, 1)).to_vector(), 1e-6);
    require_values(narrow(narrow(z, 0, 0, 1), 1, 2, 1),
                   (embed.proj->bias + narrow(embed.position->weight, 0, 2, 1)).to_vector(), 1e-6);
}

TEST_CASE("attention rollout: rows of the product are distributions; identity attention keeps only the residual",
          "[model]") {
    models::ViT vit(tiny());
    vit.forward(randn({3, 1, 8, 8}, autograd::default_generator()));
    Tensor r = models::attention_rollout(vit);
    CHECK(r.shape() == Shape{3, 4});
    for (double v : r.to_vector()) REQUIRE(v >= 0);
    for (std::int64_t b = 0; b < 3; ++b) CHECK(sum(narrow(r, 0, b, 1)).item() < 1.0);
    // With attention that only looks at itself, (A + I)/2 = I: no patch flows into [CLASS].
    Tensor eye = zeros({1, 1, 3, 3});
    for (std::int64_t i = 0; i < 3; ++i) eye.set({0, 0, i, i}, 1);
    require_values(models::attention_rollout({eye, eye}), {0, 0});
    // Uniform attention over 2 tokens, one layer: (A + I) rows [1.5, 0.5] / 2 -> [CLASS] gets 0.25 from the patch.
    require_values(models::attention_rollout({full({1, 2, 2, 2}, 0.5)}), {0.25});
    CHECK_THROWS_AS(models::attention_rollout(std::vector<Tensor>{}), ValueError);
}

TEST_CASE("the ViT rejects images of the wrong size", "[errors]") {
    models::ViT vit(tiny());
    CHECK_THROWS_WITH(vit.forward(zeros({1, 1, 9, 9})), Catch::Contains("PatchEmbedding: images [1, 1, 9, 9]"));
    CHECK_THROWS_AS(models::extract_patches(zeros({1, 1, 6, 6}), 4), ShapeError);
    auto c = tiny();
    c.patch = 3;
    CHECK_THROWS_AS(models::ViT(c), ValueError);
}

TEST_CASE("with_new_head keeps the pre-trained body and draws a new head for the new classes (004 15.5.6)", "[model]") {
    models::ViT pretrained(tiny());  // 3 classes, seed 2
    {
        // "Pre-training" moves every parameter, the layer norms' gamma = 1 and beta = 0 too.
        NoGradGuard no_grad;
        Generator gen(3);
        for (Tensor& p : pretrained.parameters()) p.copy_(p + randn(p.shape(), gen));
    }
    auto fine = models::with_new_head(pretrained, 5, 7);
    CHECK(fine->config.classes == 5);
    CHECK(fine->head->weight.shape() == Shape{5, 8});
    // The head is the one a fresh 5-class ViT of seed 7 draws; its body is not that ViT's.
    models::ViTConfig c = tiny();
    c.classes = 5, c.seed = 7;
    models::ViT fresh(c);
    const auto pre = pretrained.named_parameters(), fresh_params = fresh.named_parameters();
    const auto got = fine->named_parameters();
    REQUIRE(got.size() == pre.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO(got[i].first);
        REQUIRE(got[i].first == pre[i].first);
        if (got[i].first.starts_with("head.")) {
            require_values(got[i].second, fresh_params[i].second.to_vector(), 0);
        } else {
            require_values(got[i].second, pre[i].second.to_vector(), 0);
            CHECK(sum(abs(got[i].second - fresh_params[i].second)).item() > 0);
        }
    }
    // A copy: training the new model leaves the pre-trained one as it was.
    const std::vector<double> before = pretrained.embed->proj->weight.to_vector();
    {
        NoGradGuard no_grad;
        fine->embed->proj->weight.copy_(zeros(fine->embed->proj->weight.shape()));
    }
    require_values(pretrained.embed->proj->weight, before, 0);
    CHECK(fine->forward(zeros({2, 1, 8, 8})).shape() == Shape{2, 5});
}

TEST_CASE("with_new_head takes the pre-trained model's dtype and mode", "[model]") {
    models::ViT pretrained(tiny());
    pretrained.to(Dtype::float64);
    pretrained.eval();
    auto fine = models::with_new_head(pretrained, 4, 1);
    CHECK(fine->dtype() == Dtype::float64);
    CHECK(fine->head->weight.dtype() == Dtype::float64);
    CHECK_FALSE(fine->is_training());
}
