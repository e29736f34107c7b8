#include "lectern/data/char_corpus.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace data {

namespace {

// Calls f(code point, byte offset) for each character of UTF-8 `bytes`;
// DatasetError naming the byte offset of the first malformed sequence.
template <class F> void for_each_code_point(const std::string& bytes, F f) {
    const auto n = bytes.size();
    for (std::size_t i = 0; i < n;) {
        const auto b0 = static_cast<unsigned char>(bytes[i]);
        // the sequence length from the lead byte, and the smallest code point it may encode
        const std::size_t len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
        const char32_t least = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
        if (len == 0 || i + len > n) throw DatasetError(fmt::format("decode_utf8: malformed UTF-8 at byte {}", i));
        char32_t c = len == 1 ? b0 : b0 & (0x7F >> len);
        for (std::size_t k = 1; k < len; ++k) {
            const auto b = static_cast<unsigned char>(bytes[i + k]);
            if ((b >> 6) != 0x2) throw DatasetError(fmt::format("decode_utf8: malformed UTF-8 at byte {}", i));
            c = (c << 6) | (b & 0x3F);
        }
        if ((len > 1 && c < least) || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            throw DatasetError(fmt::format("decode_utf8: malformed UTF-8 at byte {} (code point U+{:04X})", i,
                                           static_cast<std::uint32_t>(c)));
        f(c, i);
        i += len;
    }
}

}  // namespace

std::u32string decode_utf8(const std::string& bytes) {
    std::u32string out;
    out.reserve(bytes.size());
    for_each_code_point(bytes, [&](char32_t c, std::size_t) { out.push_back(c); });
    return out;
}

TokenIds::TokenIds(std::int64_t alphabet_size)
    : width_(alphabet_size <= 256 ? 1 : alphabet_size <= 65536 ? 2 : 4) {}

void TokenIds::push_back(std::int64_t id) {
    const auto v = static_cast<std::uint32_t>(id);
    const auto* p = reinterpret_cast<const unsigned char*>(&v);  // little-endian: the low bytes first
    bytes_.insert(bytes_.end(), p, p + width_);
}

std::int64_t TokenIds::operator[](std::size_t i) const {
    const unsigned char* p = bytes_.data() + i * width_;
    if (width_ == 1) return p[0];
    if (width_ == 2) return p[0] | p[1] << 8;
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

std::string encode_utf8(const std::u32string& text) {
    std::string out;
    for (char32_t c : text) {
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
        } else if (c < 0x800) {
            out.push_back(static_cast<char>(0xC0 | (c >> 6)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        } else if (c < 0x10000) {
            out.push_back(static_cast<char>(0xE0 | (c >> 12)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        } else {
            out.push_back(static_cast<char>(0xF0 | (c >> 18)));
            out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
    }
    return out;
}

CharVocab CharVocab::of_utf8(const std::string& bytes) {
    std::vector<bool> present(0x110000, false);
    for_each_code_point(bytes, [&](char32_t c, std::size_t) { present[c] = true; });
    CharVocab v;
    for (char32_t c = 0; c < 0x110000; ++c)
        if (present[c]) v.chars_.push_back(c);
    v.index();
    return v;
}

TokenIds CharVocab::encode_utf8_text(const std::string& bytes) const {
    TokenIds ids(size());
    ids.reserve(bytes.size());
    for_each_code_point(bytes, [&](char32_t c, std::size_t at) {
        if (!contains(c))
            throw DatasetError(fmt::format("the character {} at byte {} is not in the alphabet", describe_char(c), at));
        ids.push_back(id_of_[c]);
    });
    return ids;
}

CharVocab CharVocab::from_alphabet(const std::u32string& chars) {
    for (std::size_t i = 0; i < chars.size(); ++i)
        if (chars[i] >= 0x110000 || (i > 0 && chars[i] <= chars[i - 1]))
            throw DatasetError(fmt::format("CharVocab: a saved alphabet must list distinct code points in order; "
                                           "{} at place {} does not", describe_char(chars[i]), i));
    CharVocab v;
    v.chars_ = chars;
    v.index();
    return v;
}

void CharVocab::index() {
    id_of_.assign(chars_.empty() ? 0 : chars_.back() + 1, -1);
    for (std::size_t i = 0; i < chars_.size(); ++i) id_of_[chars_[i]] = static_cast<std::int32_t>(i);
}

bool CharVocab::contains(char32_t c) const { return c < id_of_.size() && id_of_[c] >= 0; }

std::vector<std::int64_t> CharVocab::encode(const std::u32string& text) const {
    std::vector<std::int64_t> ids(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char32_t c = text[i];
        if (!contains(c))
            throw DatasetError(fmt::format("CharVocab: the character {} is not in the text's alphabet", describe_char(c)));
        ids[i] = id_of_[c];
    }
    return ids;
}

std::string describe_char(char32_t c) {
    switch (c) {
        case U'\n': return "'\\n'";
        case U'\t': return "'\\t'";
        case U'\r': return "'\\r'";
        default: break;
    }
    if (c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0) || c > 0x10FFFF)
        return fmt::format("U+{:04X}", static_cast<std::uint32_t>(c));
    return fmt::format("'{}' (U+{:04X})", encode_utf8(std::u32string(1, c)), static_cast<std::uint32_t>(c));
}

std::u32string CharVocab::decode(const std::vector<std::int64_t>& ids) const {
    std::u32string text;
    for (std::int64_t id : ids) {
        if (id < 0 || id >= size())
            throw autograd::IndexError(fmt::format("CharVocab: id {} is outside the alphabet [0, {})", id, size()));
        text.push_back(chars_[static_cast<std::size_t>(id)]);
    }
    return text;
}

// The `fortunes` package's files, less its two files of pictures drawn in
// characters (art, ascii-art): 2.4 MB of quotations, jokes and verse.
const std::vector<std::string> kFortuneFiles = {
    "computers", "cookie",   "debian",    "definitions", "disclaimer", "drugs",     "education",   "ethnic",
    "food",      "goedel",   "humorists", "kids",        "knghtbrd",   "law",       "linux",       "linuxcookie",
    "love",      "magic",    "medicine",  "men-women",   "miscellaneous", "news",   "paradoxum",   "people",
    "perl",      "pets",     "platitudes", "politics",   "pratchett",  "science",   "songs-poems", "sports",
    "startrek",  "tao",      "translate-me", "wisdom",   "work",       "zippy"};

std::string read_text_file(const std::string& path, std::size_t max_bytes, const std::string& limit) {
    std::error_code ec;  // a regular file's size is known before a byte is read; a device's or a pipe's is not
    if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) > max_bytes && !ec)
        throw DatasetError(fmt::format("{} holds more than {} bytes, {}", path, max_bytes, limit));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DatasetError(fmt::format("cannot read {}: {}", path, std::strerror(errno)));
    std::string text;
    std::vector<char> chunk(std::size_t{1} << 20);
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (text.size() + got > max_bytes)
            throw DatasetError(fmt::format("{} holds more than {} bytes, {}", path, max_bytes, limit));
        text.append(chunk.data(), got);
    }
    if (in.bad()) throw DatasetError(fmt::format("reading {} failed after {} bytes: {}", path, text.size(), std::strerror(errno)));
    return text;
}

std::string read_fortunes(const std::string& dir) {
    std::string text;
    for (const std::string& name : kFortuneFiles) {
        std::string path = dir + "/" + name;
        std::ifstream probe(path);
        if (!probe)
            throw DatasetError(fmt::format("cannot read {}: the default corpus is Debian's `fortunes` package "
                                           "(apt-get install fortunes), or give a text file with --text",
                                           path));
        std::string body = read_text_file(path);
        if (!text.empty() && !body.empty()) text += text.back() == '\n' ? "%\n" : "\n%\n";
        for (char c : body) {
            if (c == '\b') {  // an overstrike: the character before it is struck over, drop it
                if (!text.empty()) text.pop_back();
            } else if (c != '\a') {
                text.push_back(c);
            }
        }
    }
    return text;
}

TextBatch text_batch(const TokenSpan& ids, const std::vector<std::int64_t>& starts, std::int64_t T) {
    const auto B = static_cast<std::int64_t>(starts.size()), n = ids.size();
    TextBatch b{autograd::Tensor::empty({B, T}, autograd::Dtype::int64), autograd::Tensor::empty({B, T}, autograd::Dtype::int64)};
    std::int64_t* x = b.inputs.data<std::int64_t>();
    std::int64_t* y = b.targets.data<std::int64_t>();
    for (std::int64_t i = 0; i < B; ++i) {
        const std::int64_t s = starts[static_cast<std::size_t>(i)];
        if (s < 0 || s + T + 1 > n)
            throw autograd::IndexError(fmt::format("text_batch: a window of {} + 1 tokens at {} runs past the text's {}", T, s, n));
        for (std::int64_t t = 0; t < T; ++t) {
            x[i * T + t] = ids[static_cast<std::size_t>(s + t)];
            y[i * T + t] = ids[static_cast<std::size_t>(s + t + 1)];
        }
    }
    return b;
}

}  // namespace data
