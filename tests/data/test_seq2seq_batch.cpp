// Batches of source-target pairs under teacher forcing.
#include "check.h"
#include "lectern/data/seq2seq_batch.h"

using namespace autograd;

TEST_CASE("a seq2seq batch pads the sources and shifts the target around <s> and </s> (worked by hand)", "[data]") {
    const std::vector<data::TokenPair> pairs{{{5, 6, 7}, {8}}, {{9}, {10, 11}}};
    const data::Seq2SeqBatch b = data::seq2seq_batch(pairs, {1, 0}, {.pad = 0, .start = 1, .end = 2});
    CHECK(b.src.shape() == Shape{2, 3});
    CHECK(b.tgt_in.shape() == Shape{2, 3});
    require_values(b.src, {9, 0, 0, 5, 6, 7});
    require_values(b.tgt_in, {1, 10, 11, 1, 8, 0});
    require_values(b.tgt_out, {10, 11, 2, 8, 2, 0});
    CHECK(b.tokens == 5);  // 10 11 </s>, 8 </s>
}

TEST_CASE("a seq2seq batch of an empty pair holds one padded source place, <s> and </s>", "[data]") {
    const data::Seq2SeqBatch b = data::seq2seq_batch({{{}, {}}}, {0}, {.pad = 3, .start = 4, .end = 5});
    require_values(b.src, {3});
    require_values(b.tgt_in, {4});
    require_values(b.tgt_out, {5});
    CHECK(b.tokens == 1);
}

TEST_CASE("a seq2seq batch refuses no rows and a row outside the pairs", "[errors]") {
    const std::vector<data::TokenPair> pairs{{{5}, {6}}};
    CHECK_THROWS_AS(data::seq2seq_batch(pairs, {}, {0, 1, 2}), ValueError);
    CHECK_THROWS_WITH(data::seq2seq_batch(pairs, {1}, {0, 1, 2}), Catch::Contains("row 1 of 1 pairs"));
}
