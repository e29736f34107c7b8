#pragma once
// chrF (Popović 2015) exactly as sacreBLEU 2.x computes it with its defaults
// (CHRF(): char_order 6, word_order 0, beta 2, lowercase off, whitespace off,
// eps_smoothing off), for one reference per segment. Characters are Unicode
// code points; whitespace is removed before n-grams are taken. For each order
// n = 1..6, over the whole corpus:
//   hyp_n   = hypothesis n-grams (of the segments whose reference has any)
//   ref_n   = reference n-grams
//   match_n = sum over segments and n-grams of min(hypothesis count, reference count)
// Orders with hyp_n > 0 and ref_n > 0 are "effective"; over them
//   P = mean of match_n / hyp_n,   R = mean of match_n / ref_n
//   chrF = 100 (1 + beta^2) P R / (beta^2 P + R)      (0 if P + R = 0)
// so recall weighs beta^2 = 4 times as much as precision.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace data {

struct ChrfScore {
    double score = 0;                  // 0..100
    double precision = 0, recall = 0;  // P and R above, 0..1
    std::array<std::int64_t, 6> hyp{}, ref{}, match{};
};

// DatasetError on text that is not UTF-8; ValueError if the lists differ in length.
ChrfScore corpus_chrf(const std::vector<std::string>& hypotheses, const std::vector<std::string>& references);

}  // namespace data
