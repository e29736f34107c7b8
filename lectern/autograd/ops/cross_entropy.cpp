#include "lectern/autograd/ops/cross_entropy.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/parallel.h"
#include "lectern/autograd/reference/cross_entropy.h"

namespace autograd {
namespace {

// Cross-entropy of each row z of the logits [rows, C] against its target t, with
// p = softmax(z) and label smoothing eps (PyTorch's label_smoothing), row by row in
// reference::cross_entropy_row (reference/cross_entropy.h), which both types run:
//   loss_row = -(1 - eps) log p[t] - eps / C sum_c log p[c],
//   loss = mean of loss_row over the `count` rows whose t is not ignore_index (0 if none).
// Backward, for a counted row (0 for an ignored one):
//   dz = dloss / count (p - (1 - eps) onehot(t) - eps / C).

// The loss and the rows of p, which the backward reuses.
struct CrossEntropyForward {
    Tensor loss;   // []
    Tensor probs;  // the logits' shape
};

CrossEntropyForward cross_entropy_forward(const Tensor& logits, const Tensor& target, std::int64_t ignore_index,
                                          double eps, std::int64_t count) {
    const std::int64_t C = logits.size(-1), rows = target.numel();
    const std::int64_t* t = target.data<std::int64_t>();
    CrossEntropyForward out{Tensor::empty({}, logits.dtype()), Tensor::empty(logits.shape(), logits.dtype())};
    std::vector<double> row_loss(static_cast<std::size_t>(rows), 0.0);  // 0 for an ignored row
    dispatch_floating(logits.dtype(), [&](auto zero) {
        using T = decltype(zero);
        parallel_for(rows, 8 * C, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r) {
                const T* z = logits.data<T>() + r * C;
                T* p = out.probs.data<T>() + r * C;
                const double loss = reference::cross_entropy_row(z, C, t[r] == ignore_index ? 0 : t[r], eps, p);
                if (t[r] != ignore_index) row_loss[r] = loss;
            }
        });
        double total = 0;  // summed in row order, whatever the threads
        for (std::int64_t r = 0; r < rows; ++r) total += row_loss[r];
        out.loss.data<T>()[0] = static_cast<T>(count > 0 ? total / static_cast<double>(count) : 0.0);
    });
    return out;
}

Tensor cross_entropy_backward(const Tensor& dloss, const Tensor& probs, const Tensor& target, std::int64_t ignore_index,
                              double eps, std::int64_t count) {
    if (count == 0) return zeros(probs.shape(), dloss.dtype());
    // Every row is written once, here: a counted row by the formula, an ignored one with zeros.
    Tensor dz = Tensor::empty(probs.shape(), dloss.dtype());
    const std::int64_t C = probs.size(-1), rows = target.numel();
    const std::int64_t* t = target.data<std::int64_t>();
    dispatch_floating(dloss.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T scale = dloss.data<T>()[0] / static_cast<T>(count);
        parallel_for(rows, 2 * C, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r) {
                T* dz_row = dz.data<T>() + r * C;
                if (t[r] == ignore_index) std::fill(dz_row, dz_row + C, T(0));
                else reference::cross_entropy_row_backward(probs.data<T>() + r * C, C, t[r], eps, scale, dz_row);
            }
        });
    });
    return dz;
}

// Checks the arguments; returns the number of rows whose target is not ignored.
std::int64_t check_cross_entropy(const Tensor& logits, const Tensor& target, std::int64_t ignore_index,
                                 double label_smoothing) {
    const std::int64_t count = check_class_targets("cross_entropy", logits, "logits", target, ignore_index);
    if (!(label_smoothing >= 0 && label_smoothing <= 1))
        throw ValueError(fmt::format("cross_entropy: label_smoothing {} is outside [0, 1]", label_smoothing));
    return count;
}

}  // namespace

Tensor cross_entropy(const Tensor& logits, const Tensor& target, std::int64_t ignore_index, double label_smoothing) {
    const std::int64_t count = check_cross_entropy(logits, target, ignore_index, label_smoothing);
    CrossEntropyForward f = cross_entropy_forward(logits, target, ignore_index, label_smoothing, count);
    return record("cross_entropy", {logits}, f.loss,
                  [probs = f.probs, target, ignore_index, label_smoothing, count](const Tensor& dloss) {
                      return std::vector{
                          cross_entropy_backward(dloss, probs, target, ignore_index, label_smoothing, count)};
                  });
}

}  // namespace autograd
