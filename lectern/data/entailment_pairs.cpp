#include "lectern/data/entailment_pairs.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace data {

using namespace autograd;

namespace {

constexpr std::array<const char*, 32> kWords = {"rain", "sun",  "wind",  "snow", "cold",  "warm", "dark", "light",
                                                "cat",  "dog",  "bird",  "fish", "tree",  "road", "door", "roof",
                                                "red",  "blue", "green", "tall", "small", "old",  "new",  "loud",
                                                "fast", "slow", "wet",   "dry",  "open",  "full", "ripe", "calm"};

// The first k of a random permutation of `items`: k distinct draws, in random order.
void shuffle_front(std::vector<std::int64_t>& items, std::size_t k, Generator& gen) {
    for (std::size_t i = 0; i < k && i + 1 < items.size(); ++i) {
        const auto j = i + static_cast<std::size_t>(gen.randint(static_cast<std::int64_t>(items.size() - i)));
        std::swap(items[i], items[j]);
    }
}

}  // namespace

std::string entailment_label_name(std::int64_t label) {
    switch (label) {
        case entailed:
            return "entailment";
        case neutral:
            return "neutral";
        case contradicted:
            return "contradiction";
    }
    throw IndexError(fmt::format("entailment label {} is not 0 (entailment), 1 (neutral) or 2 (contradiction)", label));
}

std::int64_t entailment_vocab(const EntailmentPairsConfig& c) { return 2 * c.words + 1; }

std::string entailment_token(const EntailmentPairsConfig& c, std::int64_t id) {
    if (id < 0 || id >= entailment_vocab(c))
        throw IndexError(fmt::format("entailment token {} is outside the vocabulary [0, {})", id, entailment_vocab(c)));
    if (id == kEntailmentPad) return "<pad>";
    if (id <= c.words) return kWords[static_cast<std::size_t>(id - 1)];
    return std::string("no-") + kWords[static_cast<std::size_t>(id - c.words - 1)];
}

EntailmentBatch entailment_batch(const EntailmentPairsConfig& c, std::int64_t batch, Generator& gen) {
    if (c.words > static_cast<std::int64_t>(kWords.size()) || c.words <= c.max_premise || c.min_premise < 1 ||
        c.min_premise > c.max_premise || c.max_hypothesis < 1 || batch < 1)
        throw ValueError(
            fmt::format("entailment_batch: need K <= {} words and more than the longest premise, "
                        "1 <= min_premise <= max_premise, max_hypothesis >= 1, batch >= 1; got K {}, "
                        "premises of {}..{} words, hypotheses of at most {}, batch {}",
                        kWords.size(), c.words, c.min_premise, c.max_premise, c.max_hypothesis, batch));
    const std::int64_t K = c.words, M = c.max_premise, N = c.max_hypothesis;
    EntailmentBatch out{zeros({batch, M}, Dtype::int64), zeros({batch, N}, Dtype::int64), zeros({batch}, Dtype::int64)};
    std::int64_t* premise = out.premise.data<std::int64_t>();
    std::int64_t* hypothesis = out.hypothesis.data<std::int64_t>();
    std::int64_t* labels = out.labels.data<std::int64_t>();
    std::vector<std::int64_t> words(static_cast<std::size_t>(K));
    for (std::int64_t r = 0; r < batch; ++r) {
        const std::int64_t label = gen.randint(3);
        const std::int64_t m = c.min_premise + gen.randint(M - c.min_premise + 1);
        const std::int64_t n = 1 + gen.randint(std::min(N, m));
        for (std::int64_t k = 0; k < K; ++k) words[static_cast<std::size_t>(k)] = k + 1;
        shuffle_front(words, static_cast<std::size_t>(m), gen);  // words[0..m) the premise, words[m..K) absent
        std::vector<std::int64_t> hyp;
        // Distinct premise words: n for entailment, n - 1 and a foreign or negated token otherwise.
        std::vector<std::int64_t> stated(words.begin(), words.begin() + m);
        shuffle_front(stated, static_cast<std::size_t>(n), gen);
        const std::int64_t kept = label == entailed ? n : n - 1;
        hyp.assign(stated.begin(), stated.begin() + kept);
        if (label == contradicted) {  // the negation of a premise word not among those kept
            hyp.push_back(stated[static_cast<std::size_t>(kept + gen.randint(m - kept))] + K);
        } else if (label == neutral) {  // a word the premise lacks, or that word's negation
            const std::int64_t absent = words[static_cast<std::size_t>(m + gen.randint(K - m))];
            hyp.push_back(gen.randint(2) ? absent + K : absent);
        }
        shuffle_front(hyp, hyp.size(), gen);
        for (std::int64_t i = 0; i < m; ++i) premise[r * M + i] = words[static_cast<std::size_t>(i)];
        for (std::size_t j = 0; j < hyp.size(); ++j) hypothesis[r * N + static_cast<std::int64_t>(j)] = hyp[j];
        labels[r] = label;
    }
    return out;
}

}  // namespace data
