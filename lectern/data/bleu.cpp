#include "lectern/data/bleu.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

#include "lectern/autograd/errors.h"
#include "lectern/data/unicode_space.h"

namespace data {

namespace {

void replace_all(std::string& s, std::string_view from, std::string_view to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The class [\{-\~\[-\` -\&\(-\+\:-\@\/] of mteval-v13a's first rule: ASCII
// punctuation and space, except ' - . , (and the digits and letters between).
bool split_off(char c) {
    return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&') || (c >= '(' && c <= '+') ||
           (c >= ':' && c <= '@') || c == '/';
}

// Each rule below is one of TokenizerRegexp's re.sub calls, matched as Python
// matches: leftmost first, then on after the match, never overlapping. Every
// character a rule tests is ASCII, so scanning bytes gives what scanning code
// points gives.

// ([^0-9])([\.,]) -> "\1 \2 "
std::string period_comma_after_non_digit(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        if (i + 1 < s.size() && !is_digit(s[i]) && (s[i + 1] == '.' || s[i + 1] == ',')) {
            out += s[i], out += ' ', out += s[i + 1], out += ' ';
            i += 2;
        } else {
            out += s[i++];
        }
    }
    return out;
}

// ([\.,])([^0-9]) -> " \1 \2"
std::string period_comma_before_non_digit(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        if (i + 1 < s.size() && (s[i] == '.' || s[i] == ',') && !is_digit(s[i + 1])) {
            out += ' ', out += s[i], out += ' ', out += s[i + 1];
            i += 2;
        } else {
            out += s[i++];
        }
    }
    return out;
}

// ([0-9])(-) -> "\1 \2 "
std::string dash_after_digit(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        if (i + 1 < s.size() && is_digit(s[i]) && s[i + 1] == '-') {
            out += s[i], out += " - ";
            i += 2;
        } else {
            out += s[i++];
        }
    }
    return out;
}

// The n-grams of orders 1..4 and their counts, keyed by their tokens joined
// with a space (a token never holds one).
using NgramCounts = std::unordered_map<std::string, std::int64_t>;

NgramCounts ngrams(const std::vector<std::string>& tokens) {
    NgramCounts counts;
    for (std::size_t n = 1; n <= 4; ++n)
        for (std::size_t i = 0; i + n <= tokens.size(); ++i) {
            std::string key = tokens[i];
            for (std::size_t k = 1; k < n; ++k) key += ' ' + tokens[i + k];
            ++counts[key];
        }
    return counts;
}

std::size_t order_of(const std::string& key) {
    return static_cast<std::size_t>(std::count(key.begin(), key.end(), ' ')) + 1;
}

// Python's str.rstrip(): trailing whitespace, Unicode spaces included.
std::string_view rstrip(std::string_view s) {
    std::size_t end = s.size();
    for (bool found = true; found && end > 0;) {
        found = false;
        for (std::size_t width = 1; width <= 3 && width <= end; ++width)
            if (python_space_at(s, end - width) == width) {
                end -= width;
                found = true;
                break;
            }
    }
    return s.substr(0, end);
}

}  // namespace

std::vector<std::string> tokenize_13a(std::string_view text) {
    std::string line(text);
    replace_all(line, "<skipped>", "");
    replace_all(line, "-\n", "");
    replace_all(line, "\n", " ");
    replace_all(line, "&quot;", "\"");
    replace_all(line, "&amp;", "&");
    replace_all(line, "&lt;", "<");
    replace_all(line, "&gt;", ">");
    std::string spaced = " ";
    for (char c : line) {
        if (split_off(c)) spaced += ' ', spaced += c, spaced += ' ';
        else spaced += c;
    }
    spaced += ' ';
    return python_split(dash_after_digit(period_comma_before_non_digit(period_comma_after_non_digit(spaced))));
}

BleuScore corpus_bleu(const std::vector<std::string>& hypotheses, const std::vector<std::string>& references,
                      BleuSmoothing smoothing) {
    if (hypotheses.size() != references.size())
        throw autograd::ValueError(
            fmt::format("corpus_bleu: {} hypotheses but {} references", hypotheses.size(), references.size()));
    BleuScore s;
    for (std::size_t i = 0; i < hypotheses.size(); ++i) {
        const std::vector<std::string> hyp = tokenize_13a(rstrip(hypotheses[i])),
                                       ref = tokenize_13a(rstrip(references[i]));
        s.hyp_len += static_cast<std::int64_t>(hyp.size());
        s.ref_len += static_cast<std::int64_t>(ref.size());
        for (std::size_t n = 1; n <= 4; ++n)
            s.total[n - 1] +=
                std::max<std::int64_t>(0, static_cast<std::int64_t>(hyp.size()) - static_cast<std::int64_t>(n) + 1);
        const NgramCounts in_ref = ngrams(ref);
        for (const auto& [key, count] :
             ngrams(hyp)) {  // clipped: a match counts at most as often as the reference has it
            auto it = in_ref.find(key);
            if (it != in_ref.end()) s.correct[order_of(key) - 1] += std::min(count, it->second);
        }
    }
    if (s.hyp_len < s.ref_len)
        s.brevity_penalty =
            s.hyp_len > 0 ? std::exp(1 - static_cast<double>(s.ref_len) / static_cast<double>(s.hyp_len)) : 0.0;
    else s.brevity_penalty = 1.0;
    if (std::all_of(s.correct.begin(), s.correct.end(), [](std::int64_t c) { return c == 0; }))
        return s;  // no match: 0
    // sacreBLEU's loop: an order with no n-gram at all (every segment shorter
    // than n) ends it, and the orders from there on keep precision 0, so BLEU is 0.
    double smooth = 1, log_sum = 0;
    bool zero = false;
    for (std::size_t n = 0; n < 4; ++n) {
        if (s.total[n] == 0) {
            zero = true;
            break;
        }
        if (s.correct[n] == 0) {
            if (smoothing == BleuSmoothing::none) {
                zero = true;
                continue;
            }
            smooth *= 2;
            s.precisions[n] = 100.0 / (smooth * static_cast<double>(s.total[n]));
        } else {
            s.precisions[n] = 100.0 * static_cast<double>(s.correct[n]) / static_cast<double>(s.total[n]);
        }
        log_sum += std::log(s.precisions[n]);
    }
    s.score = zero ? 0.0 : s.brevity_penalty * std::exp(log_sum / 4);
    return s;
}

}  // namespace data
