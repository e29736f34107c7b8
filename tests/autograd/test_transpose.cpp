// transpose and permute.
#include "check.h"

using namespace autograd;

TEST_CASE("transpose and permute move elements where the dims say", "[forward]") {
    Tensor x = reshape(arange(24), {2, 3, 4});
    Tensor t = transpose(x, 0, 2);
    CHECK(t.shape() == Shape{4, 3, 2});
    CHECK(t.at({3, 1, 0}) == x.at({0, 1, 3}));
    Tensor p = permute(x, {1, 2, 0});
    CHECK(p.shape() == Shape{3, 4, 2});
    for (std::int64_t i = 0; i < 2; ++i)
        for (std::int64_t j = 0; j < 3; ++j)
            for (std::int64_t k = 0; k < 4; ++k) REQUIRE(p.at({j, k, i}) == x.at({i, j, k}));
    require_values(transpose(tensor({1, 2, 3, 4, 5, 6}, {2, 3}), 0, 1), {1, 4, 2, 5, 3, 6});
}

TEST_CASE("permute rejects what is not a permutation", "[errors]") {
    CHECK_THROWS_AS(permute(zeros({2, 3}), {0, 0}), ValueError);
    CHECK_THROWS_AS(permute(zeros({2, 3}), {0}), ShapeError);
    CHECK_THROWS_AS(transpose(zeros({2, 3}), 0, 2), IndexError);
}
