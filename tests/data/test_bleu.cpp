// BLEU and chrF as sacreBLEU 2.x computes them with its defaults (data/bleu.h,
// data/chrf.h). sacreBLEU is not installable on this machine (no PyPI), so
// every expected value below is worked by hand from its definition; the
// working is in the comments.
#include <cmath>

#include "check.h"
#include "lectern/data/bleu.h"
#include "lectern/data/chrf.h"
#include "lectern/data/idx.h"  // DatasetError

TEST_CASE("13a tokenisation splits punctuation as mteval-v13a does, and keeps ' - and decimals", "[data]") {
    using V = std::vector<std::string>;
    CHECK(data::tokenize_13a("Hello, world. It's 3.14-5 (ok)!") ==
          V{"Hello", ",", "world", ".", "It's", "3.14", "-", "5", "(", "ok", ")", "!"});
    CHECK(data::tokenize_13a("&quot;hi&quot; &amp; &lt;b&gt;") == V{"\"", "hi", "\"", "&", "<", "b", ">"});
    CHECK(data::tokenize_13a("well-known 1,000 end.") == V{"well-known", "1,000", "end", "."});
    // Curly quotes are not ASCII: 13a leaves them on their word (as the WEB's “ and ’ stay).
    CHECK(data::tokenize_13a("\xE2\x80\x9C"
                             "Don\xE2\x80\x99"
                             "t.\xE2\x80\x9D") == V{"\xE2\x80\x9C"
                                                    "Don\xE2\x80\x99"
                                                    "t",
                                                    ".", "\xE2\x80\x9D"});
    CHECK(data::tokenize_13a("  a\xC2\xA0"
                             "b\n") == V{"a", "b"});                  // U+00A0 splits, as Python's str.split()
    CHECK(data::tokenize_13a("line-\nbreak <skipped>").size() == 1);  // "-\n" joins: "linebreak"
}

TEST_CASE("BLEU: Papineni et al.'s 'the the the' example has modified unigram precision 2/7", "[data]") {
    // Hypothesis: seven "the"; reference "the cat is on the mat" holds "the" twice,
    // so the unigram count is clipped to 2: p_1 = 2/7 (Papineni et al. 2002, section 2.1).
    const std::vector<std::string> hyp{"the the the the the the the"}, ref{"the cat is on the mat"};
    data::BleuScore s = data::corpus_bleu(hyp, ref);
    CHECK(s.correct[0] == 2);
    CHECK(s.total[0] == 7);
    CHECK(s.precisions[0] == Approx(100.0 * 2 / 7));
    // No bigram, trigram or 4-gram matches: sacreBLEU's "exp" smoothing gives
    // them 100 / (2 * 6), 100 / (4 * 5), 100 / (8 * 4); c = 7 >= r = 6, so BP = 1, and
    // BLEU = (200/7 * 100/12 * 5 * 3.125)^(1/4) = 3720.238^(1/4) = 7.8099.
    CHECK(s.total == std::array<std::int64_t, 4>{7, 6, 5, 4});
    CHECK(s.precisions[1] == Approx(100.0 / 12));
    CHECK(s.precisions[2] == Approx(5.0));
    CHECK(s.precisions[3] == Approx(3.125));
    CHECK(s.brevity_penalty == 1.0);
    CHECK(s.score == Approx(std::pow(200.0 / 7 * 100.0 / 12 * 5 * 3.125, 0.25)));
    CHECK(s.score == Approx(7.8099).epsilon(1e-4));
    // Without smoothing, a zero precision makes the geometric mean 0.
    CHECK(data::corpus_bleu(hyp, ref, data::BleuSmoothing::none).score == 0.0);
}

TEST_CASE("BLEU: a perfect hypothesis scores 100, an empty one 0", "[data]") {
    const std::vector<std::string> ref{"The cat sat on the mat.", "It was glad."};
    CHECK(data::corpus_bleu(ref, ref).score == Approx(100.0));
    data::BleuScore empty = data::corpus_bleu({"", ""}, ref);
    CHECK(empty.score == 0.0);
    CHECK(empty.hyp_len == 0);
    CHECK(empty.ref_len == 11);  // The cat sat on the mat . | It was glad .
    CHECK(empty.brevity_penalty == 0.0);
    // Trailing whitespace is dropped before tokenising, as sacreBLEU's rstrip().
    CHECK(data::corpus_bleu({"It was glad.  \n"}, {"It was glad."}).score == Approx(100.0));
}

