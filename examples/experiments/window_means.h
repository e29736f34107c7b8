#pragma once
// A training curve drawn as the means of consecutive windows of `width` points:
// one point per window, at the window's mean x. Per-step losses jump from batch
// to batch; the means show the trend, and a figure of a few hundred points
// stays small.
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "lectern/plot/figure.h"

namespace run::experiments {

inline plot::Curve window_means(std::string name, const std::vector<double>& x, const std::vector<double>& y,
                                std::size_t width) {
    plot::Curve c{std::move(name), {}, {}, false};
    for (std::size_t start = 0; start < x.size(); start += width) {
        const std::size_t end = std::min(x.size(), start + width);
        double sx = 0, sy = 0;
        for (std::size_t i = start; i < end; ++i) sx += x[i], sy += y[i];
        c.x.push_back(sx / static_cast<double>(end - start));
        c.y.push_back(sy / static_cast<double>(end - start));
    }
    return c;
}

}  // namespace run::experiments
