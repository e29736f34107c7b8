#include "lectern/data/train_bpe.h"

#include <map>
#include <queue>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "lectern/data/idx.h"  // DatasetError
#include "lectern/data/pretokenize.h"

namespace data {

namespace {

using Pair = std::pair<std::int64_t, std::int64_t>;

struct PairHash {
    std::size_t operator()(const Pair& p) const noexcept {
        return std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(p.first) * 0x9E3779B97F4A7C15ull ^
                                          static_cast<std::uint64_t>(p.second));
    }
};

// A candidate merge as the heap holds it: the pair and its count when pushed.
struct Candidate {
    std::int64_t count;
    Pair pair;
};

// The heap's top is the most frequent pair; among equals the smallest (first id, then second).
struct ComesLater {
    bool operator()(const Candidate& x, const Candidate& y) const {
        return x.count != y.count ? x.count < y.count : x.pair > y.pair;
    }
};

}  // namespace

// The pairs' counts are kept up to date instead of recounted: a merge of (a, b)
// changes only the pieces that hold a next to b, and `holding` says which those
// are. The heap may hold stale counts of a pair; only an entry equal to the
// pair's current count is taken, and every count that changes is pushed anew.
// So each merge costs the length of the pieces it touches, and the merges are
// those of recounting every pair at every step.
BytePairEncoding train_bpe(std::string_view text, std::int64_t vocab_size, const BpeProgress& progress) {
    if (vocab_size < 256)
        throw DatasetError(fmt::format("train_bpe: vocab_size {} < 256, the single bytes", vocab_size));
    std::map<std::string_view, std::int64_t> piece_count;  // ordered: the same text gives the same order
    for (std::string_view piece : pretokenize(text)) ++piece_count[piece];
    std::vector<std::vector<std::int64_t>> words;
    std::vector<std::int64_t> counts;
    for (const auto& [piece, count] : piece_count) {
        words.emplace_back(piece.begin(), piece.end());
        for (auto& id : words.back()) id = static_cast<unsigned char>(id);
        counts.push_back(count);
    }

    std::unordered_map<Pair, std::int64_t, PairHash> pair_count;  // over every adjacent position, overlaps included
    std::unordered_map<Pair, std::vector<std::size_t>, PairHash>
        holding;  // pieces that held the pair (some may not now)
    for (std::size_t w = 0; w < words.size(); ++w)
        for (std::size_t i = 0; i + 1 < words[w].size(); ++i) {
            Pair p{words[w][i], words[w][i + 1]};
            pair_count[p] += counts[w];
            auto& h = holding[p];
            if (h.empty() || h.back() != w) h.push_back(w);
        }
    std::priority_queue<Candidate, std::vector<Candidate>, ComesLater> heap;
    for (const auto& [p, c] : pair_count) heap.push({c, p});

    std::vector<std::string> tokens;
    std::unordered_map<std::string, std::int64_t> id_of;
    for (int b = 0; b < 256; ++b) {
        tokens.emplace_back(1, static_cast<char>(b));
        id_of[tokens.back()] = b;
    }
    std::vector<Pair> merges;
    const std::int64_t wanted = vocab_size - 256;
    while (static_cast<std::int64_t>(tokens.size()) < vocab_size) {
        while (!heap.empty()) {  // drop the stale entries
            auto it = pair_count.find(heap.top().pair);
            if (it != pair_count.end() && it->second == heap.top().count && it->second > 0) break;
            heap.pop();
        }
        if (heap.empty()) break;  // every piece is one token
        auto [a, b] = heap.top().pair;
        heap.pop();
        std::string bytes = tokens[a] + tokens[b];
        auto [at, is_new] = id_of.emplace(bytes, static_cast<std::int64_t>(tokens.size()));
        if (is_new) tokens.push_back(bytes);  // else another pair already made these bytes: reuse that token
        merges.emplace_back(a, b);
        const std::int64_t ab = at->second;

        std::unordered_set<Pair, PairHash> changed;
        std::vector<std::size_t> pieces = std::move(holding[{a, b}]);
        holding.erase({a, b});
        for (std::size_t w : pieces) {
            auto& word = words[w];
            std::vector<std::int64_t> merged;
            merged.reserve(word.size());
            for (std::size_t i = 0; i < word.size();) {
                bool join = i + 1 < word.size() && word[i] == a && word[i + 1] == b;
                merged.push_back(join ? ab : word[i]);
                i += join ? 2 : 1;
            }
            if (merged.size() == word.size()) continue;  // it no longer holds a next to b, or was listed twice
            for (std::size_t i = 0; i + 1 < word.size(); ++i) {
                Pair p{word[i], word[i + 1]};
                pair_count[p] -= counts[w];
                changed.insert(p);
            }
            for (std::size_t i = 0; i + 1 < merged.size(); ++i) {
                Pair p{merged[i], merged[i + 1]};
                pair_count[p] += counts[w];
                changed.insert(p);
                auto& h = holding[p];
                if (h.empty() || h.back() != w) h.push_back(w);
            }
            word = std::move(merged);
        }
        for (const Pair& p : changed) {
            auto it = pair_count.find(p);
            if (it->second == 0) pair_count.erase(it);
            else heap.push({it->second, p});
        }
        if (progress) progress(static_cast<std::int64_t>(merges.size()), wanted);
    }
    return BytePairEncoding(std::move(tokens), std::move(merges));
}

}  // namespace data
