#pragma once
// What a language model over one text reads (examples/char_lm): the text's
// own characters (CharVocab: an alphabet of code points), or byte-level BPE
// subwords (byte_pair_encoding.h) whose merges train_bpe learnt from the text.
// Characters give the shortest vocabulary and the longest sequences; subwords
// a larger vocabulary and sequences several times shorter, so the same context
// window reaches further back into the text.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lectern/data/byte_pair_encoding.h"
#include "lectern/data/char_vocab.h"
#include "lectern/data/token_ids.h"

namespace data {

class TextTokens {
public:
    static TextTokens characters(CharVocab vocab);
    static TextTokens subwords(BytePairEncoding bpe);
    // What saved() wrote: the alphabet as UTF-8, or the merges as lines "a b"
    // (ids), from which the subwords are rebuilt as train_bpe built them.
    // DatasetError for text that is neither.
    static TextTokens from_saved(bool subwords, const std::string& saved);

    bool is_subwords() const { return bpe_ != nullptr; }
    std::int64_t size() const;
    std::string saved() const;

    // UTF-8 bytes to ids. Characters: DatasetError naming the first one outside
    // the alphabet. Subwords encode any bytes.
    TokenIds encode_text(const std::string& bytes) const;
    std::vector<std::int64_t> encode(const std::string& utf8) const;
    // Whether encode() takes `utf8` (characters: all of them in the alphabet).
    bool can_encode(const std::string& utf8) const;
    // The ids' bytes; a subword sequence may end inside a multi-byte character.
    std::string decode(const std::vector<std::int64_t>& ids) const;
    // One token as a tick label shows it: its text, or for bytes that are not
    // UTF-8 on their own (part of a character) their values, "\xE2".
    std::string label(std::int64_t id) const;

private:
    std::shared_ptr<const CharVocab> chars_;
    std::shared_ptr<const BytePairEncoding> bpe_;
};

}  // namespace data
