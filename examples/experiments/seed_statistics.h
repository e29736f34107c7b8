#pragma once
// What a comparison over seeds reports: the mean of the runs and its standard error, the
// sample standard deviation over sqrt(runs) (0 for one run).
#include <cmath>
#include <vector>

namespace run::experiments {

struct MeanSE {
    double mean = 0, se = 0;
};

inline MeanSE mean_se(const std::vector<double>& v) {
    MeanSE r;
    if (v.empty()) return {std::nan(""), std::nan("")};
    for (double x : v) r.mean += x;
    r.mean /= static_cast<double>(v.size());
    if (v.size() < 2) return r;
    double ss = 0;
    for (double x : v) ss += (x - r.mean) * (x - r.mean);
    r.se = std::sqrt(ss / static_cast<double>(v.size() - 1) / static_cast<double>(v.size()));
    return r;
}

}  // namespace run::experiments
