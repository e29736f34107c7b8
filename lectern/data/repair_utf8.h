#pragma once
// Text made of tokens' bytes is not always UTF-8: a model may stop inside a
// character, and a byte-level subword may hold part of one (byte_pair_encoding.h).
// repair_utf8 keeps every well-formed character and puts `replacement(byte)`
// in place of each byte that is not part of one:
//
//   "a\xE2\x80\x99b" (a’b)  ->  "a\xE2\x80\x99b"
//   "a\xE2\x80" (cut short) ->  "a" + replacement(0xE2) + replacement(0x80)
//
// (Python's bytes.decode(errors="replace") with replacement U+FFFD, but one
// replacement per byte.)
#include <functional>
#include <string>

namespace data {

std::string repair_utf8(const std::string& bytes, const std::function<std::string(unsigned char)>& replacement);

}  // namespace data
