#include "data/verse_corpus.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "data/idx.h"  // DatasetError

namespace data {

HeldOutBooks default_held_out_books() { return {{"Ruth", "Phil"}, {"Esth", "Jonah", "Jas"}}; }

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

VerseCorpus pair_verses(const std::vector<Verse>& source, const std::vector<Verse>& target, const HeldOutBooks& held_out) {
    enum class Part { train, validation, test };
    std::map<std::string, Part> part_of_book;
    for (const std::string& b : held_out.validation) part_of_book[b] = Part::validation;
    for (const std::string& b : held_out.test) {
        if (part_of_book.count(b)) throw DatasetError(fmt::format("the book {} is held out for both validation and test", b));
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
            throw DatasetError(fmt::format("the held-out book {} has no verse in both translations (an OSIS book name "
                                           "such as Ruth, Phil, Esth, Jonah, Jas?)",
                                           book));
    if (corpus.train.empty()) throw DatasetError("no verse pairs are left for training");
    return corpus;
}

}  // namespace data
