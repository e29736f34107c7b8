#include "lectern/data/train_bpe.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "lectern/data/idx.h"  // DatasetError
#include "lectern/data/pretokenize.h"

namespace data {

BytePairEncoding train_bpe(std::string_view text, std::int64_t vocab_size) {
    if (vocab_size < 256) throw DatasetError(fmt::format("train_bpe: vocab_size {} < 256, the single bytes", vocab_size));
    std::map<std::string_view, std::int64_t> piece_count;  // ordered: the same text gives the same order
    for (std::string_view piece : pretokenize(text)) ++piece_count[piece];
    std::vector<std::vector<std::int64_t>> words;
    std::vector<std::int64_t> counts;
    for (const auto& [piece, count] : piece_count) {
        words.emplace_back(piece.begin(), piece.end());
        for (auto& id : words.back()) id = static_cast<unsigned char>(id);
        counts.push_back(count);
    }

    std::vector<std::string> tokens;
    std::unordered_map<std::string, std::int64_t> id_of;
    for (int b = 0; b < 256; ++b) {
        tokens.emplace_back(1, static_cast<char>(b));
        id_of[tokens.back()] = b;
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> merges;
    while (static_cast<std::int64_t>(tokens.size()) < vocab_size) {
        std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> pair_count;
        for (std::size_t w = 0; w < words.size(); ++w)
            for (std::size_t i = 0; i + 1 < words[w].size(); ++i) pair_count[{words[w][i], words[w][i + 1]}] += counts[w];
        if (pair_count.empty()) break;
        auto best = pair_count.begin();  // the most frequent; among equals the smallest pair, met first
        for (auto it = pair_count.begin(); it != pair_count.end(); ++it)
            if (it->second > best->second) best = it;
        auto [a, b] = best->first;
        std::string bytes = tokens[a] + tokens[b];
        auto [at, is_new] = id_of.emplace(bytes, static_cast<std::int64_t>(tokens.size()));
        if (is_new) tokens.push_back(bytes);  // else another pair already made these bytes: reuse that token
        merges.emplace_back(a, b);
        for (auto& word : words) {
            std::size_t out = 0;
            for (std::size_t i = 0; i < word.size(); ++out) {
                bool join = i + 1 < word.size() && word[i] == a && word[i + 1] == b;
                word[out] = join ? at->second : word[i];
                i += join ? 2 : 1;
            }
            word.resize(out);
        }
    }
    return BytePairEncoding(std::move(tokens), std::move(merges));
}

}  // namespace data
