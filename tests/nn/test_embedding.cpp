// Embedding: a row of W_emb per token id, optionally scaled by sqrt(d_model).
#include "check.h"
#include "lectern/nn/embedding.h"

using namespace autograd;

TEST_CASE("Embedding looks up rows and scales by sqrt(d_model) (001)", "[module]") {
    nn::Embedding plain(5, 4), scaled(5, 4, true);
    {
        NoGradGuard g;
        scaled.weight.copy_(plain.weight);
    }
    Tensor ids = tensor({3, 0, 3}, {1, 3}, Dtype::int64);
    Tensor e = plain(ids);
    CHECK(e.shape() == Shape{1, 3, 4});
    CHECK(e.at({0, 0, 1}) == plain.weight.at({3, 1}));
    CHECK(scaled(ids).at({0, 2, 2}) == Approx(2.0 * plain.weight.at({3, 2})));  // sqrt(4) = 2
}

TEST_CASE("Embedding rejects float ids and ids out of range", "[errors]") {
    nn::Embedding emb(6, 3);
    CHECK_THROWS_AS(emb(zeros({2})), DtypeError);
    CHECK_THROWS_AS(emb(tensor({6}, Dtype::int64)), IndexError);
}
