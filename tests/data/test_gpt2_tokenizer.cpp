// GPT-2's byte-level BPE: the same ids as the reference encoder, an exact
// round trip for any bytes, and train_bpe on a corpus worked by hand.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "lectern/data/byte_pair_encoding.h"
#include "lectern/data/idx.h"
#include "lectern/data/pretokenize.h"
#include "lectern/data/train_bpe.h"
#include "temp_files.h"

using data::BytePairEncoding;

namespace {

const BytePairEncoding& gpt2() {
    static const BytePairEncoding bpe = BytePairEncoding::from_directory(LECTERN_GPT2_TOKENIZER_DIR);
    return bpe;
}

std::vector<std::string> pieces(std::string_view text) {
    std::vector<std::string> out;
    for (auto p : data::pretokenize(text)) out.emplace_back(p);
    return out;
}

}  // namespace

TEST_CASE("GPT-2's pattern keeps a word's leading space and leaves a run's last space to the next word", "[data]") {
    CHECK(pieces("Hello world") == std::vector<std::string>{"Hello", " world"});
    CHECK(pieces("a   b") == std::vector<std::string>{"a", "  ", " b"});
    CHECK(pieces("I'll pay 42 $!!") == std::vector<std::string>{"I", "'ll", " pay", " 42", " $!!"});
    CHECK(pieces("x \n") == std::vector<std::string>{"x", " \n"});
    CHECK(pieces("caf\xc3\xa9 \xff\xfe ok") == std::vector<std::string>{"caf\xc3\xa9", " ", "\xff\xfe", " ok"});
}

TEST_CASE("the GPT-2 byte map sends space to U+0120 and '!' to itself", "[data]") {
    CHECK(data::byte_to_code_point()[' '] == U'\u0120');
    CHECK(data::byte_to_code_point()['!'] == U'!');
    CHECK(data::byte_to_code_point()[0] == U'\u0100');
    CHECK(data::byte_to_code_point()[0xAD] == U'\u0143');  // the soft hyphen, the last non-printable byte
}

TEST_CASE("GPT-2's tokenizer gives the reference encoder's ids on 309 fortunes and hand-picked strings", "[data]") {
    std::ifstream in(std::string(LECTERN_REFERENCE_DIR) + "/gpt2_token_ids.json");
    REQUIRE(in);
    auto cases = nlohmann::json::parse(in);
    REQUIRE(cases.size() == 309);
    std::size_t tokens = 0;
    for (const auto& c : cases) {
        auto text = c["text"].get<std::string>();
        auto want = c["ids"].get<std::vector<std::int64_t>>();
        auto got = gpt2().encode(text);
        INFO("text: " << text);
        REQUIRE(got == want);
        REQUIRE(gpt2().decode(got) == text);
        tokens += got.size();
    }
    CHECK(tokens == 12241);
}

namespace {

// encode_piece's definition, as slowly as it reads: rescan the piece for the adjacent pair of lowest
// rank, join it everywhere left to right, until no pair has a merge.
std::vector<std::int64_t> rescanned(const BytePairEncoding& bpe, std::string_view piece) {
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> rank;
    for (std::size_t r = 0; r < bpe.merges().size(); ++r) rank.emplace(bpe.merges()[r], static_cast<std::int64_t>(r));
    std::map<std::string, std::int64_t> id_of;
    for (std::int64_t id = 0; id < bpe.vocab_size(); ++id) id_of.emplace(bpe.token(id), id);
    std::vector<std::int64_t> word;
    for (char c : piece) word.push_back(id_of.at(std::string(1, c)));
    for (;;) {
        std::int64_t best = -1;
        for (std::size_t i = 0; i + 1 < word.size(); ++i)
            if (auto it = rank.find({word[i], word[i + 1]}); it != rank.end() && (best < 0 || it->second < best))
                best = it->second;
        if (best < 0) return word;
        auto [a, b] = bpe.merges()[static_cast<std::size_t>(best)];
        std::vector<std::int64_t> merged;
        for (std::size_t i = 0; i < word.size();) {
            bool join = i + 1 < word.size() && word[i] == a && word[i + 1] == b;
            merged.push_back(join ? id_of.at(bpe.token(a) + bpe.token(b)) : word[i]);
            i += join ? 2 : 1;
        }
        word = merged;
    }
}

}  // namespace

