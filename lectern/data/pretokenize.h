#pragma once
// GPT-2's pre-tokenisation: a text is cut into pieces before byte-pair
// merging, so a merge never crosses from a word into the space or punctuation
// around it. The pieces are the matches of GPT-2's pattern
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// (contractions, a word with its leading space, a number, a run of other
// symbols, whitespace that leaves its last space to the next word).
#include <string>
#include <string_view>
#include <vector>

namespace data {

// The pieces of `text`, in order; concatenated they give `text` back, byte for
// byte. Bytes that are not valid UTF-8 match no part of the pattern: each run
// of them is a piece of its own (so any bytes round-trip).
std::vector<std::string_view> pretokenize(std::string_view text);

}  // namespace data
