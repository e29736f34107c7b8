// Premise/hypothesis pairs for attention for entailment (004 §15.4.6): each label follows from
// comparing the hypothesis's tokens with the premise's words.
#include <algorithm>
#include <set>

#include "check.h"
#include "lectern/data/entailment_pairs.h"

using namespace autograd;

namespace {

// The rule, recomputed from a pair's tokens alone.
std::int64_t label_by_rule(const std::set<std::int64_t>& premise, const std::vector<std::int64_t>& hypothesis,
                           std::int64_t K) {
    bool negated = false, foreign = false;
    for (std::int64_t t : hypothesis) {
        const bool is_negation = t > K;
        const std::int64_t word = is_negation ? t - K : t;
        if (is_negation && premise.count(word)) negated = true;
        else if (is_negation || !premise.count(word)) foreign = true;
    }
    return negated ? data::contradicted : foreign ? data::neutral : data::entailed;
}

}  // namespace

TEST_CASE("entailment pairs: each label is the one the rule gives, read word by word (004 §15.4.6)", "[data]") {
    data::EntailmentPairsConfig c;  // K 24, premises of 4..8 words, hypotheses of 1..3
    Generator gen(7);
    const std::int64_t B = 3000, K = c.words, M = c.max_premise, N = c.max_hypothesis;
    data::EntailmentBatch b = data::entailment_batch(c, B, gen);
    REQUIRE(b.premise.shape() == Shape{B, M});
    REQUIRE(b.hypothesis.shape() == Shape{B, N});
    REQUIRE(b.labels.shape() == Shape{B});
    std::int64_t negated_neutral = 0;
    std::vector<std::int64_t> per_label(3), lengths(static_cast<std::size_t>(M + 1));
    for (std::int64_t r = 0; r < B; ++r) {
        std::set<std::int64_t> premise;
        std::int64_t m = 0;
        for (std::int64_t i = 0; i < M; ++i) {
            const auto t = static_cast<std::int64_t>(b.premise.at({r, i}));
            if (t == data::kEntailmentPad) continue;
            REQUIRE(i == m);              // padding only at the end
            REQUIRE((t >= 1 && t <= K));  // words, never negations
            premise.insert(t), ++m;
        }
        REQUIRE(static_cast<std::int64_t>(premise.size()) == m);  // distinct
        REQUIRE((m >= c.min_premise && m <= M));
        ++lengths[static_cast<std::size_t>(m)];
        std::vector<std::int64_t> hypothesis;
        for (std::int64_t j = 0; j < N; ++j) {
            const auto t = static_cast<std::int64_t>(b.hypothesis.at({r, j}));
            if (t == data::kEntailmentPad) continue;
            REQUIRE(j == static_cast<std::int64_t>(hypothesis.size()));
            REQUIRE((t >= 1 && t <= 2 * K));
            hypothesis.push_back(t);
        }
        REQUIRE(!hypothesis.empty());
        REQUIRE(static_cast<std::int64_t>(hypothesis.size()) <= m);
        const auto label = static_cast<std::int64_t>(b.labels.at({r}));
        INFO("pair " << r);
        REQUIRE(label == label_by_rule(premise, hypothesis, K));
        ++per_label[static_cast<std::size_t>(label)];
        if (label == data::neutral)
            negated_neutral += std::any_of(hypothesis.begin(), hypothesis.end(), [&](std::int64_t t) { return t > K; });
    }
    // The three labels about equally often, and a negation alone does not tell contradiction:
    // about half the neutral hypotheses hold one (the negation of a word the premise lacks).
    for (std::int64_t n : per_label) CHECK(std::abs(n - B / 3) < 100);
    CHECK(std::abs(negated_neutral - per_label[data::neutral] / 2) < 80);
    for (std::int64_t m = c.min_premise; m <= M; ++m) CHECK(lengths[static_cast<std::size_t>(m)] > 400);
}

TEST_CASE("entailment pairs: one seed, one batch; the tokens are named words and their negations", "[data]") {
    data::EntailmentPairsConfig c;
    c.words = 10, c.min_premise = 2, c.max_premise = 5, c.max_hypothesis = 4;
    Generator g1(3), g2(3);
    data::EntailmentBatch a = data::entailment_batch(c, 50, g1), b = data::entailment_batch(c, 50, g2);
    CHECK(a.premise.to_vector() == b.premise.to_vector());
    CHECK(a.hypothesis.to_vector() == b.hypothesis.to_vector());
    CHECK(a.labels.to_vector() == b.labels.to_vector());
    CHECK(data::entailment_vocab(c) == 21);
    CHECK(data::entailment_token(c, 0) == "<pad>");
    CHECK(data::entailment_token(c, 1) == "rain");
    CHECK(data::entailment_token(c, 11) == "no-rain");
    CHECK(data::entailment_token(c, 20) == "no-dog");
    CHECK_THROWS_AS(data::entailment_token(c, 21), IndexError);
    CHECK(data::entailment_label_name(data::contradicted) == "contradiction");
}

TEST_CASE("entailment pairs refuse a configuration they cannot draw from", "[data][errors]") {
    Generator gen(1);
    auto with = [](std::int64_t K, std::int64_t lo, std::int64_t hi, std::int64_t n) {
        data::EntailmentPairsConfig c;
        c.words = K, c.min_premise = lo, c.max_premise = hi, c.max_hypothesis = n;
        return c;
    };
    CHECK_THROWS_AS(data::entailment_batch(with(33, 4, 8, 3), 4, gen), ValueError);  // more words than named
    CHECK_THROWS_AS(data::entailment_batch(with(8, 4, 8, 3), 4, gen), ValueError);   // no word left out of a premise
    CHECK_THROWS_AS(data::entailment_batch(with(24, 0, 8, 3), 4, gen), ValueError);
    CHECK_THROWS_AS(data::entailment_batch(with(24, 5, 4, 3), 4, gen), ValueError);
    CHECK_THROWS_AS(data::entailment_batch(with(24, 4, 8, 0), 4, gen), ValueError);
    CHECK_THROWS_AS(data::entailment_batch(with(24, 4, 8, 3), 0, gen), ValueError);
    CHECK_NOTHROW(data::entailment_batch(with(9, 1, 8, 8), 4, gen));
}
