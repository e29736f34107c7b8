#pragma once
// Labelled texts from Debian's `fortunes` package: each file of
// /usr/share/games/fortunes is a category ("computers", "science", ...), and
// its entries, separated by lines holding only '%', are the texts. A text
// classifier learns which file a fortune comes from (002 "Sentiment
// classification": a sequence in, a class out).
#include <cstdint>
#include <string>
#include <vector>

#include "lectern/data/idx.h"  // DatasetError

namespace data {

// The entries of the fortunes file `dir`/`category`, cleaned as read_fortunes
// cleans the corpus (an overstrike "x BACKSPACE y" keeps y; BEL removed),
// with surrounding blank lines and spaces trimmed; blank entries are skipped.
// DatasetError with the fix in one line: the folder missing (install Debian's
// `fortunes`), the file missing (the categories the folder has), or a file
// with no entries.
std::vector<std::string> read_fortune_entries(const std::string& dir, const std::string& category);

// Whether `dir` holds the fortunes file `category`: nothing if it does, else
// "no fortunes file 'x' in DIR (it has: art, computers, ...)". A program checks
// its flags with it before any work; read_fortune_entries refuses with it too.
std::string missing_fortune_file(const std::string& dir, const std::string& category);

// A list of categories written as one text, "computers,science" -> computers,
// science (a program's flag, recorded by a checkpoint as given). DatasetError
// for fewer than two names, an empty name or a name given twice.
std::vector<std::string> parse_fortune_categories(const std::string& list);

struct LabelledText {
    std::string text;
    std::int64_t label;  // the index of its category
};

struct FortuneSplit {
    std::vector<LabelledText> train, validation, test;
    std::vector<std::int64_t> train_per_class;  // how many training texts each class has
    std::int64_t ambiguous = 0;                 // distinct texts found in two or more categories, left out of both sets
};

// A held-out split balanced by class: `test_per_class` texts of every class,
// drawn by a shuffle seeded with `seed`, then `validation_per_class` more of
// every class (for choosing a model; the test texts do not depend on it); the
// rest of each class trains.
// A text that occurs in two categories has no single label, and one repeated
// inside a category would be in both sets: each distinct text is kept once,
// in its only category, or dropped. DatasetError naming the category when one
// has no more than `test_per_class` + `validation_per_class` texts.
FortuneSplit split_by_class(const std::vector<std::vector<std::string>>& texts_by_class,
                            const std::vector<std::string>& names, std::int64_t test_per_class, std::uint64_t seed,
                            std::int64_t validation_per_class = 0);

}  // namespace data
