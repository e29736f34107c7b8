#include "lectern/plot/log_axis.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace plot {

namespace {

// A power of ten as 10^k.
std::string power_label(double value) { return fmt::format("10#u{}#d", std::lround(std::log10(value))); }

// A value as a tick label: plain digits from 0.001 to 99999, else m x 10^k.
std::string label(double value) {
    if (value >= 1e-3 && value < 1e5) return fmt::format("{}", std::stod(fmt::format("{:.3g}", value)));
    const int k = static_cast<int>(std::floor(std::log10(value) + 1e-9));
    const double m = value / std::pow(10.0, k);
    if (std::abs(m - 1) < 1e-6) return fmt::format("10#u{}#d", k);
    return fmt::format("{:.2g}×10#u{}#d", m, k);
}

// The values m x 10^k in lo..hi (log10) for each mantissa m.
std::vector<double> at_mantissas(double lo, double hi, const std::vector<double>& mantissas) {
    std::vector<double> out;
    for (int k = static_cast<int>(std::floor(lo)) - 1; k <= static_cast<int>(std::ceil(hi)); ++k)
        for (double m : mantissas) {
            const double v = m * std::pow(10.0, k);
            if (std::log10(v) >= lo - 1e-9 && std::log10(v) <= hi + 1e-9) out.push_back(v);
        }
    return out;
}

// Steps of 1, 2 or 5 x 10^k between 10^lo and 10^hi, at least three of them.
std::vector<double> linear_steps(double lo, double hi) {
    const double a = std::pow(10.0, lo), b = std::pow(10.0, hi);
    double step = std::pow(10.0, std::floor(std::log10(b - a)));
    for (double shrink : {1.0, 0.5, 0.4, 0.5, 0.5, 0.4, 0.5})  // 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01 of the decade
        if (step *= shrink; (b - a) / step >= 3) break;
    std::vector<double> out;
    for (double v = std::ceil(a / step) * step; v <= b * (1 + 1e-12); v += step) out.push_back(v);
    return out;
}

}  // namespace

LogAxis log_axis(double lo, double hi) {
    const double pad = 0.04 * std::max(hi - lo, 0.5);  // a single value gets a tenth of a decade each side
    LogAxis axis{lo - pad, hi + pad, {}};
    const double span = axis.hi - axis.lo;
    std::vector<double> major, minor;
    const bool powers = span >= 2 && at_mantissas(axis.lo, axis.hi, {1}).size() >= 3;
    if (powers) {
        const int every = static_cast<int>(std::ceil(span / 8));  // at most about 8 labelled decades
        for (double v : at_mantissas(axis.lo, axis.hi, {1}))
            if (static_cast<int>(std::lround(std::log10(v))) % every == 0) major.push_back(v);
        if (span <= 6) minor = at_mantissas(axis.lo, axis.hi, {2, 3, 4, 5, 6, 7, 8, 9});
    } else {
        major = at_mantissas(axis.lo, axis.hi, {1, 2, 5});
        minor = at_mantissas(axis.lo, axis.hi, {3, 4, 6, 7, 8, 9});
        if (major.size() < 3) major = at_mantissas(axis.lo, axis.hi, {1, 2, 3, 4, 5, 6, 7, 8, 9}), minor.clear();
        if (major.size() < 3) major = linear_steps(axis.lo, axis.hi);
    }
    for (double v : major) axis.ticks.push_back({std::log10(v), powers ? power_label(v) : label(v)});
    for (double v : minor) axis.ticks.push_back({std::log10(v), ""});
    return axis;
}

}  // namespace plot
