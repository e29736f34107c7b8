#pragma once
// The loaders read paths, as users call them: each fuzz input is written to
// one scratch file per process (in memory where /dev/shm exists).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace fuzz {

// Writes the bytes to this process's scratch file number `slot` and returns its path.
std::string write_scratch(const std::uint8_t* data, std::size_t size, int slot = 0);

// Runs `load` on the file at `path`. A clean rejection is a typed exception
// whose message is one printable line naming the file (names read from a file
// must reach the terminal escaped); anything else aborts, which libFuzzer
// reports as a finding: std::bad_alloc or std::length_error (an allocation
// sized by a field nobody checked), or a message that breaks those rules.
void require_clean_rejection(const std::string& path, const std::function<void()>& load);

}  // namespace fuzz
