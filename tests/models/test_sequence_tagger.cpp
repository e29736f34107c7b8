// The sequence tagger with Table 15.1's three middles (004 §15.5.5): each causal, and the
// convolutions reaching exactly N (k - 1) positions back, or k^N - 1 dilated.
#include <limits>

#include "check.h"
#include "lectern/models/sequence_tagger.h"
#include "lectern/nn/conv1d.h"

using namespace autograd;

namespace {

std::shared_ptr<models::SequenceTagger> tagger(models::SequenceLayer layer, bool dilated = false) {
    models::SequenceTaggerConfig c;
    c.layer = layer, c.vocab = 7, c.d_model = 8, c.n_layers = 2, c.kernel = 3, c.dilated = dilated, c.max_len = 64;
    c.seed = 2;
    return std::make_shared<models::SequenceTagger>(c);
}

// Which outputs change when the token at position s changes: [first, last] of those that do.
std::pair<std::int64_t, std::int64_t> influenced(const models::SequenceTagger& m, std::int64_t T, std::int64_t s) {
    std::vector<double> v(static_cast<std::size_t>(T), 1.0);
    Tensor a = m(tensor(v, {1, T}, Dtype::int64));
    v[static_cast<std::size_t>(s)] = 4;
    Tensor b = m(tensor(v, {1, T}, Dtype::int64));
    const std::vector<double> ya = a.to_vector(), yb = b.to_vector();
    std::int64_t first = -1, last = -1;
    for (std::int64_t t = 0; t < T; ++t) {
        bool changed = false;
        for (std::int64_t j = 0; j < 7; ++j)
            changed = changed || ya[static_cast<std::size_t>(t * 7 + j)] != yb[static_cast<std::size_t>(t * 7 + j)];
        if (changed && first < 0) first = t;
        if (changed) last = t;
    }
    return {first, last};
}

}  // namespace

TEST_CASE("a token reaches the outputs at and after it: every later one (attention, GRU), N (k - 1) on (CNN)",
          "[model]") {
    using L = models::SequenceLayer;
    const std::int64_t T = 16, s = 3;
    for (L layer : {L::self_attention, L::recurrent})
        REQUIRE(influenced(*tagger(layer), T, s) == std::pair<std::int64_t, std::int64_t>{s, T - 1});
    // Two layers of kernel 3: 2 + 2 = 4 positions back; dilated (1, 3): 2 + 6 = 8 = 3^2 - 1.
    const auto cnn = tagger(L::convolutional), dilated = tagger(L::convolutional, true);
    REQUIRE(models::reach(cnn->config, T) == 4);
    REQUIRE(models::reach(dilated->config, T) == 8);
    REQUIRE(influenced(*cnn, T, s) == std::pair<std::int64_t, std::int64_t>{s, s + 4});
    REQUIRE(influenced(*dilated, T, s) == std::pair<std::int64_t, std::int64_t>{s, s + 8});
    REQUIRE((*tagger(L::convolutional))(tensor({1, 2, 3}, {1, 3}, Dtype::int64)).shape() == Shape{1, 3, 7});
}

TEST_CASE("the sequence tagger refuses ids that are not [B, T] int64 and a vocabulary of one", "[errors]") {
    REQUIRE_THROWS_AS((*tagger(models::SequenceLayer::recurrent))(tensor({1, 2}, {2}, Dtype::int64)), ShapeError);
    REQUIRE_THROWS_AS((*tagger(models::SequenceLayer::recurrent))(tensor({1, 2}, {1, 2}, Dtype::float32)), DtypeError);
    models::SequenceTaggerConfig c;
    c.vocab = 1;
    REQUIRE_THROWS_AS(models::SequenceTagger(c), ValueError);
}

TEST_CASE("dilated convolutions reach k^N - 1 back up to int64's limit, and are refused past it, not wrapped",
          "[errors]") {
    // 3^39 - 1 fits in int64, 3^40 - 1 does not: 39 dilated layers of kernel 3 at most.
    REQUIRE(models::max_conv_layers(3, true) == 39);
    REQUIRE(models::max_conv_layers(2, true) == 63);  // 2^63 - 1 is int64's largest
    models::SequenceTaggerConfig c;
    c.layer = models::SequenceLayer::convolutional, c.kernel = 3, c.dilated = true, c.d_model = 2;
    c.n_layers = 39;
    const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
    REQUIRE(models::reach(c, huge) == 4052555153018976266);  // 3^39 - 1
    for (std::int64_t layers : {40, 41, 64}) {
        c.n_layers = layers;
        INFO("layers " << layers);
        REQUIRE_THROWS_AS(models::reach(c, huge), ValueError);
        REQUIRE_THROWS_AS(models::SequenceTagger(c), ValueError);
    }
    c.dilated = false;  // N (k - 1): no such limit short of int64
    REQUIRE(models::reach(c, huge) == 128);
    REQUIRE_THROWS_AS(nn::Conv1d(1, 1, 3, huge / 2 + 1), ValueError);  // its causal padding (k - 1) r
}

TEST_CASE(
    "bidirectional with a fixed pattern (004 §15.6.1), a token reaches in one layer its block (block-local), "
    "its residue (strided), and in two every output (hybrid)",
    "[model]") {
    using Kind = nn::AttentionPattern::Kind;
    const std::int64_t T = 16, s = 5, L = 4;
    auto changed = [&](Kind kind, std::int64_t layers) {  // which outputs change with the token at s
        models::SequenceTaggerConfig c;
        c.vocab = 7, c.d_model = 8, c.n_layers = layers, c.heads = 2, c.max_len = 64, c.seed = 2;
        c.bidirectional = true, c.attention = {kind, L};
        models::SequenceTagger m(c);
        std::vector<double> v(static_cast<std::size_t>(T), 1.0);
        const std::vector<double> a = m(tensor(v, {1, T}, Dtype::int64)).to_vector();
        v[static_cast<std::size_t>(s)] = 4;
        const std::vector<double> b = m(tensor(v, {1, T}, Dtype::int64)).to_vector();
        std::vector<std::int64_t> out;
        for (std::int64_t t = 0; t < T; ++t)
            for (std::int64_t j = 0; j < 7; ++j)
                if (a[static_cast<std::size_t>(t * 7 + j)] != b[static_cast<std::size_t>(t * 7 + j)]) {
                    out.push_back(t);
                    break;
                }
        return out;
    };
    REQUIRE(changed(Kind::block_local, 1) == std::vector<std::int64_t>{4, 5, 6, 7});
    REQUIRE(changed(Kind::strided, 1) == std::vector<std::int64_t>{1, 5, 9, 13});
    REQUIRE(changed(Kind::hybrid, 1) == std::vector<std::int64_t>{1, 4, 5, 6, 7, 9, 13});
    REQUIRE(changed(Kind::hybrid, 2).size() == static_cast<std::size_t>(T));
    REQUIRE(changed(Kind::block_local, 2) == std::vector<std::int64_t>{4, 5, 6, 7});
    REQUIRE(changed(Kind::full, 1).size() == static_cast<std::size_t>(T));
}

TEST_CASE("the sequence tagger refuses a local pattern read causally, and the hybrid with one head", "[errors]") {
    models::SequenceTaggerConfig c;
    c.attention = {nn::AttentionPattern::Kind::block_local, 4};
    REQUIRE_THROWS_AS(models::SequenceTagger(c), ValueError);
    c.bidirectional = true, c.attention = {nn::AttentionPattern::Kind::hybrid, 4}, c.heads = 1;
    REQUIRE_THROWS_AS(models::SequenceTagger(c), ValueError);
}
