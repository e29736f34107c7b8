// Token ids in as few bytes as the alphabet allows (lectern/data/token_ids.h).
#include <utility>

#include "check.h"
#include "lectern/data/token_ids.h"

using namespace autograd;

TEST_CASE("token ids take one byte for a small alphabet, two or four for larger ones, and read back", "[data]") {
    for (auto [alphabet, width] : {std::pair<std::int64_t, std::size_t>{256, 1}, {257, 2}, {65536, 2}, {65537, 4}}) {
        data::TokenIds ids(alphabet);
        CHECK(ids.bytes_per_id() == width);
        for (std::int64_t id : {std::int64_t{0}, alphabet / 2, alphabet - 1}) ids.push_back(id);
        CHECK(ids.size() == 3);
        CHECK(ids[0] == 0);
        CHECK(ids[1] == alphabet / 2);
        CHECK(ids[2] == alphabet - 1);
    }
}
