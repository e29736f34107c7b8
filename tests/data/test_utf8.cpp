// UTF-8 (lectern/data/utf8.h): decoding, encoding, malformed bytes named, a character in a message.
#include <string>

#include "check.h"
#include "lectern/data/utf8.h"

using namespace autograd;

TEST_CASE("UTF-8 decodes to code points and encodes back: 1-, 2-, 3- and 4-byte characters", "[data]") {
    std::string bytes = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x99\x82";  // a, é, €, 🙂
    std::u32string text = data::decode_utf8(bytes);
    CHECK(text == std::u32string{U'a', 0xE9, 0x20AC, 0x1F642});
    CHECK(data::encode_utf8(text) == bytes);
}

TEST_CASE("malformed UTF-8 is a DatasetError naming the byte", "[errors]") {
    CHECK_THROWS_WITH(data::decode_utf8("ab\x80"), Catch::Contains("at byte 2"));  // a stray continuation byte
    CHECK_THROWS_WITH(data::decode_utf8("a\xC3"), Catch::Contains("at byte 1"));   // truncated
    CHECK_THROWS_AS(data::decode_utf8("\xC0\xAF"), data::DatasetError);            // overlong '/'
    CHECK_THROWS_AS(data::decode_utf8("\xED\xA0\x80"), data::DatasetError);        // a surrogate
    CHECK_THROWS_AS(data::decode_utf8("\xF4\x90\x80\x80"), data::DatasetError);    // past U+10FFFF
}

TEST_CASE("a character in a message is shown on one line", "[data]") {
    CHECK(data::describe_char(U'\n') == "'\\n'");
    CHECK(data::describe_char(7) == "U+0007");
    CHECK(data::describe_char(0xE9) == "'\xC3\xA9' (U+00E9)");
}
