#pragma once
// The loaders read paths, as users call them: each fuzz input is written to
// one scratch file per process (in memory where /dev/shm exists).
#include <cstddef>
#include <cstdint>
#include <string>

namespace fuzz {

// Writes the bytes to this process's scratch file number `slot` and returns its path.
std::string write_scratch(const std::uint8_t* data, std::size_t size, int slot = 0);

// Aborts (a finding) unless `message` is one printable line: names read from
// a file must reach the terminal escaped.
void require_one_printable_line(const char* message);

}  // namespace fuzz
