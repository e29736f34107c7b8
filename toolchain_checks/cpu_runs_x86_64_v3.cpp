// Exit 0 when this CPU can run x86-64-v3 code: AVX and AVX2 with the OS saving their
// registers, FMA, BMI1, BMI2, F16C, LZCNT and MOVBE. The configure step compiles it without
// -march, so it runs on any x86-64 CPU. Read from CPUID itself: GCC 12 knows the level's
// name in __builtin_cpu_supports, clang 14 neither the name nor F16C and MOVBE.
#include <cpuid.h>

namespace {
bool bit(unsigned reg, int n) { return (reg >> n) & 1u; }
}  // namespace

int main() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 1;
    // ECX of leaf 1: FMA 12, MOVBE 22, OSXSAVE 27, AVX 28, F16C 29.
    if (!(bit(c, 12) && bit(c, 22) && bit(c, 27) && bit(c, 28) && bit(c, 29))) return 1;
    // The OS saves the SSE and AVX state (XCR0 bits 1 and 2).
    unsigned xcr0_low = 0, xcr0_high = 0;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6u) != 6u) return 1;
    // EBX of leaf 7: BMI1 3, AVX2 5, BMI2 8.
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(bit(b, 3) && bit(b, 5) && bit(b, 8))) return 1;
    // ECX of leaf 0x80000001: LZCNT 5.
    if (!__get_cpuid(0x80000001u, &a, &b, &c, &d) || !bit(c, 5)) return 1;
    return 0;
}