TEST_CASE("BLEU: the brevity penalty exp(1 - r/c) for a short hypothesis", "[data]") {
    // Every n-gram of "the cat sat on" is in the reference (4/4, 3/3, 2/2, 1/1):
    // BLEU = BP = exp(1 - 6/4) = exp(-0.5) = 0.60653.
    data::BleuScore s = data::corpus_bleu({"the cat sat on"}, {"the cat sat on the mat"});
    CHECK(s.brevity_penalty == Approx(std::exp(-0.5)));
    CHECK(s.score == Approx(100 * std::exp(-0.5)));
    // A longer hypothesis has no penalty: BP = 1, and the precisions pay instead.
    CHECK(data::corpus_bleu({"the cat sat on the mat today"}, {"the cat sat on the mat"}).brevity_penalty == 1.0);
}

TEST_CASE("BLEU is computed on the corpus's summed counts, not averaged over segments", "[data]") {
    // c = 4 + 4 = 8, r = 6 + 4 = 10, every precision 100%: BLEU = 100 exp(1 - 10/8) = 77.880.
    // (Averaging the segments' own BLEU would give (60.653 + 100) / 2 = 80.33.)
    data::BleuScore s = data::corpus_bleu({"the cat sat on", "a b c d"}, {"the cat sat on the mat", "a b c d"});
    CHECK(s.score == Approx(100 * std::exp(-0.25)));
}

TEST_CASE("BLEU: an order with no n-gram at all (every segment too short) gives 0", "[data]") {
    // Three tokens: no 4-gram exists, total_4 = 0, and sacreBLEU's loop stops with p_4 = 0.
    CHECK(data::corpus_bleu({"a b c"}, {"a b c"}).score == 0.0);
}

TEST_CASE("BLEU and chrF reject lists of different lengths", "[errors]") {
    CHECK_THROWS_AS(data::corpus_bleu({"a"}, {"a", "b"}), autograd::ValueError);
    CHECK_THROWS_AS(data::corpus_chrf({"a"}, {}), autograd::ValueError);
    CHECK_THROWS_AS(data::corpus_chrf({"\xC3"}, {"a"}), data::DatasetError);  // not UTF-8
}

TEST_CASE("chrF: perfect 100, empty 0, whitespace ignored", "[data]") {
    CHECK(data::corpus_chrf({"The cat sat."}, {"The cat sat."}).score == Approx(100.0));
    CHECK(data::corpus_chrf({"a b"}, {"ab"}).score == Approx(100.0));
    CHECK(data::corpus_chrf({""}, {"abc"}).score == 0.0);
}

TEST_CASE("chrF with beta = 2 worked by hand: hypothesis 'ab', reference 'abc'", "[data]") {
    // n=1: hyp {a,b}, ref {a,b,c}, 2 matches; n=2: hyp {ab}, ref {ab,bc}, 1 match;
    // n=3..6: no hypothesis n-gram, so those orders are not effective.
    // P = (2/2 + 1/1) / 2 = 1, R = (2/3 + 1/2) / 2 = 7/12,
    // chrF = 100 (1 + 4) P R / (4 P + R) = 100 (35/12) / (55/12) = 100 * 7/11 = 63.636.
    data::ChrfScore s = data::corpus_chrf({"ab"}, {"abc"});
    CHECK(s.precision == Approx(1.0));
    CHECK(s.recall == Approx(7.0 / 12));
    CHECK(s.score == Approx(700.0 / 11));
}

TEST_CASE("chrF counts characters as code points, not bytes", "[data]") {
    // "ñ" against "ñn": n=1: hyp {ñ}, ref {ñ, n}, 1 match: P = 1, R = 1/2; n=2: no hypothesis bigram.
    // chrF = 100 * 5 * 1/2 / (4 + 1/2) = 55.556 (in bytes it would be 63.6).
    CHECK(data::corpus_chrf({"\xC3\xB1"}, {"\xC3\xB1n"}).score == Approx(500.0 / 9));
}

TEST_CASE("chrF sums counts over the corpus, leaving out hypothesis n-grams of orders a reference lacks", "[data]") {
    // Segment 1: "abc" against "a"; segment 2: "xy" against "xy".
    // n=1: hyp 3 + 2 = 5, ref 1 + 2 = 3, matches 1 + 2 = 3.
    // n=2: "a" has no bigram, so segment 1's two hypothesis bigrams are not counted
    //      (sacreBLEU: hyp_count if ref_ngrams else 0): hyp 1, ref 1, match 1.
    // n=3..6: no reference n-gram: not effective.
    // P = (3/5 + 1) / 2 = 0.8, R = (1 + 1) / 2 = 1, chrF = 100 * 5 * 0.8 / (3.2 + 1) = 95.238.
    data::ChrfScore s = data::corpus_chrf({"abc", "xy"}, {"a", "xy"});
    CHECK(s.hyp[0] == 5);
    CHECK(s.hyp[1] == 1);
    CHECK(s.precision == Approx(0.8));
    CHECK(s.score == Approx(400.0 / 4.2));
}