// Long pieces (a prompt of one 120,000-letter word once took 10 s), runs of one letter ("aaa": the
// first two join), and merges whose ranks do not follow the order their tokens were made in.
TEST_CASE("encode_piece joins by rank as rescanning the piece does, on long pieces too", "[data]") {
    std::mt19937 gen(3);
    std::vector<std::string> long_pieces = {std::string(1001, 'a'), std::string(2000, ' ')};
    for (const char* letters : {"abcdefghijklmnopqrstuvwxyz", "ab", "eh"}) {
        std::string p;
        for (int i = 0; i < 3000; ++i) p += letters[gen() % std::strlen(letters)];
        long_pieces.push_back(p);
    }
    for (const std::string& p : long_pieces) {
        INFO("a piece of " << p.size() << " bytes beginning " << p.substr(0, 8));
        CHECK(gpt2().encode_piece(p) == rescanned(gpt2(), p));
    }
    // "aaa" made before "aa", which it is built from: the rounds still follow the ranks.
    std::vector<std::string> tokens;
    for (int b = 0; b < 256; ++b) tokens.emplace_back(1, static_cast<char>(b));
    tokens.insert(tokens.end(), {"aa", "aaa", "aaaa"});
    const BytePairEncoding odd(tokens, {{256, 'a'}, {'a', 'a'}, {256, 256}, {'a', 256}});
    for (int n = 1; n <= 40; ++n) {
        INFO(n << " letters a");
        CHECK(odd.encode_piece(std::string(static_cast<std::size_t>(n), 'a')) ==
              rescanned(odd, std::string(static_cast<std::size_t>(n), 'a')));
    }
    // Merges learnt from pieces of a and b, then pieces of a and b encoded with them.
    std::string ab;
    for (int i = 0; i < 4000; ++i) ab += i % 9 == 0 ? ' ' : "ab"[gen() % 2];
    const BytePairEncoding learnt = data::train_bpe(ab, 400);
    for (int k = 0; k < 200; ++k) {
        std::string p;
        for (unsigned i = 0, n = 1 + gen() % 60; i < n; ++i) p += "ab"[gen() % 2];
        INFO("the piece " << p);
        CHECK(learnt.encode_piece(p) == rescanned(learnt, p));
    }
    std::string letters;
    for (int i = 0; i < 120000; ++i) letters += static_cast<char>('a' + gen() % 26);
    CHECK(gpt2().decode(gpt2().encode(letters)) == letters);  // 10 s when each round rescanned the piece
}

TEST_CASE("GPT-2's tokenizer reads the Hugging Face naming too: vocab.json and merges.txt", "[io]") {
    const testing::TempDir temp("hf-tokenizer");
    const std::filesystem::path& dir = temp.path;
    std::filesystem::copy_file(std::string(LECTERN_GPT2_TOKENIZER_DIR) + "/encoder.json", dir / "vocab.json",
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(std::string(LECTERN_GPT2_TOKENIZER_DIR) + "/vocab.bpe", dir / "merges.txt",
                               std::filesystem::copy_options::overwrite_existing);
    auto hf = BytePairEncoding::from_directory(dir);
    CHECK(hf.vocab_size() == 50257);
    CHECK(hf.merges().size() == 50000);
    CHECK(hf.encode("Hello world") == std::vector<std::int64_t>{15496, 995});
}

TEST_CASE("encode then decode gives back any bytes, invalid UTF-8 included", "[data]") {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        std::string bytes(rng() % 64, '\0');
        for (auto& b : bytes) b = static_cast<char>(trial % 2 ? rng() % 256 : " aé\xff\xc3'1\n"[rng() % 9]);
        auto ids = gpt2().encode(bytes);
        REQUIRE(gpt2().decode(ids) == bytes);
    }
    CHECK(gpt2().decode(gpt2().encode(std::string("\0\x80\xc3(", 4))) == std::string("\0\x80\xc3(", 4));
}

TEST_CASE("a malformed tokenizer file gets a one-line error naming the line", "[data][errors]") {
    const testing::TempDir temp("bad-tokenizer");
    const std::filesystem::path& dir = temp.path;
    std::ofstream(dir / "vocab.json") << R"({"a": 0})";
    std::ofstream(dir / "merges.txt") << "#version: 0.2\n";
    CHECK_THROWS_WITH(BytePairEncoding::from_directory(dir), Catch::Contains("byte 0x00 is not a token"));
    std::ofstream(dir / "vocab.json") << "{not json";
    CHECK_THROWS_WITH(BytePairEncoding::from_directory(dir), Catch::Contains("is not JSON"));
    CHECK_THROWS_WITH(gpt2().decode({50257}), Catch::Contains("id 50257 is outside the vocabulary [0, 50257)"));
}

