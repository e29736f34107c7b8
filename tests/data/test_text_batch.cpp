// A language model's batches of windows (lectern/data/text_batch.h).
#include "check.h"
#include "lectern/data/text_batch.h"

using namespace autograd;

TEST_CASE("text batches are windows and their next characters", "[data]") {
    data::TokenIds ids(7);
    for (std::int64_t i = 0; i < 9; ++i) ids.push_back(i % 7);
    data::TokenSpan text{&ids, 1, 8};  // the ids 1 .. 6, 0
    data::TextBatch b = data::text_batch(text, {0, 3}, 3);
    require_values(b.inputs, {1, 2, 3, 4, 5, 6}, 0);
    require_values(b.targets, {2, 3, 4, 5, 6, 0}, 0);
    CHECK_THROWS_AS(data::text_batch(text, {5}, 3), IndexError);  // needs text[5 .. 9)
}
