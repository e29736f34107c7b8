// The copy task's batches.
#include "check.h"
#include "lectern/data/copy_task.h"

using namespace autograd;

TEST_CASE("copy batches start with the start symbol, draw from 1..V-1 and shift the target", "[data]") {
    Generator g(1);
    data::CopyBatch b = data::copy_task_batch(11, 10, 50, g);
    CHECK(b.src.shape() == Shape{50, 10});
    CHECK(b.tgt_in.shape() == Shape{50, 9});
    CHECK(b.ntokens == 450);
    std::vector<int> seen(11, 0);
    for (std::int64_t i = 0; i < 50; ++i) {
        CHECK(b.src.at({i, 0}) == 1);
        for (std::int64_t t = 1; t < 10; ++t) {
            auto v = static_cast<int>(b.src.at({i, t}));
            REQUIRE((v >= 1 && v <= 10));
            seen[v] = 1;
            REQUIRE(b.tgt_out.at({i, t - 1}) == v);
            REQUIRE(b.tgt_in.at({i, t - 1}) == b.src.at({i, t - 1}));
        }
    }
    CHECK(seen[0] == 0);  // never the padding symbol
    CHECK(std::count(seen.begin() + 1, seen.end(), 1) == 10);
    Generator g2(1);
    CHECK(data::copy_task_batch(11, 10, 50, g2).src.to_vector() == b.src.to_vector());
}

TEST_CASE("copy batches reject bad sizes", "[errors]") {
    Generator g(1);
    CHECK_THROWS_AS(data::copy_task_batch(2, 10, 5, g), ValueError);
    CHECK_THROWS_AS(data::copy_task_batch(11, 1, 5, g), ValueError);
    CHECK_THROWS_AS(data::copy_task_batch(11, 10, 5, g, 0), ValueError);
}