TEST_CASE("a tokenizer file that is a FIFO or a folder is refused before it is opened", "[data][errors]") {
    // Opening a FIFO that no process writes would wait for a writer for ever.
    const testing::TempDir dir("bpe-fifo");
    const auto vocab = dir.path / "vocab.json", merges = dir.path / "merges.txt";
    testing::write_all(merges.string(), "#version: 0.2\n");
    auto error = [&](const std::string&) {
        try {
            BytePairEncoding::from_directory(dir.path);
        } catch (const data::DatasetError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    CHECK(testing::from_a_fifo(vocab.string(), error) ==
          "tokenizer: cannot open " + vocab.string() + ": not a regular file");
    std::filesystem::remove(vocab);
    testing::write_all(vocab.string(), "{}");
    std::filesystem::remove(merges);
    CHECK(testing::from_a_fifo(merges.string(), error) ==
          "tokenizer: cannot open " + merges.string() + ": not a regular file");
    std::filesystem::remove(merges);
    std::filesystem::create_directory(merges);
    CHECK(error("") == "tokenizer: cannot open " + merges.string() + ": not a regular file");
}

TEST_CASE("a vocab.json naming a token twice, nesting, or too large to be one is refused", "[data][errors]") {
    const testing::TempDir dir("bpe-vocab");
    const auto vocab = dir.path / "vocab.json", merges = dir.path / "merges.txt";
    testing::write_all(merges.string(), "#version: 0.2\n");
    // The parser keeps the last id of a token named twice: "a" would be 1, and id 0 no token.
    testing::write_all(vocab.string(), R"({"a": 0, "a": 1})");
    CHECK_THROWS_WITH(BytePairEncoding::from_files(vocab, merges),
                      "tokenizer: " + vocab.string() + ": token \"a\" is given twice");
    testing::write_all(vocab.string(), R"({"a": {"b": 0}})");
    CHECK_THROWS_WITH(BytePairEncoding::from_files(vocab, merges),
                      "tokenizer: " + vocab.string() + ": a token's id is an object or an array, not an integer");
    // As an endless device would be: 16 MB and a byte, read no further than the bound.
    testing::write_all(vocab.string(), "");
    std::filesystem::resize_file(vocab, (std::size_t{16} << 20) + 1);  // sparse: no disk taken
    CHECK_THROWS_WITH(BytePairEncoding::from_files(vocab, merges),
                      vocab.string() +
                          " holds more than 16777216 bytes, more than a tokenizer's file needs (GPT-2's "
                          "vocab.json is 1 MB)");
    std::filesystem::resize_file(merges, (std::size_t{16} << 20) + 1);
    testing::write_all(vocab.string(), "{}");
    CHECK_THROWS_WITH(BytePairEncoding::from_files(vocab, merges),
                      Catch::StartsWith(merges.string() + " holds more than"));
}

// The corpus "aaabdaaabac" (one piece) worked by hand, ties to the smaller pair:
//   pairs aa:4 ab:2 bd:1 da:1 ba:1 ac:1            -> merge (a, a) = 256
//   Z a b d Z a b a c: Za:2 ab:2, the rest 1; (97, 98) < (256, 97) -> merge (a, b) = 257
//   Z Y d Z Y a c: ZY:2, the rest 1                -> merge (256, 257) = 258 "aaab"
TEST_CASE("train_bpe learns aa, ab, then aaab on \"aaabdaaabac\", and is deterministic", "[data]") {
    auto bpe = data::train_bpe("aaabdaaabac", 259);
    REQUIRE(bpe.merges() == std::vector<std::pair<std::int64_t, std::int64_t>>{{97, 97}, {97, 98}, {256, 257}});
    CHECK(bpe.token(258) == "aaab");
    CHECK(bpe.encode("aaabdaaabac") == std::vector<std::int64_t>{258, 'd', 258, 'a', 'c'});
    CHECK(data::train_bpe("aaabdaaabac", 259).merges() == bpe.merges());
    // Pieces never merge across a space: " aa" counts ' a' once per occurrence.
    auto spaced = data::train_bpe("aa aa aa", 257);
    CHECK(spaced.merges() == std::vector<std::pair<std::int64_t, std::int64_t>>{{97, 97}});
    CHECK_THROWS_WITH(data::train_bpe("x", 255), Catch::Contains("vocab_size 255 < 256"));
}

namespace {

// train_bpe's definition, as slowly as it reads: every step recounts every adjacent pair of every
// distinct piece and merges the most frequent (ties: the smaller pair) everywhere.
std::vector<std::pair<std::int64_t, std::int64_t>> recounted_merges(std::string_view text, std::int64_t vocab_size) {
    std::map<std::string_view, std::int64_t> piece_count;
    for (std::string_view piece : data::pretokenize(text)) ++piece_count[piece];
    std::vector<std::pair<std::vector<std::int64_t>, std::int64_t>> words;
    for (const auto& [piece, count] : piece_count)
        words.push_back({std::vector<std::int64_t>(piece.begin(), piece.end()), count});
    for (auto& w : words)
        for (auto& id : w.first) id = static_cast<unsigned char>(id);
    std::vector<std::string> tokens;
    std::map<std::string, std::int64_t> id_of;
    for (int b = 0; b < 256; ++b) tokens.emplace_back(1, static_cast<char>(b)), id_of[tokens.back()] = b;
    std::vector<std::pair<std::int64_t, std::int64_t>> merges;
    while (static_cast<std::int64_t>(tokens.size()) < vocab_size) {
        std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> pair_count;
        for (const auto& [word, count] : words)
            for (std::size_t i = 0; i + 1 < word.size(); ++i) pair_count[{word[i], word[i + 1]}] += count;
        if (pair_count.empty()) break;
        auto best = pair_count.begin();
        for (auto it = pair_count.begin(); it != pair_count.end(); ++it)
            if (it->second > best->second) best = it;
        auto [a, b] = best->first;
        auto [at, is_new] = id_of.emplace(tokens[a] + tokens[b], static_cast<std::int64_t>(tokens.size()));
        if (is_new) tokens.push_back(at->first);
        merges.emplace_back(a, b);
        for (auto& [word, count] : words) {
            std::vector<std::int64_t> merged;
            for (std::size_t i = 0; i < word.size();) {
                bool join = i + 1 < word.size() && word[i] == a && word[i + 1] == b;
                merged.push_back(join ? at->second : word[i]);
                i += join ? 2 : 1;
            }
            word = merged;
        }
    }
    return merges;
}

}  // namespace

// The text mixes words drawn from a few syllables (many ties, repeated letters as in "aaa", merges
// that rebuild bytes another pair already made) and runs of bytes that are not UTF-8.
TEST_CASE("train_bpe's kept counts make the merges of recounting every pair at every step", "[data]") {
    std::mt19937 gen(5);
    const std::vector<std::string> syllables = {"a", "aa", "ab", "ba", "the", "he", "t", "\xC3\xA9", "\xFF", "s"};
    std::string text;
    for (int w = 0; w < 3000; ++w) {
        text += gen() % 4 == 0 ? "\n" : " ";
        for (unsigned s = 0, n = 1 + gen() % 4; s < n; ++s) text += syllables[gen() % syllables.size()];
    }
    for (std::int64_t vocab : {256, 300, 700, 5000}) {
        INFO("vocab_size " << vocab);
        auto merges = data::train_bpe(text, vocab).merges();
        CHECK(merges == recounted_merges(text, vocab));
        if (vocab == 5000) CHECK(merges.size() < 5000 - 256);  // the text runs out of pairs first
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> told;
    auto bpe =
        data::train_bpe(text, 300, [&](std::int64_t made, std::int64_t wanted) { told.emplace_back(made, wanted); });
    REQUIRE(told.size() == 44);
    CHECK(told.front() == std::pair<std::int64_t, std::int64_t>{1, 44});
    CHECK(told.back() == std::pair<std::int64_t, std::int64_t>{44, 44});
}

TEST_CASE("a trained tokenizer saved in GPT-2's format reads back the same", "[io]") {
    std::string corpus = "the cat sat on the mat; the cat's hat. ";
    auto bpe = data::train_bpe(corpus + corpus, 300);
    const testing::TempDir temp("trained-tokenizer");
    const std::filesystem::path& dir = temp.path;
    bpe.save(dir / "vocab.json", dir / "merges.txt");
    auto back = BytePairEncoding::from_directory(dir);
    CHECK(back.merges() == bpe.merges());
    CHECK(back.encode(corpus) == bpe.encode(corpus));
    CHECK(back.decode(back.encode(corpus)) == corpus);
}
