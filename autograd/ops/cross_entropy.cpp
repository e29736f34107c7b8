#include "autograd/ops/cross_entropy.h"

#include <cmath>

#include <fmt/format.h>

#include "autograd/graph.h"

namespace autograd {

// Per counted row, log p = log_softmax(logits) (stable), eps = label_smoothing:
//   loss_row = -(1 - eps) log p[t] - eps / C sum_c log p[c]
// loss = mean over rows whose target is not ignore_index (0 if none).
// dlogits_row = dy / count (softmax - (1 - eps) onehot(t) - eps / C); 0 for ignored rows.
Tensor cross_entropy(const Tensor& logits, const Tensor& target, std::int64_t ignore_index, double label_smoothing) {
    check_floating("cross_entropy", logits);
    check_dtype("cross_entropy", target, Dtype::int64, "target");
    if (logits.dim() < 1) throw ShapeError("cross_entropy: logits must be [..., C], got shape []");
    Shape rows_shape(logits.shape().begin(), logits.shape().end() - 1);
    if (target.shape() != rows_shape)
        throw ShapeError(fmt::format("cross_entropy: target {} must have the shape of logits {} without the last dim",
                                     shape_str(target.shape()), shape_str(logits.shape())));
    if (!(label_smoothing >= 0 && label_smoothing <= 1))
        throw ValueError(fmt::format("cross_entropy: label_smoothing {} is outside [0, 1]", label_smoothing));
    const std::int64_t C = logits.size(-1), rows = target.numel();
    const std::int64_t* t = target.data<std::int64_t>();
    std::int64_t count = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
        if (t[r] == ignore_index) continue;
        if (t[r] < 0 || t[r] >= C)
            throw IndexError(fmt::format("cross_entropy: target {} at position {} is outside [0, {})", t[r], r, C));
        ++count;
    }

    // Softmax rows are kept for the backward.
    Tensor probs = Tensor::empty(logits.shape(), logits.dtype());
    Tensor loss = Tensor::empty({}, logits.dtype());
    const double eps = label_smoothing;
    dispatch_floating(logits.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* x = logits.data<T>();
        T* p = probs.data<T>();
        double total = 0;
        for (std::int64_t r = 0; r < rows; ++r) {
            const T* xr = x + r * C;
            T* pr = p + r * C;
            T m = xr[0];
            for (std::int64_t c = 1; c < C; ++c) m = std::max(m, xr[c]);
            T s = 0;
            for (std::int64_t c = 0; c < C; ++c) {
                pr[c] = std::exp(xr[c] - m);
                s += pr[c];
            }
            const T lse = m + std::log(s);
            for (std::int64_t c = 0; c < C; ++c) pr[c] /= s;
            if (t[r] == ignore_index) continue;
            double sum_logp = 0;
            for (std::int64_t c = 0; c < C; ++c) sum_logp += xr[c] - lse;
            total += -(1 - eps) * (xr[t[r]] - lse) - eps / static_cast<double>(C) * sum_logp;
        }
        loss.data<T>()[0] = static_cast<T>(count > 0 ? total / static_cast<double>(count) : 0.0);
    });

    return record("cross_entropy", {logits}, loss, [probs, target, ignore_index, eps, count, C, rows](const Tensor& dy) {
        Tensor dx = zeros(probs.shape(), dy.dtype());
        if (count == 0) return std::vector{dx};
        const std::int64_t* tt = target.data<std::int64_t>();
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T scale = dy.data<T>()[0] / static_cast<T>(count);
            const T* p = probs.data<T>();
            T* q = dx.data<T>();
            const T smooth = static_cast<T>(eps / static_cast<double>(C));
            for (std::int64_t r = 0; r < rows; ++r) {
                if (tt[r] == ignore_index) continue;
                for (std::int64_t c = 0; c < C; ++c) q[r * C + c] = scale * (p[r * C + c] - smooth);
                q[r * C + tt[r]] -= scale * static_cast<T>(1 - eps);
            }
        });
        return std::vector{dx};
    });
}

}  // namespace autograd
