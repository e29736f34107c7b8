#pragma once
// Text printed as a model generates it: each token's bytes go to stdout at
// once, flushed, except the end of a UTF-8 character that a byte-level token
// split (a BPE token may hold the first bytes of a character and the next
// token the rest): those bytes wait for the rest, so a terminal never shows a
// half character. finish() prints what is left, complete or not. The tokens
// come from a vocabulary file, so what reaches the terminal is made safe:
// control bytes other than a newline and a tab (ESC, a carriage return, the C1
// controls) are written \xNN, so a crafted token cannot clear the screen or
// forge a line.
#include <string>
#include <string_view>

namespace run {

class StreamedText {
public:
    void add(std::string_view bytes);
    void finish();

    // The length of the part of `bytes` that ends on a character boundary:
    // all of it, unless it ends inside a UTF-8 character that more bytes could
    // complete (a lead byte and fewer continuation bytes than it announces).
    static std::size_t complete_prefix(std::string_view bytes);

    // `bytes` with every control byte but '\n' and '\t' (C0, DEL, and the C1
    // controls, U+0080..U+009F as UTF-8) written \xNN; letters of any script
    // and malformed bytes stay as they are.
    static std::string terminal_safe(std::string_view bytes);

private:
    std::string held_;
};

}  // namespace run
