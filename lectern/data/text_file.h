#pragma once
// A text file read whole, within a bound.
#include <cstddef>
#include <string>

#include "lectern/data/idx.h"  // DatasetError

namespace data {

// A whole file as bytes; DatasetError naming the path if it cannot be read,
// if reading fails midway, or if it holds more than `max_bytes` (read no
// further, so an endless device is refused too; the message ends with `limit`,
// what the bound is).
std::string read_text_file(const std::string& path, std::size_t max_bytes = std::size_t{1} << 30,
                           const std::string& limit = "the most this program reads (--max-text-bytes)");

}  // namespace data
