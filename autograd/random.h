#pragma once
// A seeded generator that gives the same numbers on every machine: xoshiro256**
// seeded by splitmix64, uniform doubles from the top 53 bits, normals by
// Box-Muller. (std::normal_distribution differs between standard libraries.)
#include <cstdint>

namespace autograd {

class Generator {
public:
    explicit Generator(std::uint64_t seed = 0) { manual_seed(seed); }
    void manual_seed(std::uint64_t seed);

    std::uint64_t next_u64();                // inline below
    double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }  // [0, 1)
    double normal();                         // mean 0, variance 1
    std::int64_t randint(std::int64_t n);    // uniform in [0, n)

private:
    std::uint64_t s_[4];
    bool has_spare_ = false;
    double spare_ = 0;
};

// xoshiro256** (Blackman and Vigna).
inline std::uint64_t Generator::next_u64() {
    auto rotl = [](std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

// SplitMix64's output function (Steele, Lea and Flood): a bijection of 64 bits that mixes well.
inline std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// Element i of the counter-based stream keyed by `key` (SplitMix64's sequence from `key`).
// Each element is computed on its own, so a kernel draws a tensor's elements in parallel,
// in any order, with the same result; dropout keys one stream per call with gen.next_u64().
inline std::uint64_t stream_u64(std::uint64_t key, std::uint64_t i) {
    return mix64(key + (i + 1) * 0x9e3779b97f4a7c15ULL);
}

// The generator used when none is passed (dropout in modules, initialisers).
Generator& default_generator();
void manual_seed(std::uint64_t seed);

}  // namespace autograd
