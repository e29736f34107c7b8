// autograd::printable: what a file or a flag says, safe for the terminal.
#include "check.h"

using namespace autograd;

TEST_CASE("printable escapes controls, malformed UTF-8 and the backslash, and keeps letters", "[errors]") {
    CHECK(printable("w_q.weight") == "w_q.weight");
    CHECK(printable("\x1b[2Jcleared") == "\\x1b[2Jcleared");  // ESC: an escape sequence, shown
    CHECK(printable(std::string("a\0b", 3)) == "a\\x00b");    // a NUL does not cut the message
    CHECK(printable("line\nforged") == "line\\x0aforged");
    CHECK(printable("back\\slash") == "back\\x5cslash");  // so \x5c and \\x5c cannot be confused
    CHECK(printable("caf\xc3\xa9 \xe2\x80\x99 \xf0\x9f\x98\x80") ==
          "caf\xc3\xa9 \xe2\x80\x99 \xf0\x9f\x98\x80");  // é ’ 😀
    CHECK(printable("\xc2\x9b"
                    "31m") == "\\xc2\\x9b31m");             // U+009B, the 8-bit CSI: a control
    CHECK(printable("\xff\xfe") == "\\xff\\xfe");           // not UTF-8
    CHECK(printable("\xc3") == "\\xc3");                    // a sequence cut short
    CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
    CHECK(printable("\x7f") == "\\x7f");
    CHECK(printable("abcdef", 3) == "abc... (6 bytes)");
}
