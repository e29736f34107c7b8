#include "lectern/data/byte_pair_encoding.h"

#include "lectern/autograd/printable.h"
#include "lectern/autograd/regular_file.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <limits>
#include <queue>
#include <sstream>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lectern/data/text_file.h"
#include "lectern/data/utf8.h"
#include "lectern/data/idx.h"  // DatasetError
#include "lectern/data/pretokenize.h"

namespace data {

namespace {

// GPT-2's vocab.json is 1 MB and merges.txt 456 KB. The bound refuses an endless
// device before it is read to the end, and keeps what the JSON parser holds
// (up to 17 bytes for each byte it reads) under 300 MB.
constexpr std::size_t kMaxTokenizerFile = std::size_t{16} << 20;

// Unlike a text corpus, a tokenizer's file is never a pipe: a FIFO is refused
// before it is opened, where read_text_file would wait for its writer.
std::string read_file(const std::filesystem::path& path) {
    autograd::require_regular_file<DatasetError>(path, "tokenizer");
    return read_text_file(path.string(), kMaxTokenizerFile,
                          "more than a tokenizer's file needs (GPT-2's vocab.json is 1 MB)");
}

// vocab.json: one flat object, token -> id. The parser would keep the last id of
// a token named twice, silently, so a repeated token is refused; so is any
// nesting, which a vocabulary has none of.
nlohmann::json parse_vocabulary(const std::string& text, const std::string& path) {
    using Event = nlohmann::json::parse_event_t;
    std::unordered_set<std::string> tokens;
    auto check = [&](int depth, Event event, nlohmann::json& parsed) {
        if ((event == Event::object_start || event == Event::array_start) && depth > 0)
            throw DatasetError(
                fmt::format("tokenizer: {}: a token's id is an object or an array, not an integer", path));
        if (event == Event::key && !tokens.insert(parsed.get_ref<const std::string&>()).second)
            throw DatasetError(fmt::format("tokenizer: {}: token \"{}\" is given twice", path,
                                           autograd::printable(parsed.get_ref<const std::string&>())));
        return true;
    };
    try {
        return nlohmann::json::parse(text, check);
    } catch (const nlohmann::json::exception& e) {
        throw DatasetError(fmt::format("tokenizer: {} is not JSON: {}", path, autograd::printable(e.what(), 300)));
    }
}

// A token as stored in GPT-2's files (one printable character per byte) -> its bytes.
std::string stored_to_bytes(const std::string& stored, const std::string& where) {
    static const std::unordered_map<char32_t, unsigned char> byte_of = [] {
        std::unordered_map<char32_t, unsigned char> m;
        for (int b = 0; b < 256; ++b) m[byte_to_code_point()[b]] = static_cast<unsigned char>(b);
        return m;
    }();
    std::string bytes;
    for (char32_t c : decode_utf8(stored)) {
        auto it = byte_of.find(c);
        if (it == byte_of.end())
            throw DatasetError(fmt::format("tokenizer: {}: token \"{}\" has U+{:04X}, which stands for no byte", where,
                                           stored, static_cast<std::uint32_t>(c)));
        bytes.push_back(static_cast<char>(it->second));
    }
    return bytes;
}

std::string bytes_to_stored(const std::string& bytes) {
    std::u32string s;
    for (unsigned char b : bytes) s.push_back(byte_to_code_point()[b]);
    return encode_utf8(s);
}

// A special token stands outside the merges: GPT-2's one, <|endoftext|>, and
// those of its kind.
bool is_special(const std::string& token) {
    return token.size() > 4 && token.starts_with("<|") && token.ends_with("|>");
}

// Every token of the vocabulary is a byte, made by a merge, or special: a
// merges.txt cut short (a partial download) leaves tokens no merge makes, and
// would encode every text into other tokens than the model was trained on.
void require_merges_make_vocabulary(const std::vector<std::string>& tokens,
                                    const std::unordered_map<std::string, std::int64_t>& id_of,
                                    const std::vector<std::pair<std::int64_t, std::int64_t>>& merges,
                                    const std::string& vocab_json, const std::string& merges_txt) {
    std::vector<bool> made(tokens.size());
    std::size_t by_merges = 0;
    for (const auto& [a, b] : merges)
        if (auto it = id_of.find(tokens[a] + tokens[b]); it != id_of.end() && !made[it->second])
            made[it->second] = true, ++by_merges;
    for (std::size_t id = 0; id < tokens.size(); ++id)
        if (tokens[id].size() == 1 || is_special(tokens[id])) made[id] = true;
    const auto unmade = std::find(made.begin(), made.end(), false);
    if (unmade == made.end()) return;
    const auto id = static_cast<std::size_t>(unmade - made.begin());
    throw DatasetError(
        fmt::format("tokenizer: {} is short: its {} merges make {} tokens of the {} in {}; none makes "
                    "token {} \"{}\" (a partial download? fetch it again)",
                    merges_txt, merges.size(), by_merges, tokens.size(), vocab_json, id, bytes_to_stored(tokens[id])));
}

}  // namespace

// GPT-2's bytes_to_unicode: the bytes '!'..'~', 0xA1..0xAC and 0xAE..0xFF are
// printable and stand for themselves; the others, in byte order, take
// U+0100, U+0101, ... (so the space 0x20 is U+0120 'Ġ').
const std::vector<char32_t>& byte_to_code_point() {
    static const std::vector<char32_t> table = [] {
        std::vector<char32_t> t(256);
        char32_t next = 256;
        for (int b = 0; b < 256; ++b) {
            bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            t[b] = printable ? static_cast<char32_t>(b) : next++;
        }
        return t;
    }();
    return table;
}

BytePairEncoding::BytePairEncoding(std::vector<std::string> tokens,
                                   std::vector<std::pair<std::int64_t, std::int64_t>> merges)
    : tokens_(std::move(tokens)), merges_(std::move(merges)) {
    const auto n = static_cast<std::int64_t>(tokens_.size());
    if (n >= (std::int64_t{1} << 31)) throw DatasetError(fmt::format("tokenizer: {} tokens, at most 2^31 - 1", n));
    std::unordered_map<std::string, std::int64_t> id_of;
    for (std::int64_t id = 0; id < n; ++id)
        if (!id_of.emplace(tokens_[id], id).second)
            throw DatasetError(fmt::format("tokenizer: token {} repeats token {}", id, id_of[tokens_[id]]));
    for (int b = 0; b < 256; ++b) {
        auto it = id_of.find(std::string(1, static_cast<char>(b)));
        if (it == id_of.end()) throw DatasetError(fmt::format("tokenizer: byte 0x{:02X} is not a token", b));
        byte_token_[b] = it->second;
    }
    for (std::size_t r = 0; r < merges_.size(); ++r) {
        auto [a, b] = merges_[r];
        if (a < 0 || a >= n || b < 0 || b >= n)
            throw DatasetError(fmt::format("tokenizer: merge {} joins ids {} and {}, outside [0, {})", r, a, b, n));
        auto it = id_of.find(tokens_[a] + tokens_[b]);
        if (it == id_of.end())
            throw DatasetError(fmt::format("tokenizer: merge {} (\"{}\" \"{}\") makes no token of the vocabulary", r,
                                           bytes_to_stored(tokens_[a]), bytes_to_stored(tokens_[b])));
        merge_of_pair_.emplace(pair_key(a, b), Merge{static_cast<std::int64_t>(r), it->second});  // the first rank wins
    }
}

BytePairEncoding BytePairEncoding::from_files(const std::filesystem::path& vocab_json,
                                              const std::filesystem::path& merges_txt) {
    const nlohmann::json vocab = parse_vocabulary(read_file(vocab_json), vocab_json.string());
    if (!vocab.is_object()) throw DatasetError(fmt::format("tokenizer: {} must be a JSON object", vocab_json.string()));
    const auto n = static_cast<std::int64_t>(vocab.size());
    std::vector<std::string> tokens(vocab.size());
    std::vector<bool> seen(vocab.size());
    std::unordered_map<std::string, std::int64_t> id_of;
    std::int64_t last = n - 1;  // the largest id given; past n - 1, an id below it has no entry
    for (const auto& [stored, id_value] : vocab.items()) {
        if (!id_value.is_number_integer() || id_value.get<std::int64_t>() < 0)
            throw DatasetError(fmt::format("tokenizer: {}: token \"{}\" has id {}, not a whole number >= 0",
                                           vocab_json.string(), stored, id_value.dump()));
        auto id = id_value.get<std::int64_t>();
        if (id >= n) {
            last = std::max(last, id);
            continue;
        }
        if (seen[id]) throw DatasetError(fmt::format("tokenizer: {}: id {} is given twice", vocab_json.string(), id));
        seen[id] = true;
        tokens[id] = stored_to_bytes(stored, vocab_json.string());
        id_of[tokens[id]] = id;
    }
    if (last >= n)
        throw DatasetError(
            fmt::format("tokenizer: {}: no token has id {}, yet the ids run to {}: an entry is missing "
                        "(a damaged file? fetch it again)",
                        vocab_json.string(), std::find(seen.begin(), seen.end(), false) - seen.begin(), last));

    std::istringstream lines(read_file(merges_txt));
    std::vector<std::pair<std::int64_t, std::int64_t>> merges;
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || (number == 1 && line.rfind("#version", 0) == 0)) continue;
        auto space = line.find(' ');
        if (space == std::string::npos || space == 0 || space + 1 == line.size() ||
            line.find(' ', space + 1) != std::string::npos)
            throw DatasetError(fmt::format("tokenizer: {} line {}: \"{}\" is not \"first second\"", merges_txt.string(),
                                           number, line));
        std::int64_t pair[2];
        std::string halves[2] = {line.substr(0, space), line.substr(space + 1)};
        for (int k = 0; k < 2; ++k) {
            auto it = id_of.find(stored_to_bytes(halves[k], merges_txt.string()));
            if (it == id_of.end())
                throw DatasetError(fmt::format("tokenizer: {} line {}: \"{}\" is not in {}", merges_txt.string(),
                                               number, halves[k], vocab_json.string()));
            pair[k] = it->second;
        }
        merges.emplace_back(pair[0], pair[1]);
    }
    require_merges_make_vocabulary(tokens, id_of, merges, vocab_json.string(), merges_txt.string());
    return BytePairEncoding(std::move(tokens), std::move(merges));
}

