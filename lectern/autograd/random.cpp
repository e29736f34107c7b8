#include "lectern/autograd/random.h"

#include <bit>
#include <cmath>
#include <numbers>

#include "lectern/autograd/errors.h"

namespace autograd {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

void Generator::manual_seed(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& s : s_) s = splitmix64(x);
    has_spare_ = false;
}

Generator::State Generator::state() const {
    return {s_[0], s_[1], s_[2], s_[3], has_spare_ ? 1u : 0u, std::bit_cast<std::uint64_t>(spare_)};
}

void Generator::set_state(const State& state) {
    if (state[0] == 0 && state[1] == 0 && state[2] == 0 && state[3] == 0)
        throw ValueError("Generator::set_state: xoshiro256** cannot leave the all-zero state");
    if (state[4] > 1) throw ValueError("Generator::set_state: the spare flag must be 0 or 1");
    for (int i = 0; i < 4; ++i) s_[i] = state[static_cast<std::size_t>(i)];
    has_spare_ = state[4] == 1;
    spare_ = std::bit_cast<double>(state[5]);
}

double Generator::normal() {
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    double u1 = 1.0 - uniform();  // (0, 1]: log is finite
    double u2 = uniform();
    double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = r * std::sin(2.0 * std::numbers::pi * u2);
    has_spare_ = true;
    return r * std::cos(2.0 * std::numbers::pi * u2);
}

std::int64_t Generator::randint(std::int64_t n) {
    if (n <= 0) throw ValueError("randint: n must be positive");
    // Rejection sampling keeps every value equally likely.
    std::uint64_t un = static_cast<std::uint64_t>(n);
    std::uint64_t limit = UINT64_MAX - UINT64_MAX % un;
    std::uint64_t x;
    do x = next_u64();
    while (x >= limit);
    return static_cast<std::int64_t>(x % un);
}

Generator& default_generator() {
    static Generator g(0);
    return g;
}

void manual_seed(std::uint64_t seed) { default_generator().manual_seed(seed); }

}  // namespace autograd
