#include "benchmarks/machine_info.h"

#include <cblas.h>
#include <unistd.h>

#include <fstream>

#include <fmt/format.h>

#ifndef LECTERN_ISA
#define LECTERN_ISA "compiler default"
#endif

namespace benchmarks {

namespace {

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(line.find_first_not_of(' ', colon + 1));
        }
    return "unknown CPU";
}

std::string compiler() {
#if defined(__clang__)
    return fmt::format("clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
    return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
    return "unknown compiler";
#endif
}

}  // namespace

std::string machine_line() {
    const int parallel = openblas_get_parallel();  // 0 sequential, 1 pthreads, 2 OpenMP
    return fmt::format("{}, {} cores online | {} ({}) | {} | {}", cpu_model(), sysconf(_SC_NPROCESSORS_ONLN),
                       openblas_get_config(), parallel == 2 ? "OpenMP" : parallel == 1 ? "pthreads" : "sequential",
                       compiler(), LECTERN_ISA);
}

}  // namespace benchmarks
