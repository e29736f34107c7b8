// Pooling a sequence into one vector (002 "Output transformations"), the ViT
// that pools the mean of its patches, and the encoder-only text classifier.
// Their gradient checks are in the catalog; their PyTorch cases in tests/reference.
#include <algorithm>
#include <cmath>

#include "check.h"
#include "lectern/models/attention_rollout.h"
#include "lectern/models/text_classifier.h"
#include "lectern/models/token_pooling.h"
#include "lectern/models/vit.h"

using namespace autograd;
using models::Pooling;

namespace {
// h [2, 3, 2]: token t of sequence b holds (10 b + t, -t).
Tensor tokens() {
    Tensor h = Tensor::empty({2, 3, 2}, Dtype::float64);
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < 3; ++t) h.set({b, t, 0}, 10 * b + t), h.set({b, t, 1}, -t);
    return h.requires_grad_();
}

models::TextClassifierConfig tiny_text(Pooling pooling) {
    models::TextClassifierConfig c;
    c.vocab = 9, c.max_len = 8, c.d_model = 8, c.n_layers = 2, c.heads = 2, c.d_ff = 16, c.dropout = 0, c.classes = 3;
    c.pooling = pooling, c.seed = 3;
    return c;
}

// Weights of O(1) (the N(0, 0.02^2) initialisation would make every output nearly equal).
void spread_weights(nn::Module& m, std::uint64_t seed) {
    Generator g(seed);
    NoGradGuard no_grad;
    for (Tensor& p : m.parameters()) p.copy_(uniform(p.shape(), -1, 1, g, p.dtype()));
}
}  // namespace

TEST_CASE("pooling takes the [CLASS] position or the mean of the tokens that are not padding (002)", "[model]") {
    Tensor h = tokens();
    require_values(models::pool_tokens(h, Pooling::cls), {0, 0, 10, 0});
    require_values(models::pool_tokens(h, Pooling::mean), {1, -1, 11, -1});
    // Sequence 0 counts its first two tokens, sequence 1 only its first: (0 + 1)/2, (0 - 1)/2; 10, 0.
    Tensor mask = tensor({1, 1, 0, 1, 0, 0}, {2, 1, 3}, Dtype::int64);
    Tensor y = models::pool_tokens(h, Pooling::mean, mask);
    require_values(y, {0.5, -0.5, 10, 0});
    require_values(models::pool_tokens(h, Pooling::mean, reshape(mask, {2, 3})), {0.5, -0.5, 10, 0});
    // dh_t = dy / (number of tokens) for a counted token, 0 for padding.
    sum(y).backward();
    require_values(h.grad(), {0.5, 0.5, 0.5, 0.5, 0, 0, 1, 1, 0, 0, 0, 0});
}

TEST_CASE("pooling refuses a mask of another shape and a sequence that is all padding", "[errors]") {
    Tensor h = tokens();
    CHECK_THROWS_AS(models::pool_tokens(h, Pooling::mean, tensor({1, 1, 1}, {1, 1, 3}, Dtype::int64)), ShapeError);
    CHECK_THROWS_WITH(models::pool_tokens(h, Pooling::mean, tensor({1, 0, 0, 0, 0, 0}, {2, 3}, Dtype::int64)),
                      Catch::Contains("sequence 1 is all padding"));
    CHECK_THROWS_AS(models::pool_tokens(zeros({2, 3}), Pooling::cls), ShapeError);
    CHECK(models::parse_pooling("mean") == Pooling::mean);
    CHECK_THROWS_AS(models::parse_pooling("max"), ValueError);
}

