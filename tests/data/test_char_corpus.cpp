// The character corpus: UTF-8 decoding, the alphabet, the fortunes' clean-up, windows.
#include <filesystem>
#include <fstream>

#include "check.h"
#include "data/char_corpus.h"

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
    data::CharVocab v(U"hello, wörld");
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
    std::vector<std::int64_t> ids{0, 1, 2, 3, 4, 5, 6};
    data::TextBatch b = data::text_batch(ids, {0, 3}, 3);
    require_values(b.inputs, {0, 1, 2, 3, 4, 5}, 0);
    require_values(b.targets, {1, 2, 3, 4, 5, 6}, 0);
    CHECK_THROWS_AS(data::text_batch(ids, {4}, 3), IndexError);  // needs ids[4 .. 8)
}
