#pragma once
// The one gate before a named input is opened. A path that exists and is not a
// regular file is refused: opening a FIFO waits for a writer, perhaps forever;
// a device reads without end; a folder reads nothing. Each reader throws the
// error type its callers catch, and every refusal reads alike:
//   "read_idx: cannot open /dev/zero: not a regular file"
// A path that does not exist passes: the open that follows says so.
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

namespace autograd {

template <class Error>
void require_regular_file(const std::filesystem::path& path, std::string_view reader) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        throw Error(
            fmt::format("{}{}cannot open {}: not a regular file", reader, reader.empty() ? "" : ": ", path.string()));
}

}  // namespace autograd
