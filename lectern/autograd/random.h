#pragma once
// A seeded generator that gives the same numbers on every machine: xoshiro256**
// seeded by splitmix64, uniform doubles from the top 53 bits, normals by
// Box-Muller. (std::normal_distribution differs between standard libraries.)
#include <array>
#include <cstdint>

namespace autograd {

class Generator {
public:
    explicit Generator(std::uint64_t seed = 0) { manual_seed(seed); }
    void manual_seed(std::uint64_t seed);

    std::uint64_t next_u64();                                                       // inline below
    double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }  // [0, 1)
    double normal();                                                                // mean 0, variance 1
    std::int64_t randint(std::int64_t n);                                           // uniform in [0, n)

    // Everything the next numbers depend on, as six words (the four of
    // xoshiro's state, then Box-Muller's spare normal and whether it is held),
    // so a run that saves and restores it draws the same numbers as one that
    // never stopped.
    using State = std::array<std::uint64_t, 6>;
    State state() const;
    void set_state(const State& state);

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

// A bijective hash of 32 bits whose every output bit depends on every input bit (Wellons'
// "lowbias32", found by his hash-prospector). Its multiplies are 32-bit, which AVX2 does
// eight at a time.
inline std::uint32_t hash32(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// Element i of the counter-based stream keyed by `key`: two rounds of hash32, keyed by the
// key's two halves. Each element is computed on its own, so a kernel draws a tensor's
// elements in parallel, in any order, with the same result; dropout keys one stream per
// call with gen.next_u64(). (Two keys with the same high half give shifted copies of one
// stream: for keys drawn at random, one pair of calls in 2^32.)
inline std::uint32_t stream_u32(std::uint64_t key, std::uint64_t i) {
    const auto lo = static_cast<std::uint32_t>(key), hi = static_cast<std::uint32_t>(key >> 32);
    return hash32(hash32(static_cast<std::uint32_t>(i) + lo) ^ hi ^ static_cast<std::uint32_t>(i >> 32));
}

// The generator used when none is passed (dropout in modules, initialisers).
Generator& default_generator();
void manual_seed(std::uint64_t seed);

}  // namespace autograd
