#include "lectern/data/pretokenize.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <memory>

#include "lectern/data/idx.h"  // DatasetError

namespace data {

namespace {

// \p{L}, \p{N} and \s need Unicode properties, which std::regex lacks: PCRE2
// (Debian's libpcre2-dev) matches them, with UCP so that \s is Unicode's
// whitespace as in the reference encoders, and MATCH_INVALID_UTF so that
// malformed bytes are skipped instead of failing the match.
constexpr char kPattern[] = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

struct CodeDeleter {
    void operator()(pcre2_code* c) const { pcre2_code_free(c); }
};
struct MatchDataDeleter {
    void operator()(pcre2_match_data* m) const { pcre2_match_data_free(m); }
};

const pcre2_code* compiled_pattern() {
    static const std::unique_ptr<pcre2_code, CodeDeleter> code = [] {
        int error = 0;
        PCRE2_SIZE offset = 0;
        pcre2_code* c = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(kPattern), PCRE2_ZERO_TERMINATED,
                                      PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &error, &offset, nullptr);
        if (!c) throw DatasetError("pretokenize: PCRE2 cannot compile GPT-2's pattern (PCRE2 built without Unicode?)");
        pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);  // the interpreter is used when the JIT is unavailable
        return std::unique_ptr<pcre2_code, CodeDeleter>(c);
    }();
    return code.get();
}

}  // namespace

std::vector<std::string_view> pretokenize(std::string_view text) {
    const pcre2_code* code = compiled_pattern();
    std::unique_ptr<pcre2_match_data, MatchDataDeleter> match(pcre2_match_data_create_from_pattern(code, nullptr));
    const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    std::vector<std::string_view> pieces;
    std::size_t at = 0;  // everything before `at` is in `pieces`
    while (at < text.size()) {
        int rc = pcre2_match(code, subject, text.size(), at, 0, match.get(), nullptr);
        if (rc == PCRE2_ERROR_NOMATCH) break;
        if (rc < 0) throw DatasetError("pretokenize: PCRE2 match failed with error " + std::to_string(rc));
        const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(match.get());
        if (ovector[0] > at) pieces.push_back(text.substr(at, ovector[0] - at));  // malformed UTF-8
        pieces.push_back(
            text.substr(ovector[0], ovector[1] - ovector[0]));  // never empty: every branch needs a character
        at = ovector[1];
    }
    if (at < text.size()) pieces.push_back(text.substr(at));
    return pieces;
}

}  // namespace data