BytePairEncoding BytePairEncoding::from_directory(const std::filesystem::path& dir) {
    for (auto [vocab, merges] : {std::pair{"encoder.json", "vocab.bpe"}, std::pair{"vocab.json", "merges.txt"}})
        if (std::filesystem::exists(dir / vocab) && std::filesystem::exists(dir / merges))
            return from_files(dir / vocab, dir / merges);
    throw DatasetError(
        fmt::format("tokenizer: {} holds neither encoder.json + vocab.bpe nor vocab.json + merges.txt", dir.string()));
}

void BytePairEncoding::save(const std::filesystem::path& vocab_json, const std::filesystem::path& merges_txt) const {
    nlohmann::ordered_json vocab = nlohmann::ordered_json::object();
    for (std::size_t id = 0; id < tokens_.size(); ++id) vocab[bytes_to_stored(tokens_[id])] = id;
    std::ofstream v(vocab_json, std::ios::binary), m(merges_txt, std::ios::binary);
    if (!v || !m)
        throw DatasetError(fmt::format("tokenizer: cannot write {} and {}", vocab_json.string(), merges_txt.string()));
    v << vocab.dump();
    m << "#version: 0.2\n";
    for (auto [a, b] : merges_) m << bytes_to_stored(tokens_[a]) << ' ' << bytes_to_stored(tokens_[b]) << '\n';
    if (!v.flush() || !m.flush())
        throw DatasetError(
            fmt::format("tokenizer: writing {} and {} failed", vocab_json.string(), merges_txt.string()));
}

