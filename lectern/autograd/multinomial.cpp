#include "lectern/autograd/multinomial.h"

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"

namespace autograd {
namespace {

// One draw from w (sum `total` > 0): the first j with w_0 + ... + w_j > u total, u uniform in
// [0, 1). Rounding can leave u total at or past the last partial sum; then the last positive
// weight is drawn, so a zero weight is never drawn.
std::int64_t draw(const std::vector<double>& w, double total, Generator& gen) {
    const double target = gen.uniform() * total;
    double partial = 0;
    std::int64_t last_positive = 0;
    for (std::size_t j = 0; j < w.size(); ++j) {
        if (w[j] <= 0) continue;
        last_positive = static_cast<std::int64_t>(j);
        partial += w[j];
        if (partial > target) return last_positive;
    }
    return last_positive;
}

// The row's weights in double, checked: finite, >= 0, some positive (and enough of them
// when drawing without replacement).
std::vector<double> checked_row(const Tensor& weights, std::int64_t row, std::int64_t n, std::int64_t num_samples,
                                bool replacement) {
    std::vector<double> w(static_cast<std::size_t>(n));
    dispatch_floating(weights.dtype(), [&](auto zero) {
        const auto* p = weights.data<decltype(zero)>() + row * n;
        for (std::int64_t j = 0; j < n; ++j) w[static_cast<std::size_t>(j)] = static_cast<double>(p[j]);
    });
    const std::string where = weights.dim() == 2 ? fmt::format(" of row {}", row) : "";
    std::int64_t positive = 0;
    for (std::int64_t j = 0; j < n; ++j) {
        const double v = w[static_cast<std::size_t>(j)];
        if (!std::isfinite(v) || v < 0)
            throw ValueError(
                fmt::format("multinomial: weight {}{} is {}; weights must be finite and >= 0", j, where, v));
        positive += v > 0;
    }
    if (positive == 0)
        throw ValueError(fmt::format("multinomial: the weights{} are all zero; at least one must be positive", where));
    if (!replacement && num_samples > positive)
        throw ValueError(
            fmt::format("multinomial: {} samples without replacement, but the weights{} have only {} "
                        "positive; draw at most {} or pass replacement = true",
                        num_samples, where, positive, positive));
    return w;
}

}  // namespace

Tensor multinomial(const Tensor& weights, std::int64_t num_samples, bool replacement, Generator& gen) {
    check_floating("multinomial", weights);
    if (weights.dim() != 1 && weights.dim() != 2)
        throw ShapeError(
            fmt::format("multinomial: weights must be [n] or [rows, n], got {}", shape_str(weights.shape())));
    if (num_samples < 0) throw ValueError(fmt::format("multinomial: num_samples {} is negative", num_samples));
    const std::int64_t rows = weights.dim() == 2 ? weights.size(0) : 1, n = weights.size(-1);
    Tensor out = Tensor::empty(weights.dim() == 2 ? Shape{rows, num_samples} : Shape{num_samples}, Dtype::int64);
    std::int64_t* po = out.data<std::int64_t>();
    for (std::int64_t r = 0; r < rows; ++r) {
        std::vector<double> w = checked_row(weights, r, n, num_samples, replacement);
        double total = 0;
        for (double v : w) total += v;
        if (!std::isfinite(total))  // u * total would be infinite, and every draw the last category
            throw ValueError(fmt::format("multinomial: the weights{} sum past the largest double; scale them down",
                                         weights.dim() == 2 ? fmt::format(" of row {}", r) : ""));
        for (std::int64_t s = 0; s < num_samples; ++s) {
            const std::int64_t j = draw(w, total, gen);
            po[r * num_samples + s] = j;
            if (!replacement) {  // the drawn category leaves the row; the total is summed again, not decremented
                w[static_cast<std::size_t>(j)] = 0;
                total = 0;
                for (double v : w) total += v;
            }
        }
    }
    return out;
}

}  // namespace autograd
