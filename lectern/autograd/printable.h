#pragma once
// Text that came from a file or a flag (a tensor's name in a checkpoint or a
// safetensors header, a token of a vocabulary, a recorded flag), made safe to
// put in a message for the terminal: a control byte (C0, DEL, and the C1
// controls U+0080..U+009F), a byte of malformed UTF-8, or a backslash is
// written \xNN, so an escape sequence cannot clear the screen or forge a line
// and a NUL cannot cut the message short; letters of any script stay as they
// are. At most `max` bytes are shown, then how many there were.
#include <cstddef>
#include <string>
#include <string_view>

namespace autograd {

std::string printable(std::string_view text, std::size_t max = 80);

}  // namespace autograd
