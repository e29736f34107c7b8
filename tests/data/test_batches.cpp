// autograd::randperm and data::Batches: a permutation drawn by the generator, and the
// batches a range-for walks, the same for the same generator state.
#include <algorithm>

#include "check.h"
#include "lectern/data/batches.h"

using namespace autograd;

namespace {

std::vector<std::int64_t> ints(const Tensor& t) {
    std::vector<std::int64_t> v;
    for (double d : t.to_vector()) v.push_back(static_cast<std::int64_t>(d));
    return v;
}

}  // namespace

TEST_CASE("randperm is Fisher-Yates on the generator's draws, the same for the same state", "[data]") {
    Generator g(7), by_hand(7);
    Tensor p = randperm(4, g);
    CHECK(p.dtype() == Dtype::int64);
    // By hand: from [0, 1, 2, 3], swap element i - 1 with element randint(i) for i = 4, 3, 2.
    std::vector<std::int64_t> want{0, 1, 2, 3};
    for (std::int64_t i = 4; i > 1; --i) std::swap(want[i - 1], want[by_hand.randint(i)]);
    CHECK(ints(p) == want);
    CHECK(g.state() == by_hand.state());  // n - 1 draws, no more

    Generator a(1), b(1), c(2);
    const std::vector<std::int64_t> pa = ints(randperm(1000, a));
    CHECK(pa == ints(randperm(1000, b)));
    CHECK(pa != ints(randperm(1000, c)));
    std::vector<std::int64_t> sorted = pa;
    std::sort(sorted.begin(), sorted.end());
    for (std::int64_t i = 0; i < 1000; ++i) REQUIRE(sorted[i] == i);
    CHECK(randperm(0, a).numel() == 0);
    CHECK_THROWS_AS(randperm(-1, a), ValueError);
}

TEST_CASE("Batches walks x and y together in order, the last batch short", "[data]") {
    Tensor x = tensor({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {5, 2});  // row i = [2i, 2i + 1]
    Tensor y = tensor({10, 11, 12, 13, 14}, Dtype::int64);
    Generator g(1);
    data::Batches batches(x, y, 2, /*shuffle=*/false, g);
    CHECK(batches.batches() == 3);
    std::vector<std::vector<double>> xs, ys;
    for (auto [xb, yb] : batches) {
        xs.push_back(xb.to_vector());
        ys.push_back(yb.to_vector());
    }
    CHECK(xs == std::vector<std::vector<double>>{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}});
    CHECK(ys == std::vector<std::vector<double>>{{10, 11}, {12, 13}, {14}});
}

TEST_CASE("shuffled Batches draw each epoch's order by randperm, the same for the same generator", "[data]") {
    Tensor x = arange(7, Dtype::float32).reshape({7, 1});
    Tensor y = arange(7, Dtype::int64);
    auto epochs = [&](std::uint64_t seed) {
        Generator g(seed);
        data::Batches batches(x, y, 3, /*shuffle=*/true, g);
        std::vector<std::vector<double>> seen;
        for (int epoch = 0; epoch < 2; ++epoch)
            for (const auto& [xb, yb] : batches) {
                CHECK(xb.to_vector() == yb.to_vector());  // rows of x and y stay paired
                seen.push_back(yb.to_vector());
            }
        return seen;
    };
    const auto first = epochs(3);
    REQUIRE(first.size() == 6);
    Generator g(3);
    const std::vector<std::int64_t> order = ints(randperm(7, g));
    CHECK(first[0] == std::vector<double>(order.begin(), order.begin() + 3));
    CHECK(first[2] == std::vector<double>{static_cast<double>(order[6])});
    CHECK(first == epochs(3));
    CHECK(first != epochs(4));
    const std::vector<std::vector<double>> epoch1(first.begin(), first.begin() + 3),
        epoch2(first.begin() + 3, first.end());
    CHECK(epoch1 != epoch2);  // a new order each epoch
}

TEST_CASE("Batches refuses x and y of different lengths, no rows and a batch below 1", "[errors]") {
    Generator g(1);
    CHECK_THROWS_WITH(data::Batches(zeros({4, 2}), zeros({3}), 2, false, g),
                      "Batches: x [4, 2] and y [3] must hold the same number n >= 1 of rows along dim 0");
    CHECK_THROWS_AS(data::Batches(zeros({0, 2}), zeros({0}), 2, false, g), ShapeError);
    CHECK_THROWS_AS(data::Batches(zeros({4}), zeros({4}), 0, false, g), ValueError);
}
