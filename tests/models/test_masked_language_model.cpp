// The masked language model that pre-trains the text classifier's encoder
// (models/masked_language_model.h). Its float64 gradient check is in the
// catalog (tests/gradcheck/module_cases.cpp).
#include <cmath>

#include "check.h"
#include "lectern/models/masked_language_model.h"

using namespace autograd;
using models::Pooling;

namespace {
models::TextClassifierConfig tiny_text(Pooling pooling) {
    models::TextClassifierConfig c;
    c.vocab = 9, c.max_len = 8, c.d_model = 8, c.n_layers = 1, c.heads = 2, c.d_ff = 16, c.dropout = 0, c.classes = 3;
    c.pooling = pooling, c.seed = 3;
    return c;
}
}  // namespace

TEST_CASE("a masked language model holds the classifier's own parameters and a head over the vocabulary", "[model]") {
    auto classifier = std::make_shared<models::TextClassifier>(tiny_text(Pooling::cls));
    models::MaskedLanguageModel lm(classifier, 4);
    const auto theirs = classifier->named_parameters(), ours = lm.named_parameters();
    REQUIRE(ours.size() == theirs.size() + 2);
    for (std::size_t i = 0; i < theirs.size(); ++i) {
        CHECK(ours[i].first == "classifier." + theirs[i].first);
        CHECK(ours[i].second.raw_data() == theirs[i].second.raw_data());  // the same tensor: pre-training trains it
    }
    CHECK(ours[theirs.size()].first == "predict.weight");
    CHECK(ours[theirs.size()].second.shape() == Shape{9, 8});  // W_pred [vocab, D]
    CHECK(ours[theirs.size() + 1].first == "predict.bias");
    CHECK(lm.parameter_count() == classifier->parameter_count() + 9 * 8 + 9);
    // The head is drawn from its own seed: the same seed, the same head.
    models::MaskedLanguageModel again(std::make_shared<models::TextClassifier>(tiny_text(Pooling::cls)), 4);
    require_values(again.predict->weight, lm.predict->weight.to_vector(), 0);
}

TEST_CASE("its logits at a position are the head applied to the encoder's output there", "[model]") {
    // ids [2, 4]: text 0 has four tokens, text 1 two and padding. Positions b T + t: (0, 1), (1, 1), (0, 3).
    const Tensor ids = tensor({3, 1, 4, 1, 5, 2, 0, 0}, {2, 4}, Dtype::int64);
    const Tensor positions = tensor({1, 5, 3}, {3}, Dtype::int64);
    for (Pooling pooling : {Pooling::cls, Pooling::mean}) {
        INFO("pooling " << models::pooling_name(pooling));
        models::MaskedLanguageModel lm(std::make_shared<models::TextClassifier>(tiny_text(pooling)), 4);
        Tensor logits = lm.forward(ids, positions);
        CHECK(logits.shape() == Shape{3, 9});
        NoGradGuard no_grad;
        Tensor h = lm.classifier->encode(ids);  // [2, 5, 8] with [CLASS] first, [2, 4, 8] without
        const std::int64_t first = pooling == Pooling::cls ? 1 : 0;
        const std::pair<std::int64_t, std::int64_t> at[] = {{0, 1}, {1, 1}, {0, 3}};
        for (std::int64_t m = 0; m < 3; ++m) {
            Tensor expected = (*lm.predict)(select(select(h, 0, at[m].first), 0, first + at[m].second));
            require_values(select(logits, 0, m), expected.to_vector(), 1e-6);
        }
    }
}

TEST_CASE("its loss is the cross-entropy at the chosen tokens only, and counts them", "[model]") {
    const Tensor ids = tensor({3, 1, 4, 1, 5, 2, 0, 0}, {2, 4}, Dtype::int64);
    const Tensor targets = tensor({-100, 7, -100, 2, -100, 6, -100, -100}, {2, 4}, Dtype::int64);  // (0,1) (0,3) (1,1)
    models::MaskedLanguageModel lm(std::make_shared<models::TextClassifier>(tiny_text(Pooling::cls)), 4);
    const auto [loss, M] = lm.loss(ids, targets);
    CHECK(M == 3);
    // -log softmax(logits)[original], averaged over the three chosen positions, by hand.
    const Tensor logits = lm.forward(ids, tensor({1, 3, 5}, {3}, Dtype::int64));
    const std::int64_t original[] = {7, 2, 6};
    double expected = 0;
    for (std::int64_t m = 0; m < 3; ++m) {
        const std::vector<double> row = select(logits, 0, m).to_vector();
        double z = 0;
        for (double v : row) z += std::exp(v);
        expected += (std::log(z) - row[static_cast<std::size_t>(original[m])]) / 3;
    }
    CHECK(loss.item() == Approx(expected).epsilon(1e-6));
    const Tensor none = tensor(std::vector<double>(8, -100), {2, 4}, Dtype::int64);
    CHECK_THROWS_WITH(lm.loss(ids, none), Catch::Contains("no token is chosen"));
    CHECK_THROWS_AS(lm.loss(ids, tensor({1, 2}, {2}, Dtype::int64)), ShapeError);
}

TEST_CASE("a masked language model refuses positions outside the batch and of another type or shape", "[errors]") {
    models::MaskedLanguageModel lm(std::make_shared<models::TextClassifier>(tiny_text(Pooling::cls)), 4);
    const Tensor ids = tensor({3, 1, 4, 1, 5, 2, 0, 0}, {2, 4}, Dtype::int64);
    CHECK_THROWS_AS(lm.forward(ids, tensor({8}, {1}, Dtype::int64)), IndexError);  // B T = 8 positions
    CHECK_THROWS_AS(lm.forward(ids, tensor({1, 2}, {1, 2}, Dtype::int64)), ShapeError);
    CHECK_THROWS_AS(lm.forward(ids, tensor({1}, {1})), DtypeError);
}
