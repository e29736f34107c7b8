#include "lectern/data/epoch_batches.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace data {

namespace {

// Fisher-Yates, drawing from `gen`.
template <class T>
void shuffle(std::vector<T>& v, autograd::Generator& gen) {
    for (std::size_t i = v.size(); i > 1; --i)
        std::swap(v[i - 1], v[static_cast<std::size_t>(gen.randint(static_cast<std::int64_t>(i)))]);
}

}  // namespace

std::vector<std::vector<std::size_t>> epoch_batches(const std::vector<TokenPair>& pairs, std::int64_t batch,
                                                    std::uint64_t seed, std::int64_t epoch) {
    if (batch < 1) throw autograd::ValueError(fmt::format("epoch_batches: batch {} is not at least 1", batch));
    autograd::Generator gen(seed * 1000003 + static_cast<std::uint64_t>(epoch));
    std::vector<std::size_t> order(pairs.size());
    std::iota(order.begin(), order.end(), 0);
    shuffle(order, gen);
    const auto n = static_cast<std::size_t>(batch), run = n * 64;
    for (std::size_t at = 0; at < order.size(); at += run)
        std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(at),
                         order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), at + run)),
                         [&](std::size_t a, std::size_t b) { return pairs[a].src.size() < pairs[b].src.size(); });
    std::vector<std::vector<std::size_t>> batches;
    for (std::size_t at = 0; at < order.size(); at += n)
        batches.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(at),
                             order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), at + n)));
    shuffle(batches, gen);
    return batches;
}

std::int64_t batches_per_epoch(const std::vector<TokenPair>& pairs, std::int64_t batch) {
    return (static_cast<std::int64_t>(pairs.size()) + batch - 1) / batch;
}

}  // namespace data
