// Sentence pairs graded for relatedness (the STS variant of 004 §15.4.6): each grade is the rule's,
// 5 |C_A ∩ C_B| / |C_A ∪ C_B| over the concepts the tokens write, synonyms and function words aside.
#include <cmath>
#include <set>

#include "check.h"
#include "lectern/data/relatedness_pairs.h"

using namespace autograd;

TEST_CASE("relatedness pairs: each grade is 5 times the Jaccard index of the concepts, read token by token", "[data]") {
    data::RelatednessPairsConfig c;  // K 24, F 6, 3..6 content words, 0..3 function words
    Generator gen(11);
    const std::int64_t B = 400, L = data::relatedness_length(c);
    const data::RelatednessBatch batch = data::relatedness_batch(c, B, gen);
    REQUIRE(batch.first.shape() == Shape{B, L});
    REQUIRE(batch.second.shape() == Shape{B, L});
    std::set<double> grades;
    std::int64_t synonyms_apart = 0;  // shared concepts written by different synonyms
    for (std::int64_t b = 0; b < B; ++b) {
        std::set<std::int64_t> concepts[2], words[2];
        for (int side = 0; side < 2; ++side) {
            const Tensor& s = side == 0 ? batch.first : batch.second;
            std::int64_t content = 0;
            for (std::int64_t t = 0; t < L; ++t) {
                const auto id = static_cast<std::int64_t>(s.at({b, t}));
                const std::int64_t k = data::relatedness_concept(c, id);
                if (k >= 0) concepts[side].insert(k), words[side].insert(id), ++content;
            }
            REQUIRE(content == static_cast<std::int64_t>(concepts[side].size()));  // distinct concepts
            REQUIRE(content >= c.min_content);
            REQUIRE(content <= c.max_content);
        }
        double shared = 0;
        for (std::int64_t k : concepts[0]) {
            shared += concepts[1].count(k);
            if (concepts[1].count(k) && !words[1].count(words[0].count(1 + k) ? 1 + k : 1 + k + c.concepts))
                ++synonyms_apart;
        }
        const double expected = 5 * shared / static_cast<double>(concepts[0].size() + concepts[1].size() - shared);
        INFO("pair " << b);
        REQUIRE(std::abs(batch.relatedness.at({b}) - expected) < 1e-6);
        grades.insert(expected);
    }
    REQUIRE(grades.count(0.0) == 1);  // unrelated pairs
    REQUIRE(grades.count(5.0) == 1);  // pairs of the same concepts
    REQUIRE(grades.size() > 10);
    REQUIRE(synonyms_apart > 100);  // about half the shared concepts look different
}

TEST_CASE("relatedness pairs refuse a configuration they cannot draw from", "[data][errors]") {
    Generator gen(1);
    data::RelatednessPairsConfig c;
    c.concepts = 10;  // fewer than 2 max_content: C_B's new concepts may not exist
    REQUIRE_THROWS_AS(data::relatedness_batch(c, 4, gen), ValueError);
    REQUIRE_THROWS_AS(data::relatedness_batch({}, 0, gen), ValueError);
    REQUIRE_THROWS_AS(data::relatedness_concept({}, 55), IndexError);
}
