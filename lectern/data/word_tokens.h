#pragma once
// Words as units of text: what the bag-of-words baseline counts and what a
// word-level text classifier reads. A word is a lower-cased run of ASCII
// letters and digits, with apostrophes inside it kept ("don't"); everything
// else (spaces, punctuation, bytes of other scripts) separates words.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace data {

// The words of `text`, in order: "It's 2 o'clock!" -> it's, 2, o'clock.
std::vector<std::string> words(const std::string& text);

// A word vocabulary: the words held by at least `min_count` of the texts it
// was built from (document frequency, so one long text repeating a word does
// not make it common), numbered in alphabetical order.
class WordVocabulary {
public:
    WordVocabulary(const std::vector<std::string>& texts, std::int64_t min_count);

    std::int64_t size() const { return static_cast<std::int64_t>(words_.size()); }
    const std::string& word(std::int64_t id) const { return words_.at(static_cast<std::size_t>(id)); }
    // The id of `w`, or -1 for a word outside the vocabulary.
    std::int64_t id(const std::string& w) const;
    // The ids of the words of `text` in order; a word outside the vocabulary
    // is `unknown` (or left out when `unknown` is -1).
    std::vector<std::int64_t> encode(const std::string& text, std::int64_t unknown) const;
    // The sorted ids of the distinct vocabulary words `text` holds (its bag of words).
    std::vector<std::int64_t> bag(const std::string& text) const;

private:
    std::vector<std::string> words_;
    std::map<std::string, std::int64_t> ids_;
};

}  // namespace data
