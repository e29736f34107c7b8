#include "lectern/autograd/blas_core.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "lectern/autograd/printable.h"

namespace autograd {

int blas_core_level(const std::string& core) {
    // OpenBLAS 0.3's x86-64 core names, by the widest vectors their kernels use.
    constexpr std::array<std::string_view, 4> avx512 = {"SkylakeX", "Cooperlake", "SapphireRapids", "Zen4"};
    constexpr std::array<std::string_view, 4> avx2 = {"Haswell", "Zen", "Excavator", "Steamroller"};
    constexpr std::array<std::string_view, 3> avx = {"Sandybridge", "Bulldozer", "Piledriver"};
    for (auto name : avx512)
        if (core == name) return 3;
    for (auto name : avx2)
        if (core == name) return 2;
    for (auto name : avx)
        if (core == name) return 1;
    return 0;
}

// The levels are x86's, and so are the compiler's builtins that ask the CPU for them:
// another CPU (WebAssembly's, an ARM laptop's) has none of them, level 0.
int cpu_vector_level() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
        return 3;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 2;
    if (__builtin_cpu_supports("avx")) return 1;
#endif
    return 0;
}

std::string best_blas_core() {
    if (!blas_is_openblas()) return "";
    const int level = cpu_vector_level();
    return level == 3 ? "SkylakeX" : level == 2 ? "Haswell" : "";
}

std::string blas_core_warning() {
    if (!blas_is_openblas()) return "";
    const std::string core = blas_core_name();
    // OpenBLAS ignores a name it has no kernels for, and runs those it picks for the CPU: a run
    // that asked for others, to repeat another's bits, would silently not get them.
    const auto same_letter = [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    };
    if (const char* asked = std::getenv("OPENBLAS_CORETYPE");
        asked && *asked && !std::equal(asked, asked + std::strlen(asked), core.begin(), core.end(), same_letter))
        return fmt::format(
            "OPENBLAS_CORETYPE={} names no kernels this OpenBLAS runs here: it runs {}, and a run's "
            "bits depend on the kernels",
            printable(asked, 64), core);
    if (cpu_vector_level() < 2 || blas_core_level(core) >= 2) return "";
    return fmt::format(
        "OpenBLAS runs its {} kernels on a CPU with AVX2, about a third of its speed for matrix "
        "products: run with OPENBLAS_CORETYPE=Haswell, or add --blas-core auto (the program restarts "
        "itself with it set)",
        core);
}

}  // namespace autograd
