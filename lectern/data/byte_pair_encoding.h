#pragma once
// Byte-level byte-pair encoding, as GPT-2 defines it (Radford et al. 2019,
// section 2.2; Sennrich et al. 2016 for BPE): a text is cut into pieces
// (pretokenize.h), each piece's UTF-8 bytes start as one token per byte, and
// the merges are applied by rank: repeatedly, the adjacent pair of tokens
// whose merge was learnt earliest is joined, everywhere in the piece, until
// no adjacent pair has a merge. Every byte is a token, so any input encodes,
// and decoding concatenates the tokens' bytes: decode(encode(s)) == s.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace data {

// GPT-2's files store a token's bytes as printable characters: byte b is the
// code point byte_to_code_point()[b] (the printable Latin-1 bytes stand for
// themselves, the 68 others for U+0100 onwards), so a token is a JSON string
// and a merge a line "first second".
const std::vector<char32_t>& byte_to_code_point();

class BytePairEncoding {
public:
    // tokens[id]: the bytes of token id; every single byte must be a token.
    // merges[r] = (a, b): the merge of rank r joins token a then token b into
    // the token whose bytes are tokens[a] + tokens[b], which must exist.
    // DatasetError naming the first entry that breaks these.
    BytePairEncoding(std::vector<std::string> tokens, std::vector<std::pair<std::int64_t, std::int64_t>> merges);

    // GPT-2's two files: the vocabulary (JSON object, token -> id) and the
    // merges (a "#version" line, then one "first second" per line, by rank).
    // Each must be a regular file: a FIFO, a device or a folder is refused
    // before it is opened.
    static BytePairEncoding from_files(const std::filesystem::path& vocab_json,
                                       const std::filesystem::path& merges_txt);
    // A folder holding encoder.json and vocab.bpe (OpenAI's names), or
    // vocab.json and merges.txt (Hugging Face's names).
    static BytePairEncoding from_directory(const std::filesystem::path& dir);
    // Writes the two files in GPT-2's format, readable by from_files.
    void save(const std::filesystem::path& vocab_json, const std::filesystem::path& merges_txt) const;

    std::vector<std::int64_t> encode(std::string_view text) const;
    // The bytes of the tokens, concatenated; DatasetError on an id out of range.
    std::string decode(const std::vector<std::int64_t>& ids) const;
    // The ids of one piece (no pre-tokenisation), merges applied by rank.
    std::vector<std::int64_t> encode_piece(std::string_view piece) const;

    std::int64_t vocab_size() const { return static_cast<std::int64_t>(tokens_.size()); }
    const std::string& token(std::int64_t id) const { return tokens_.at(static_cast<std::size_t>(id)); }
    const std::vector<std::pair<std::int64_t, std::int64_t>>& merges() const { return merges_; }

private:
    struct Merge {
        std::int64_t rank, merged;
    };
    static std::uint64_t pair_key(std::int64_t a, std::int64_t b) {
        return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint64_t>(b);
    }

    std::vector<std::string> tokens_;
    std::vector<std::pair<std::int64_t, std::int64_t>> merges_;
    std::int64_t byte_token_[256];
    std::unordered_map<std::uint64_t, Merge> merge_of_pair_;
};

}  // namespace data
