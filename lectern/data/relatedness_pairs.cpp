#include "lectern/data/relatedness_pairs.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace data {

using namespace autograd;

namespace {

// The first k of a random permutation of `items`: k distinct draws, in random order.
void shuffle_front(std::vector<std::int64_t>& items, std::size_t k, Generator& gen) {
    for (std::size_t i = 0; i < k && i + 1 < items.size(); ++i) {
        const auto j = i + static_cast<std::size_t>(gen.randint(static_cast<std::int64_t>(items.size() - i)));
        std::swap(items[i], items[j]);
    }
}

// A sentence of `concepts`, each by either synonym, with 0..max_function function words, shuffled,
// written into row [L] padded with 0.
void write_sentence(const RelatednessPairsConfig& c, const std::vector<std::int64_t>& concepts, Generator& gen,
                    std::int64_t* row) {
    std::vector<std::int64_t> tokens;
    for (std::int64_t k : concepts) tokens.push_back(1 + k + (gen.randint(2) == 1 ? c.concepts : 0));
    const std::int64_t f = gen.randint(c.max_function + 1);
    for (std::int64_t i = 0; i < f; ++i) tokens.push_back(2 * c.concepts + 1 + gen.randint(c.function_words));
    shuffle_front(tokens, tokens.size(), gen);
    std::copy(tokens.begin(), tokens.end(), row);
}

}  // namespace

std::int64_t relatedness_vocab(const RelatednessPairsConfig& c) { return 2 * c.concepts + c.function_words + 1; }
std::int64_t relatedness_length(const RelatednessPairsConfig& c) { return c.max_content + c.max_function; }

std::int64_t relatedness_concept(const RelatednessPairsConfig& c, std::int64_t id) {
    if (id < 0 || id >= relatedness_vocab(c))
        throw IndexError(
            fmt::format("relatedness token {} is outside the vocabulary [0, {})", id, relatedness_vocab(c)));
    if (id == kRelatednessPad || id > 2 * c.concepts) return -1;
    return (id - 1) % c.concepts;
}

RelatednessBatch relatedness_batch(const RelatednessPairsConfig& c, std::int64_t batch, Generator& gen) {
    if (c.concepts < 2 * c.max_content || (c.function_words < 1 && c.max_function > 0) || c.min_content < 1 ||
        c.min_content > c.max_content || c.max_function < 0 || batch < 1)
        throw ValueError(fmt::format(
            "relatedness_batch: need K >= 2 max_content concepts, F >= 1 function words if any are drawn, "
            "1 <= min_content <= max_content, max_function >= 0, batch >= 1; got K {}, F {}, {}..{} content words, "
            "at most {} function words, batch {}",
            c.concepts, c.function_words, c.min_content, c.max_content, c.max_function, batch));
    const std::int64_t L = relatedness_length(c);
    RelatednessBatch out{zeros({batch, L}, Dtype::int64), zeros({batch, L}, Dtype::int64), zeros({batch})};
    std::vector<std::int64_t> all(static_cast<std::size_t>(c.concepts));
    for (std::int64_t b = 0; b < batch; ++b) {
        const std::int64_t n_a = c.min_content + gen.randint(c.max_content - c.min_content + 1);
        const std::int64_t n_b = c.min_content + gen.randint(c.max_content - c.min_content + 1);
        const std::int64_t shared = gen.randint(std::min(n_a, n_b) + 1);
        for (std::int64_t k = 0; k < c.concepts; ++k) all[static_cast<std::size_t>(k)] = k;
        // all[0, n_a) is C_A, all[n_a, n_a + n_b - shared) the concepts of C_B that A lacks
        shuffle_front(all, static_cast<std::size_t>(n_a + n_b - shared), gen);
        const std::vector<std::int64_t> a(all.begin(), all.begin() + n_a);
        std::vector<std::int64_t> b_concepts(all.begin(), all.begin() + shared);  // the first `shared` of C_A
        b_concepts.insert(b_concepts.end(), all.begin() + n_a, all.begin() + n_a + n_b - shared);
        write_sentence(c, a, gen, out.first.data<std::int64_t>() + b * L);
        write_sentence(c, b_concepts, gen, out.second.data<std::int64_t>() + b * L);
        // y = 5 |C_A ∩ C_B| / |C_A ∪ C_B|
        out.relatedness.data<float>()[b] =
            static_cast<float>(5.0 * static_cast<double>(shared) / static_cast<double>(n_a + n_b - shared));
    }
    return out;
}

}  // namespace data
