#include "lectern/data/text_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>

namespace data {

std::string read_text_file(const std::string& path, std::size_t max_bytes, const std::string& limit) {
    std::error_code ec;  // a regular file's size is known before a byte is read; a device's or a pipe's is not
    if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) > max_bytes && !ec)
        throw DatasetError(fmt::format("{} holds more than {} bytes, {}", path, max_bytes, limit));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DatasetError(fmt::format("cannot read {}: {}", path, std::strerror(errno)));
    std::string text;
    std::vector<char> chunk(std::size_t{1} << 20);
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (text.size() + got > max_bytes)
            throw DatasetError(fmt::format("{} holds more than {} bytes, {}", path, max_bytes, limit));
        text.append(chunk.data(), got);
    }
    if (in.bad())
        throw DatasetError(
            fmt::format("reading {} failed after {} bytes: {}", path, text.size(), std::strerror(errno)));
    return text;
}

}  // namespace data
