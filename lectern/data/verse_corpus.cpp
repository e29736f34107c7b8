#include "lectern/data/verse_corpus.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "lectern/data/idx.h"  // DatasetError

namespace data {

HeldOutBooks default_held_out_books() { return {{"Ruth", "Phil"}, {"Esth", "Jonah", "Jas"}}; }

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

// The bytes of markup left in SWORD's plain text at text[i], or 0: a Strong's
// number "<H0398>" or "<G25>" (the plain filter prints the second number of
// a word tagged with two), or a USFM marker "\nd" or "\nd*" (left in the
// KJV module's own text, as in "the \nd LORD" at 1 Kings 13:9).
std::size_t markup_at(std::string_view text, std::size_t i) {
    if (text[i] == '<' && i + 2 < text.size() && (text[i + 1] == 'H' || text[i + 1] == 'G') && is_digit(text[i + 2])) {
        std::size_t k = i + 2;
        while (k < text.size() && is_digit(text[k])) ++k;
        return k < text.size() && text[k] == '>' ? k + 1 - i : 0;
    }
    if (text[i] == '\\' && i + 1 < text.size() && is_lower(text[i + 1])) {
        std::size_t k = i + 1;
        while (k < text.size() && (is_lower(text[k]) || is_digit(text[k]))) ++k;
        return (k < text.size() && text[k] == '*' ? k + 1 : k) - i;
    }
    return 0;
}

}  // namespace

std::string plain_verse_text(std::string_view text) {
    static constexpr std::string_view pilcrow = "\xC2\xB6";  // U+00B6 in UTF-8
    std::string out;
    bool space = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text.substr(i, pilcrow.size()) == pilcrow) {
            i += pilcrow.size() - 1;
            space = true;
            continue;
        }
        if (std::size_t n = markup_at(text, i)) {  // gone with the space before it: "comerás <H0398>;" -> "comerás;"
            i += n - 1;
            space = false;
            continue;
        }
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            space = true;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

VerseCorpus pair_verses(const std::vector<Verse>& source, const std::vector<Verse>& target,
                        const HeldOutBooks& held_out) {
    enum class Part { train, validation, test };
    std::map<std::string, Part> part_of_book;
    for (const std::string& b : held_out.validation) part_of_book[b] = Part::validation;
    for (const std::string& b : held_out.test) {
        if (part_of_book.count(b))
            throw DatasetError(fmt::format("the book {} is held out for both validation and test", b));
        part_of_book[b] = Part::test;
    }
    std::unordered_map<std::string, const Verse*> target_of_ref;
    for (const Verse& v : target) target_of_ref.emplace(v.ref, &v);

    VerseCorpus corpus;
    corpus.source_verses = static_cast<std::int64_t>(source.size());
    corpus.target_verses = static_cast<std::int64_t>(target.size());
    std::map<std::string, std::int64_t> pairs_of_held_out_book;
    for (const Verse& v : source) {
        auto it = target_of_ref.find(v.ref);
        if (it == target_of_ref.end()) {
            ++corpus.unpaired;
            continue;
        }
        VersePair pair{v.ref, v.book, plain_verse_text(v.text), plain_verse_text(it->second->text)};
        if (pair.source.empty() || pair.target.empty()) {
            ++corpus.empty_skipped;
            continue;
        }
        auto part = part_of_book.find(v.book);
        if (part == part_of_book.end()) {
            corpus.train.push_back(std::move(pair));
            continue;
        }
        ++pairs_of_held_out_book[v.book];
        (part->second == Part::validation ? corpus.validation : corpus.test).push_back(std::move(pair));
    }
    for (const auto& [book, part] : part_of_book)
        if (pairs_of_held_out_book[book] == 0)
            throw DatasetError(
                fmt::format("the held-out book {} has no verse in both translations (an OSIS book name "
                            "such as Ruth, Phil, Esth, Jonah, Jas?)",
                            book));
    if (corpus.train.empty()) throw DatasetError("no verse pairs are left for training");
    return corpus;
}

}  // namespace data
