// A character corpus's alphabet (lectern/data/char_vocab.h): code points in order, text to ids and back.
#include "check.h"
#include "lectern/data/char_vocab.h"

using namespace autograd;

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

TEST_CASE("UTF-8 bytes encode straight to ids; a character outside the alphabet is named with its byte", "[data]") {
    const std::string text =
        "b\xC3\xA9"
        "a\nb";  // b é a \n b
    data::CharVocab v = data::CharVocab::of_utf8(text);
    CHECK(v.chars() == std::u32string{U'\n', U'a', U'b', 0xE9});
    data::TokenIds ids = v.encode_utf8_text(text);
    REQUIRE(ids.size() == 5);
    CHECK(std::vector<std::int64_t>{ids[0], ids[1], ids[2], ids[3], ids[4]} ==
          std::vector<std::int64_t>{2, 3, 1, 0, 2});
    CHECK_THROWS_WITH(v.encode_utf8_text("ab\tc"),
                      Catch::Contains("the character '\\t' at byte 2 is not in the alphabet"));
    CHECK_THROWS_WITH(data::CharVocab::of_utf8("ab\x80"), Catch::Contains("at byte 2"));
    CHECK(data::CharVocab::from_alphabet(v.chars()).chars() == v.chars());
    CHECK_THROWS_WITH(data::CharVocab::from_alphabet(U"ba"), Catch::Contains("distinct code points in order"));
}
