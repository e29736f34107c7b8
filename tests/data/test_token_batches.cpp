// Labelled texts as ids and batches (token_batches.h, masked_tokens.h), by hand.
#include <catch2/catch.hpp>

#include "lectern/autograd/autograd.h"
#include "lectern/data/masked_tokens.h"
#include "lectern/data/token_batches.h"

using namespace autograd;

namespace {

data::TokenizedTexts three_texts(std::int64_t max_len) {
    // "ab" -> 0 1, "abc" -> 0 1 2, "c" -> 2 (a letter's id is its place in the alphabet)
    const std::vector<data::LabelledText> texts = {{"ab", 0}, {"abc", 1}, {"c", 1}};
    return data::tokenize_texts(
        texts,
        [](const std::string& t) {
            std::vector<std::int64_t> ids;
            for (char c : t) ids.push_back(c - 'a');
            return ids;
        },
        max_len);
}

}  // namespace

TEST_CASE("tokenized texts are shifted by one, 0 padding, cut to their longest", "[data][token_batches]") {
    const data::TokenizedTexts e = three_texts(2);
    CHECK(e.ids == std::vector<std::vector<std::int64_t>>{{1, 2}, {1, 2}, {3}});
    CHECK(e.labels == std::vector<std::int64_t>{0, 1, 1});
    CHECK(e.truncated == 1);  // "abc"
    auto [x, y] = data::token_batch(e, {2, 0});
    CHECK(x.shape() == Shape{2, 2});
    CHECK(std::vector<std::int64_t>(x.data<std::int64_t>(), x.data<std::int64_t>() + 4) ==
          std::vector<std::int64_t>{3, 0, 1, 2});
    CHECK(y.data<std::int64_t>()[0] == 1);
    CHECK(y.data<std::int64_t>()[1] == 0);
}

TEST_CASE("token_batch leaves out tokens at the drop rate, never the first", "[data][token_batches]") {
    data::TokenizedTexts e;
    e.ids.push_back(std::vector<std::int64_t>(1000, 7));
    e.labels.push_back(0);
    Generator gen(3);
    auto [x, y] = data::token_batch(e, {0}, 0.25, &gen);
    const std::int64_t kept = x.size(1);
    CHECK(x.data<std::int64_t>()[0] == 7);
    CHECK(kept > 700);  // 1 + 999 * 0.75 = 750 expected, standard deviation 14
    CHECK(kept < 800);
    auto [all, unused] = data::token_batch(e, {0});
    CHECK(all.size(1) == 1000);
}

TEST_CASE("a bag of words is a unit vector over the words a text holds", "[data][token_batches]") {
    const data::WordVocabulary vocab({"a b", "b c", "c a"}, 1);  // a 0, b 1, c 2
    const auto bags = data::bags_of_words(vocab, {{"b a b", 0}, {"c d", 1}});
    CHECK(bags == std::vector<std::vector<std::int64_t>>{{0, 1}, {2}});
    const Tensor x = data::bag_of_words_batch(bags, {0, 1}, 3);
    const float h = 1.0f / std::sqrt(2.0f);
    CHECK(std::vector<float>(x.data<float>(), x.data<float>() + 6) == std::vector<float>{h, h, 0, 0, 0, 1});
}

TEST_CASE("a split's bags of words count only the words its training texts share", "[data][token_batches]") {
    data::FortuneSplit split;
    split.train = {{"red fox", 0}, {"red hen", 1}, {"blue fox", 0}};
    split.validation = {{"red owl", 1}};
    split.test = {{"blue hen fox", 0}};
    const data::SplitBags bags = data::split_bags_of_words(split, 2);  // fox 0, red 1: in two training texts
    CHECK(bags.words == 2);
    CHECK(bags.train == std::vector<std::vector<std::int64_t>>{{0, 1}, {1}, {0}});
    CHECK(bags.validation == std::vector<std::vector<std::int64_t>>{{1}});
    CHECK(bags.test == std::vector<std::vector<std::int64_t>>{{0}});
}

TEST_CASE("a masked batch hides at least one token a text and targets only those", "[data][masked_tokens]") {
    data::TokenizedTexts e;
    for (int i = 0; i < 200; ++i) e.ids.push_back({1, 2, 3, 4}), e.labels.push_back(0);
    std::vector<std::size_t> rows(200);
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    Generator gen(5);
    const std::int64_t mask_id = 9;
    auto [x, target] = data::masked_token_batch(e, rows, 0.15, mask_id, gen);
    std::int64_t chosen = 0, masked = 0, kept = 0;
    for (std::int64_t b = 0; b < 200; ++b) {
        std::int64_t in_text = 0;
        for (std::int64_t t = 0; t < 4; ++t) {
            const std::int64_t id = x.data<std::int64_t>()[b * 4 + t], want = target.data<std::int64_t>()[b * 4 + t];
            if (want == -100) {
                CHECK(id == t + 1);  // not chosen: left as it was
                continue;
            }
            CHECK(want == t + 1);  // the target is the original token
            ++in_text, ++chosen;
            masked += id == mask_id, kept += id == want;
            CHECK(id >= 1);
            CHECK(id <= mask_id);
        }
        CHECK(in_text >= 1);
    }
    // 1 forced + 3 * 0.15 a text: about 290 chosen, 80% of them masked and about 10% left as they are.
    CHECK(chosen > 240);
    CHECK(chosen < 340);
    CHECK(static_cast<double>(masked) / static_cast<double>(chosen) == Approx(0.8).margin(0.08));
    CHECK(static_cast<double>(kept) / static_cast<double>(chosen) > 0.05);
}
