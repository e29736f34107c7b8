#include "lectern/autograd/ops/smoothed_nll.h"

#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

// For a counted row r with target t, each class's weight (q above) is
//   q[t] = on,  q[zero_class] = 0,  q[c] = off otherwise,
// and the row's term is sum_c q[c] log_probs[r, c] over the classes with q[c] > 0.
// Backward, for counted rows (0 elsewhere):
//   dlog_probs[r, c] = -dloss q[c] / count.

struct Smoothing {
    double on, off;
    std::int64_t zero_class, ignore_index, classes;

    double weight(std::int64_t c, std::int64_t t) const { return c == t ? on : c == zero_class ? 0.0 : off; }
};

Tensor smoothed_nll_forward(const Tensor& log_probs, const Tensor& target, const Smoothing& s, std::int64_t count) {
    const std::int64_t C = s.classes, rows = target.numel();
    const std::int64_t* t = target.data<std::int64_t>();
    std::vector<double> row_sum(static_cast<std::size_t>(rows), 0.0);  // 0 for a row that does not count
    dispatch_floating(log_probs.dtype(), [&](auto zero) {
        using T = decltype(zero);
        parallel_for(rows, C, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r) {
                if (t[r] == s.ignore_index) continue;
                const T* lp = log_probs.data<T>() + r * C;
                double acc = 0;
                for (std::int64_t c = 0; c < C; ++c) {
                    const double q = s.weight(c, t[r]);
                    if (q > 0) acc += q * static_cast<double>(lp[c]);
                }
                row_sum[r] = acc;
            }
        });
    });
    double total = 0;  // in row order, whatever the threads
    for (double v : row_sum) total += v;
    return tensor({count > 0 ? -total / static_cast<double>(count) : 0.0}, {}, log_probs.dtype());
}

Tensor smoothed_nll_backward(const Tensor& dloss, const Shape& log_probs_shape, const Tensor& target,
                             const Smoothing& s, std::int64_t count) {
    Tensor dlp = zeros(log_probs_shape, dloss.dtype());
    if (count == 0) return dlp;
    const std::int64_t C = s.classes, rows = target.numel();
    const std::int64_t* t = target.data<std::int64_t>();
    dispatch_floating(dloss.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const double scale = -static_cast<double>(dloss.data<T>()[0]) / static_cast<double>(count);
        parallel_for(rows, C, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r) {
                if (t[r] == s.ignore_index) continue;
                T* d = dlp.data<T>() + r * C;
                for (std::int64_t c = 0; c < C; ++c) d[c] = static_cast<T>(scale * s.weight(c, t[r]));
            }
        });
    });
    return dlp;
}

// Checks the arguments; returns the number of rows that count.
std::int64_t check_smoothed_nll(const Tensor& log_probs, const Tensor& target, const Smoothing& s) {
    const std::int64_t count = check_class_targets("smoothed_nll", log_probs, "log_probs", target, s.ignore_index);
    if (!(s.on >= 0 && s.off >= 0))
        throw ValueError(fmt::format("smoothed_nll: weights on {} and off {} must be >= 0", s.on, s.off));
    return count;
}

}  // namespace

Tensor smoothed_nll(const Tensor& log_probs, const Tensor& target, double on, double off, std::int64_t zero_class,
                    std::int64_t ignore_index) {
    const std::int64_t classes = log_probs.defined() && log_probs.dim() > 0 ? log_probs.size(-1) : 0;
    const Smoothing s{on, off, zero_class, ignore_index, classes};
    const std::int64_t count = check_smoothed_nll(log_probs, target, s);
    Tensor loss = smoothed_nll_forward(log_probs, target, s, count);
    return record("smoothed_nll", {log_probs}, loss,
                  [shape = log_probs.shape(), target, s, count](const Tensor& dloss) {
                      return std::vector{smoothed_nll_backward(dloss, shape, target, s, count)};
                  });
}

}  // namespace autograd