TEST_CASE("a ViT with mean pooling has no [CLASS] token and reads LN(mean of the patch outputs)", "[model]") {
    models::ViTConfig c;
    c.image_size = 8, c.patch = 4, c.d_model = 8, c.depth = 1, c.heads = 2, c.mlp = 16, c.classes = 3, c.seed = 2;
    c.pooling = Pooling::mean;
    models::ViT vit(c);
    CHECK_FALSE(vit.embed->class_token.defined());
    for (const auto& [name, p] : vit.named_parameters()) CHECK(name != "embed.class_token");
    CHECK(vit.embed->position->weight.shape() == Shape{4, 8});  // E_pos for N = 4 patches, no [CLASS] row
    Generator g(4);
    Tensor images = randn({2, 1, 8, 8}, g);
    NoGradGuard no_grad;
    Tensor z = vit.embed->forward(images);
    CHECK(z.shape() == Shape{2, 4, 8});
    for (const auto& layer : *vit.layers) z = layer->forward(z, Tensor());
    Tensor expected = (*vit.head)((*vit.norm)(mean(z, 1)));
    require_values(vit.forward(images), expected.to_vector(), 1e-6);
    // The rollout of a mean-pooled ViT is the mean of R's rows: a distribution over the 4 patches.
    Tensor r = models::attention_rollout(vit);
    CHECK(r.shape() == Shape{2, 4});
    for (std::int64_t b = 0; b < 2; ++b) CHECK(sum(select(r, 0, b)).item() == Approx(1.0));
    // Uniform attention over 2 tokens, one layer: rows [0.75, 0.25] and [0.25, 0.75], mean [0.5, 0.5].
    require_values(models::attention_rollout({full({1, 2, 2, 2}, 0.5)}, Pooling::mean), {0.5, 0.5});
}

TEST_CASE("the text classifier ignores padding: a text padded longer gives the same logits", "[model]") {
    for (Pooling pooling : {Pooling::cls, Pooling::mean}) {
        INFO("pooling " << models::pooling_name(pooling));
        models::TextClassifier m(tiny_text(pooling));
        spread_weights(m, 7);
        Tensor a = m.forward(tensor({3, 1, 4, 1, 5}, {1, 5}, Dtype::int64));
        Tensor b = m.forward(tensor({3, 1, 4, 1, 5, 0, 0, 0, 2, 7, 1, 0, 0, 0, 0, 0}, {2, 8}, Dtype::int64));
        CHECK(b.shape() == Shape{2, 3});
        require_values(select(b, 0, 0), a.to_vector(), 1e-5);
    }
}

TEST_CASE("without positions the text classifier is permutation-invariant (002's equivariance, then pooling)",
          "[model]") {
    for (Pooling pooling : {Pooling::cls, Pooling::mean}) {
        INFO("pooling " << models::pooling_name(pooling));
        models::TextClassifier m(tiny_text(pooling));
        spread_weights(m, 8);
        {
            NoGradGuard no_grad;
            m.pos->weight.copy_(zeros(m.pos->weight.shape()));
        }
        Tensor a = m.forward(tensor({3, 1, 4, 1, 5, 8}, {1, 6}, Dtype::int64));
        Tensor b = m.forward(tensor({5, 8, 1, 3, 4, 1}, {1, 6}, Dtype::int64));
        require_values(b, a.to_vector(), 1e-5);
        // With its positions the order matters.
        spread_weights(m, 8);
        std::vector<double> x = m.forward(tensor({3, 1, 4, 1, 5, 8}, {1, 6}, Dtype::int64)).to_vector(),
                            y = m.forward(tensor({5, 8, 1, 3, 4, 1}, {1, 6}, Dtype::int64)).to_vector();
        double most = 0;
        for (std::size_t i = 0; i < x.size(); ++i) most = std::max(most, std::abs(x[i] - y[i]));
        CHECK(most > 1e-3);
    }
}

TEST_CASE("the text classifier: [CLASS] only with cls pooling, and typed errors", "[errors]") {
    models::TextClassifier cls(tiny_text(Pooling::cls)), avg(tiny_text(Pooling::mean));
    CHECK(cls.class_token.defined());
    CHECK(cls.pos->weight.size(0) == 9);  // max_len + 1 for [CLASS]
    CHECK_FALSE(avg.class_token.defined());
    CHECK(avg.pos->weight.size(0) == 8);
    CHECK_THROWS_AS(cls.forward(zeros({1, 9}, Dtype::int64)), ShapeError);  // longer than max_len
    CHECK_THROWS_AS(cls.forward(zeros({1, 3})), DtypeError);                // not token ids
    CHECK_THROWS_WITH(avg.forward(zeros({1, 3}, Dtype::int64)), Catch::Contains("all padding"));
    auto c = tiny_text(Pooling::cls);
    c.pad = 9;
    CHECK_THROWS_AS(models::TextClassifier(c), ValueError);
}
