#include "fuzz/fuzz_file.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace fuzz {

std::string write_scratch(const std::uint8_t* data, std::size_t size, int slot) {
    static const std::string dir = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    std::string path = dir + "/lectern-fuzz-" + std::to_string(getpid()) + "-" + std::to_string(slot);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) {
        std::perror(path.c_str());
        std::abort();
    }
    return path;
}

void require_one_printable_line(const char* message) {
    for (const char* c = message; *c; ++c) {
        if (static_cast<unsigned char>(*c) < 0x20 || *c == 0x7f) {
            std::fprintf(stderr, "an error message holds control byte 0x%02x: %s\n", *c, message);
            std::abort();
        }
    }
}

}  // namespace fuzz