// Start from one token per byte; while some adjacent pair has a merge, take
// the pair of lowest rank and join its occurrences left to right.
// The merges by rank, without rescanning the piece for each: the tokens are a
// linked list over the piece's bytes, and a heap holds (rank, position) of
// every adjacent pair that has a merge, some of them stale. A round takes the
// lowest rank and joins its pairs left to right (as a scan does: of "aaa" the
// first two), then pushes the pairs those joins made. A piece of L bytes costs
// O(L log L), not O(L^2): 120,000 random letters take milliseconds, not 10 s.
std::vector<std::int64_t> BytePairEncoding::encode_piece(std::string_view piece) const {
    const std::size_t n = piece.size(), none = piece.size();
    std::vector<std::int64_t> token(n);
    std::vector<std::size_t> next(n), prev(n);
    for (std::size_t i = 0; i < n; ++i) {
        token[i] = byte_token_[static_cast<unsigned char>(piece[i])];
        next[i] = i + 1;  // n: none
        prev[i] = i == 0 ? none : i - 1;
    }
    using Entry = std::pair<std::int64_t, std::size_t>;  // (rank, position of the pair's first token)
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    auto push = [&](std::size_t i) {
        if (i == none || next[i] == none) return;
        auto it = merge_of_pair_.find(pair_key(token[i], token[next[i]]));
        if (it != merge_of_pair_.end()) heap.push({it->second.rank, i});
    };
    for (std::size_t i = 0; i < n; ++i) push(i);
    std::vector<std::size_t> joined;
    while (!heap.empty()) {
        const std::int64_t rank = heap.top().first;
        const auto [a, b] = merges_[static_cast<std::size_t>(rank)];
        const std::int64_t merged = merge_of_pair_.at(pair_key(a, b)).merged;
        joined.clear();
        for (; !heap.empty() && heap.top().first == rank; heap.pop()) {  // by position: left to right
            const std::size_t i = heap.top().second;
            const std::size_t j = next[i];  // a token joined into its left neighbour is never listed again
            if (j == none || token[i] != a || token[j] != b) continue;  // stale, or taken by the join before
            token[i] = merged;
            next[i] = next[j];
            if (next[j] != none) prev[next[j]] = i;
            token[j] = -1;  // gone: no pair starts or ends here
            joined.push_back(i);
        }
        for (std::size_t i : joined) {
            push(prev[i]);
            push(i);
        }
    }
    std::vector<std::int64_t> ids;
    for (std::size_t i = 0; i < n; i = next[i]) ids.push_back(token[i]);
    return ids;
}

std::vector<std::int64_t> BytePairEncoding::encode(std::string_view text) const {
    std::vector<std::int64_t> ids;
    std::unordered_map<std::string_view, std::vector<std::int64_t>> seen;  // words repeat: merge each once
    for (std::string_view piece : pretokenize(text)) {
        auto it = seen.find(piece);
        if (it == seen.end()) it = seen.emplace(piece, encode_piece(piece)).first;
        ids.insert(ids.end(), it->second.begin(), it->second.end());
    }
    return ids;
}

std::string BytePairEncoding::decode(const std::vector<std::int64_t>& ids) const {
    std::string text;
    for (std::int64_t id : ids) {
        if (id < 0 || id >= vocab_size())
            throw DatasetError(fmt::format("tokenizer: id {} is outside the vocabulary [0, {})", id, vocab_size()));
        text += tokens_[static_cast<std::size_t>(id)];
    }
    return text;
}

}  // namespace data
