// The copy task's symbols copied, reversed and sorted.
#include <algorithm>

#include "check.h"
#include "lectern/data/sequence_tasks.h"

using namespace autograd;

namespace {

// The whole target of row i: tgt_in's first symbol, then tgt_out.
std::vector<std::int64_t> target_row(const data::CopyBatch& b, std::int64_t i) {
    std::vector<std::int64_t> t{static_cast<std::int64_t>(b.tgt_in.at({i, 0}))};
    for (std::int64_t j = 0; j < b.tgt_out.size(1); ++j) t.push_back(static_cast<std::int64_t>(b.tgt_out.at({i, j})));
    return t;
}

}  // namespace

TEST_CASE("a reversed target is the start symbol then the source's symbols last to first", "[data]") {
    Generator g(3);
    data::CopyBatch b = data::sequence_task_batch(data::SequenceTask::reverse, 11, 6, 4, g);
    for (std::int64_t i = 0; i < 4; ++i) {
        std::vector<std::int64_t> t = target_row(b, i);
        REQUIRE(t.size() == 6);
        CHECK(t[0] == 1);
        for (std::int64_t j = 1; j < 6; ++j) CHECK(t[static_cast<std::size_t>(j)] == b.src.at({i, 6 - j}));
        for (std::int64_t j = 0; j + 2 < 6; ++j) CHECK(b.tgt_in.at({i, j + 1}) == b.tgt_out.at({i, j}));
    }
    CHECK(b.ntokens == 20);
}

TEST_CASE("a sorted target is the start symbol then the source's symbols in order", "[data]") {
    Generator g(4);
    data::CopyBatch b = data::sequence_task_batch(data::SequenceTask::sort, 11, 8, 3, g);
    for (std::int64_t i = 0; i < 3; ++i) {
        std::vector<std::int64_t> t = target_row(b, i), src;
        for (std::int64_t j = 1; j < 8; ++j) src.push_back(static_cast<std::int64_t>(b.src.at({i, j})));
        std::sort(src.begin(), src.end());
        CHECK(t[0] == 1);
        CHECK(std::vector<std::int64_t>(t.begin() + 1, t.end()) == src);
    }
}

TEST_CASE("the copy task's target is its source, and the same seed draws the same sources", "[data]") {
    Generator g(5), g2(5), g3(5);
    data::CopyBatch c = data::sequence_task_batch(data::SequenceTask::copy, 11, 7, 2, g);
    data::CopyBatch r = data::sequence_task_batch(data::SequenceTask::reverse, 11, 7, 2, g2);
    data::CopyBatch plain = data::copy_task_batch(11, 7, 2, g3);
    CHECK(c.src.to_vector() == plain.src.to_vector());
    CHECK(c.tgt_out.to_vector() == plain.tgt_out.to_vector());
    CHECK(r.src.to_vector() == plain.src.to_vector());
}

TEST_CASE("sequence tasks are named copy, reverse and sort", "[errors]") {
    CHECK(data::sequence_task_named("sort") == data::SequenceTask::sort);
    CHECK(data::name_of(data::SequenceTask::reverse) == "reverse");
    CHECK_THROWS_WITH(data::sequence_task_named("shuffle"), Catch::Contains("copy, reverse or sort"));
}
