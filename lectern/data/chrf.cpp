#include "lectern/data/chrf.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "lectern/autograd/errors.h"
#include "lectern/data/unicode_space.h"
#include "lectern/data/utf8.h"

namespace data {

namespace {

constexpr std::size_t kOrder = 6;  // sacreBLEU's CHAR_ORDER
constexpr double kBeta = 2;        // sacreBLEU's BETA

// The code points of a segment with its whitespace removed (Python's "".join(s.split())).
std::u32string without_spaces(const std::string& text) {
    std::u32string out;
    for (char32_t c : decode_utf8(text))
        if (!is_python_space(c)) out += c;
    return out;
}

std::unordered_map<std::u32string, std::int64_t> char_ngrams(const std::u32string& s, std::size_t n) {
    std::unordered_map<std::u32string, std::int64_t> counts;
    for (std::size_t i = 0; i + n <= s.size(); ++i) ++counts[s.substr(i, n)];
    return counts;
}

}  // namespace

ChrfScore corpus_chrf(const std::vector<std::string>& hypotheses, const std::vector<std::string>& references) {
    if (hypotheses.size() != references.size())
        throw autograd::ValueError(
            fmt::format("corpus_chrf: {} hypotheses but {} references", hypotheses.size(), references.size()));
    ChrfScore s;
    for (std::size_t i = 0; i < hypotheses.size(); ++i) {
        const std::u32string hyp = without_spaces(hypotheses[i]), ref = without_spaces(references[i]);
        for (std::size_t n = 1; n <= kOrder; ++n) {
            const auto in_hyp = char_ngrams(hyp, n), in_ref = char_ngrams(ref, n);
            std::int64_t hyp_count = 0, ref_count = 0, match = 0;
            for (const auto& [gram, count] : in_hyp) {
                hyp_count += count;
                auto it = in_ref.find(gram);
                if (it != in_ref.end()) match += std::min(count, it->second);
            }
            for (const auto& [gram, count] : in_ref) ref_count += count;
            // sacreBLEU counts a segment's hypothesis n-grams only where its
            // reference has n-grams of that order.
            s.hyp[n - 1] += in_ref.empty() ? 0 : hyp_count;
            s.ref[n - 1] += ref_count;
            s.match[n - 1] += match;
        }
    }
    std::int64_t effective = 0;
    for (std::size_t n = 0; n < kOrder; ++n)
        if (s.hyp[n] > 0 && s.ref[n] > 0) {
            s.precision += static_cast<double>(s.match[n]) / static_cast<double>(s.hyp[n]);
            s.recall += static_cast<double>(s.match[n]) / static_cast<double>(s.ref[n]);
            ++effective;
        }
    if (effective == 0) return s;
    s.precision /= static_cast<double>(effective);
    s.recall /= static_cast<double>(effective);
    if (s.precision + s.recall == 0) return s;
    const double b2 = kBeta * kBeta;
    s.score = 100 * (1 + b2) * s.precision * s.recall / (b2 * s.precision + s.recall);
    return s;
}

}  // namespace data
