// Batches balanced by class (data/balanced_sampler.h): what the text classifier
// trains on, so that a class of few texts is drawn as often as a large one.
#include <map>

#include "check.h"
#include "lectern/data/balanced_sampler.h"

namespace {
// Class 0 holds texts 0-5, class 1 text 6 alone, class 2 texts 7 and 8.
const std::vector<std::int64_t> kLabels = {0, 0, 0, 0, 0, 0, 1, 2, 2};
const std::vector<std::vector<std::size_t>> kByClass = {{0, 1, 2, 3, 4, 5}, {6}, {7, 8}};
}  // namespace

TEST_CASE("a balanced sampler draws a class, then one of its texts, each uniformly", "[data]") {
    data::BalancedSampler sampler(kLabels, 3, 11);
    // By hand: two draws of the same generator each, class = u % 3, then text = u' % (texts of that class).
    autograd::Generator gen(11);
    for (std::size_t got : sampler.batch(200)) {
        const auto& members = kByClass[gen.next_u64() % 3];
        const std::size_t want = members[gen.next_u64() % members.size()];
        REQUIRE(got == want);
    }
    // Over 30000 draws each class comes a third of the time (a binomial's standard deviation is
    // 82 draws; 5 of them allowed), and each of class 0's six texts a sixth of that (sd 39).
    std::map<std::size_t, int> drawn;
    for (std::size_t i : sampler.batch(30000)) drawn[i] += 1;
    int by_class[3] = {0, 0, 0};
    for (const auto& [text, n] : drawn) by_class[kLabels[text]] += n;
    for (int k = 0; k < 3; ++k) {
        INFO(fmt::format("class {} drawn {} times of 30000", k, by_class[k]));
        CHECK(std::abs(by_class[k] - 10000) < 410);
    }
    for (std::size_t text = 0; text < 6; ++text) {
        INFO(fmt::format("text {} of class 0 drawn {} times of {}", text, drawn[text], by_class[0]));
        CHECK(std::abs(drawn[text] - by_class[0] / 6) < 200);
    }
}

TEST_CASE("the same seed draws the same batches, and the generator's state carries them on", "[data]") {
    data::BalancedSampler a(kLabels, 3, 5), b(kLabels, 3, 5), other(kLabels, 3, 6);
    const std::vector<std::size_t> first = a.batch(64);
    CHECK(first == b.batch(64));
    CHECK(first != other.batch(64));
    // A sampler given another's generator state (as a resumed run restores it) draws what it would have.
    data::BalancedSampler resumed(kLabels, 3, 99);
    resumed.generator().set_state(a.generator().state());
    CHECK(resumed.batch(64) == a.batch(64));
}

TEST_CASE("a balanced sampler refuses a label outside its classes and a class with no text", "[errors]") {
    CHECK_THROWS_WITH(data::BalancedSampler({0, 3}, 3, 1), Catch::Contains("text 1 has label 3, outside 0 to 2"));
    CHECK_THROWS_WITH(data::BalancedSampler({0, -1}, 3, 1), Catch::Contains("text 1 has label -1"));
    CHECK_THROWS_WITH(data::BalancedSampler({0, 2}, 3, 1), Catch::Contains("class 1 has no text"));
    CHECK_THROWS_AS(data::BalancedSampler({}, 0, 1), autograd::ValueError);
}
