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

    std::uint64_t next_u64();
    double uniform();                        // [0, 1)
    double normal();                         // mean 0, variance 1
    std::int64_t randint(std::int64_t n);    // uniform in [0, n)

private:
    std::uint64_t s_[4];
    bool has_spare_ = false;
    double spare_ = 0;
};

// The generator used when none is passed (dropout in modules, initialisers).
Generator& default_generator();
void manual_seed(std::uint64_t seed);

}  // namespace autograd
