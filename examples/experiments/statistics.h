#pragma once
// What the experiments say of a number measured over several seeds: its mean and standard
// error, the difference of two arms, and whether a difference stands out of the noise.
//
// For n values x_i with mean m, the standard error is s / sqrt(n), s^2 = sum (x_i - m)^2 / (n - 1):
// how far the mean of n runs typically lies from the mean of infinitely many. Two arms trained
// from the same seeds (the same initialisation and the same batches where the arms allow it)
// are compared pair by pair: the standard error of the differences d_i = a_i - b_i, which the
// pairing frees of what the seeds do to both arms alike. A difference stands out when it is
// more than two standard errors from zero (about 95% for normal noise; with 3 seeds a lenient
// bar, Student's t would ask for 4.3). One value measures no noise, so it decides nothing.
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace run::experiments {

struct Estimate {
    double mean = std::nan(""), standard_error = std::nan("");  // the standard error is NaN for n < 2
    std::size_t n = 0;
};

inline Estimate estimate(const std::vector<double>& x) {
    Estimate e;
    e.n = x.size();
    if (x.empty()) return e;
    double sum = 0;
    for (double v : x) sum += v;
    e.mean = sum / static_cast<double>(x.size());
    if (x.size() < 2) return e;
    double squares = 0;
    for (double v : x) squares += (v - e.mean) * (v - e.mean);
    const auto n = static_cast<double>(x.size());
    e.standard_error = std::sqrt(squares / (n - 1) / n);
    return e;
}

// a_i - b_i, seed by seed; a and b must be as long.
inline Estimate paired_difference(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> d;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) d.push_back(a[i] - b[i]);
    return estimate(d);
}

// d exceeds `margin` by more than two standard errors: d.mean - 2 se > margin (never for n < 2).
inline bool exceeds(const Estimate& d, double margin = 0) {
    return d.n >= 2 && std::isfinite(d.standard_error) && d.mean - 2 * d.standard_error > margin;
}

// d lies within +-margin with two standard errors to spare: |d.mean| + 2 se <= margin (never for n < 2).
inline bool within(const Estimate& d, double margin) {
    return d.n >= 2 && std::isfinite(d.standard_error) && std::abs(d.mean) + 2 * d.standard_error <= margin;
}

// "0.412 +- 0.031", times `scale`; "0.412 (one seed)" when there is no standard error.
inline std::string pm(const Estimate& e, int decimals, double scale = 1) {
    if (!std::isfinite(e.standard_error)) return fmt::format("{:.{}f} (one seed)", scale * e.mean, decimals);
    return fmt::format("{:.{}f} +- {:.{}f}", scale * e.mean, decimals, scale * e.standard_error, decimals);
}

}  // namespace run::experiments
