#pragma once
// Python's idea of whitespace (str.split() with no argument, str.strip()),
// which sacreBLEU's tokenisers inherit: the ASCII spaces \t \n \v \f \r and
// space, the separators \x1c-\x1f, and the Unicode spaces U+0085, U+00A0,
// U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace data {

bool is_python_space(char32_t c);

// The bytes of the whitespace character that starts at text[i] in UTF-8, or 0.
std::size_t python_space_at(std::string_view text, std::size_t i);

// text.split() in Python: the runs between whitespace, none empty.
std::vector<std::string> python_split(std::string_view text);

}  // namespace data
