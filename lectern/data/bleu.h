#pragma once
// Corpus BLEU (Papineni et al. 2002) exactly as sacreBLEU 2.x computes it with
// its defaults (BLEU(): tokenize "13a", lowercase off, max n-gram order 4,
// smooth_method "exp", effective_order off), for one reference per segment:
//   p_n  = sum over segments of clipped n-gram matches / sum of hypothesis n-grams
//          (a count clipped at the n-gram's count in the reference: the
//          "modified precision" of Papineni et al. section 2.1)
//   BP   = 1 if c >= r, exp(1 - r / c) if 0 < c < r, 0 if c = 0
//          (c, r: the corpus's hypothesis and reference lengths in tokens)
//   BLEU = 100 BP exp((1/4) sum_{n=1..4} log p_n)
// sacreBLEU's default "exp" smoothing (NIST's, mteval-v13a.pl's) touches only
// an order with no match at all: its p_n becomes 1 / (2^k total_n), the k-th
// such order getting 2^k. A corpus with no match of any order scores 0.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace data {

// mteval-v13a's tokenisation as sacreBLEU's Tokenizer13a does it: "<skipped>"
// dropped, "-\n" joined, newlines made spaces, &quot; &amp; &lt; &gt;
// unescaped; then ASCII punctuation other than . , ' - split off, a period or
// comma split off unless it sits between digits, a dash after a digit split
// off. Returns the tokens (split on ASCII whitespace; Python's split() also
// splits on Unicode spaces, which no verse here holds).
std::vector<std::string> tokenize_13a(std::string_view line);

struct BleuScore {
    double score = 0;                    // 0..100
    std::array<double, 4> precisions{};  // p_1..p_4 in percent, after smoothing
    std::array<std::int64_t, 4> correct{}, total{};
    double brevity_penalty = 0;
    std::int64_t hyp_len = 0, ref_len = 0;
};

enum class BleuSmoothing { exp, none };  // sacreBLEU's default, or Papineni et al.'s plain geometric mean

// Corpus BLEU of hypotheses[i] against references[i] (one reference each);
// trailing whitespace of each segment is dropped first, as sacreBLEU does.
// ValueError if the two lists differ in length.
BleuScore corpus_bleu(const std::vector<std::string>& hypotheses, const std::vector<std::string>& references,
                      BleuSmoothing smoothing = BleuSmoothing::exp);

}  // namespace data
