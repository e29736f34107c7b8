// Text of tokens' bytes made UTF-8: whole characters kept, each stray byte replaced.
#include <fmt/format.h>

#include "check.h"
#include "lectern/data/repair_utf8.h"

namespace {

std::string repaired(const std::string& bytes) {
    return data::repair_utf8(bytes, [](unsigned char b) { return fmt::format("<{:02X}>", b); });
}

}  // namespace

TEST_CASE("repair_utf8 keeps whole characters and replaces each byte of a broken one (worked by hand)", "[data]") {
    CHECK(repaired("a\xE2\x80\x99"
                   "b") ==
          "a\xE2\x80\x99"
          "b");                                   // a’b: U+2019 in three bytes
    CHECK(repaired("a\xE2\x80") == "a<E2><80>");  // cut short at the end
    CHECK(repaired("\xE2\x80"
                   "b") == "<E2><80>b");                // cut short before an ASCII byte
    CHECK(repaired("\x99x\xFF") == "<99>x<FF>");        // a stray continuation byte; no lead byte
    CHECK(repaired("\xC0\xAF") == "<C0><AF>");          // '/' in an overlong form
    CHECK(repaired("\xED\xA0\x80") == "<ED><A0><80>");  // a surrogate, U+D800
    CHECK(repaired("\xF0\x9F\x98\x80\xC3\xA9") == "\xF0\x9F\x98\x80\xC3\xA9");  // U+1F600 then é
    CHECK(repaired("") == "");
}
