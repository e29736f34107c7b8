// The character corpus: UTF-8 decoding, the alphabet, the fortunes' clean-up, windows.
#include <filesystem>
#include <fstream>

#include "check.h"
#include "lectern/data/char_corpus.h"

using namespace autograd;

TEST_CASE("UTF-8 decodes to code points and encodes back: 1-, 2-, 3- and 4-byte characters", "[data]") {
    std::string bytes = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x99\x82";  // a, é, €, 🙂
    std::u32string text = data::decode_utf8(bytes);
    CHECK(text == std::u32string{U'a', 0xE9, 0x20AC, 0x1F642});
    CHECK(data::encode_utf8(text) == bytes);
}

TEST_CASE("malformed UTF-8 is a DatasetError naming the byte", "[errors]") {
    CHECK_THROWS_WITH(data::decode_utf8("ab\x80"), Catch::Contains("at byte 2"));         // a stray continuation byte
    CHECK_THROWS_WITH(data::decode_utf8("a\xC3"), Catch::Contains("at byte 1"));          // truncated
    CHECK_THROWS_AS(data::decode_utf8("\xC0\xAF"), data::DatasetError);                   // overlong '/'
    CHECK_THROWS_AS(data::decode_utf8("\xED\xA0\x80"), data::DatasetError);               // a surrogate
    CHECK_THROWS_AS(data::decode_utf8("\xF4\x90\x80\x80"), data::DatasetError);           // past U+10FFFF
}

TEST_CASE("the alphabet is the text's distinct characters in code-point order", "[data]") {
    data::CharVocab v = data::CharVocab::of_utf8("hello, w\xC3\xB6rld");
    CHECK(v.size() == 10);  // ' ' ',' d e h l o r w ö
    std::vector<std::int64_t> ids = v.encode(U"hello");
    CHECK(ids == std::vector<std::int64_t>{4, 3, 5, 5, 6});
    CHECK(v.decode(ids) == U"hello");
    CHECK(v.encode(U"ö") == std::vector<std::int64_t>{9});
    CHECK_THROWS_WITH(v.encode(U"x"), Catch::Contains("'x' (U+0078) is not in the text's alphabet"));
    CHECK_THROWS_AS(v.decode({10}), IndexError);
}

TEST_CASE("fortunes: files joined by a '%' line, overstrikes and bells removed", "[data]") {
    const std::string dir = "char_corpus_test_fortunes";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const std::string& name : data::kFortuneFiles) {
        std::ofstream out(dir + "/" + name);
        if (name == "computers") out << "no ____\b\b\b\bmore\a bugs\n%\nsecond\n";
        if (name == "cookie") out << "third\n";
    }
    CHECK(data::read_fortunes(dir) == "no more bugs\n%\nsecond\n%\nthird\n");
    std::filesystem::remove(dir + "/zippy");
    CHECK_THROWS_WITH(data::read_fortunes(dir), Catch::Contains("apt-get install fortunes"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("text batches are windows and their next characters", "[data]") {
    data::TokenIds ids(7);
    for (std::int64_t i = 0; i < 9; ++i) ids.push_back(i % 7);
    data::TokenSpan text{&ids, 1, 8};  // the ids 1 .. 6, 0
    data::TextBatch b = data::text_batch(text, {0, 3}, 3);
    require_values(b.inputs, {1, 2, 3, 4, 5, 6}, 0);
    require_values(b.targets, {2, 3, 4, 5, 6, 0}, 0);
    CHECK_THROWS_AS(data::text_batch(text, {5}, 3), IndexError);  // needs text[5 .. 9)
}

TEST_CASE("token ids take one byte for a small alphabet, two or four for larger ones, and read back", "[data]") {
    for (auto [alphabet, width] : {std::pair<std::int64_t, std::size_t>{256, 1}, {257, 2}, {65536, 2}, {65537, 4}}) {
        data::TokenIds ids(alphabet);
        CHECK(ids.bytes_per_id() == width);
        for (std::int64_t id : {std::int64_t{0}, alphabet / 2, alphabet - 1}) ids.push_back(id);
        CHECK(ids.size() == 3);
        CHECK(ids[0] == 0);
        CHECK(ids[1] == alphabet / 2);
        CHECK(ids[2] == alphabet - 1);
    }
}

TEST_CASE("UTF-8 bytes encode straight to ids; a character outside the alphabet is named with its byte", "[data]") {
    const std::string text = "b\xC3\xA9" "a\nb";  // b é a \n b
    data::CharVocab v = data::CharVocab::of_utf8(text);
    CHECK(v.chars() == std::u32string{U'\n', U'a', U'b', 0xE9});
    data::TokenIds ids = v.encode_utf8_text(text);
    REQUIRE(ids.size() == 5);
    CHECK(std::vector<std::int64_t>{ids[0], ids[1], ids[2], ids[3], ids[4]} == std::vector<std::int64_t>{2, 3, 1, 0, 2});
    CHECK_THROWS_WITH(v.encode_utf8_text("ab\tc"), Catch::Contains("the character '\\t' at byte 2 is not in the alphabet"));
    CHECK_THROWS_WITH(data::CharVocab::of_utf8("ab\x80"), Catch::Contains("at byte 2"));
    CHECK(data::CharVocab::from_alphabet(v.chars()).chars() == v.chars());
    CHECK_THROWS_WITH(data::CharVocab::from_alphabet(U"ba"), Catch::Contains("distinct code points in order"));
}

TEST_CASE("a character in a message is shown on one line", "[data]") {
    CHECK(data::describe_char(U'\n') == "'\\n'");
    CHECK(data::describe_char(7) == "U+0007");
    CHECK(data::describe_char(0xE9) == "'\xC3\xA9' (U+00E9)");
}

TEST_CASE("a text file is read whole, and one over the bound is refused", "[data][errors]") {
    const std::string path = "char_corpus_test_bound.txt";
    std::ofstream(path) << std::string(3000, 'x');
    CHECK(data::read_text_file(path).size() == 3000);
    CHECK_THROWS_WITH(data::read_text_file(path, 2999), Catch::Contains("holds more than 2999 bytes"));
    CHECK_THROWS_WITH(data::read_text_file("/dev/zero", 1 << 20), Catch::Contains("holds more than 1048576 bytes"));
    std::filesystem::remove(path);
    CHECK_THROWS_WITH(data::read_text_file(path), Catch::Contains("cannot read " + path));
}
