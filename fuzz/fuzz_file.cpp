#include "fuzz/fuzz_file.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
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

void require_clean_rejection(const std::string& path, const std::function<void()>& load) {
    try {
        load();
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "std::bad_alloc: an allocation sized by an unchecked field\n");
        std::abort();
    } catch (const std::length_error&) {
        std::fprintf(stderr, "std::length_error: a size taken from the file unchecked\n");
        std::abort();
    } catch (const std::exception& e) {
        for (const char* c = e.what(); *c; ++c)
            if (static_cast<unsigned char>(*c) < 0x20 || *c == 0x7f) {
                std::fprintf(stderr, "an error message holds control byte 0x%02x: %s\n", *c, e.what());
                std::abort();
            }
        if (!std::strstr(e.what(), path.c_str())) {
            std::fprintf(stderr, "an error message does not name the file: %s\n", e.what());
            std::abort();
        }
    }
}

}  // namespace fuzz
