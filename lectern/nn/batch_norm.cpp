#include "lectern/nn/batch_norm.h"

#include <fmt/format.h>

namespace nn {

using namespace autograd;

BatchNorm1d::BatchNorm1d(std::int64_t d, double eps_, double momentum_, bool affine) : eps(eps_), momentum(momentum_) {
    if (d < 1) throw ValueError(fmt::format("BatchNorm1d: width {} must be positive", d));
    if (!(eps_ >= 0) || !(momentum_ >= 0 && momentum_ <= 1))
        throw ValueError(fmt::format("BatchNorm1d: needs eps >= 0 and 0 <= momentum <= 1, got eps {}, momentum {}",
                                     eps_, momentum_));
    if (affine) {
        gamma = register_parameter("gamma", ones({d}));
        beta = register_parameter("beta", zeros({d}));
    }
    running_mean = register_buffer("running_mean", zeros({d}), /*persistent=*/true);
    running_var = register_buffer("running_var", ones({d}), /*persistent=*/true);
}

Tensor BatchNorm1d::forward(const Tensor& x, const Tensor& mask) const {
    check_floating("BatchNorm1d", x);
    const std::int64_t D = running_mean.size(0);
    if ((x.dim() != 2 && x.dim() != 3) || x.size(-1) != D)
        throw ShapeError(
            fmt::format("BatchNorm1d: x must be [B, {0}] or [B, T, {0}], got {1}", D, shape_str(x.shape())));
    if (mask.defined() && (x.dim() != 3 || mask.shape() != Shape{x.size(0), x.size(1)}))
        throw ShapeError(fmt::format("BatchNorm1d: the mask must be [B, T] for x [B, T, D], got mask {} for x {}",
                                     shape_str(mask.shape()), shape_str(x.shape())));
    if (mask.defined()) {
        for (double m : mask.to_vector())
            if (m != 0 && m != 1)
                throw ValueError(
                    fmt::format("BatchNorm1d: the mask {} must hold 1 at a real position and 0 at a pad, "
                                "found {}",
                                shape_str(mask.shape()), m));
    }
    const std::int64_t N = x.numel() / D;
    Tensor a = reshape(x, {N, D});  // one row per position
    Tensor a_hat;
    if (is_training()) {
        Tensor m = mask.defined() ? reshape(mask.to(x.dtype()), {N, 1}) : Tensor();  // [N, 1]
        const double n = m.defined() ? sum(m).item() : static_cast<double>(N);
        if (n < 2)
            throw ValueError(
                fmt::format("BatchNorm1d: training needs 2 or more rows to take a variance over, got {} "
                            "(x {})",
                            n, shape_str(x.shape())));
        Tensor mu = (m.defined() ? sum(a * m, 0, true) : sum(a, 0, true)) / n;  // [1, D]
        Tensor c = a - mu;
        Tensor v = (m.defined() ? sum(c * c * m, 0, true) : sum(c * c, 0, true)) / n;  // biased: divides by n
        a_hat = c / sqrt(v + eps);
        NoGradGuard no_grad;
        Tensor rm = running_mean, rv = running_var;  // handles on the buffers' storage
        rm.copy_(rm * (1 - momentum) + reshape(mu.detach(), {D}) * momentum);
        rv.copy_(rv * (1 - momentum) + reshape(v.detach(), {D}) * (momentum * n / (n - 1)));
    } else {
        a_hat = (a - running_mean) / sqrt(running_var + eps);
    }
    Tensor y = gamma.defined() ? gamma * a_hat + beta : a_hat;
    return reshape(y, x.shape());
}

}  // namespace nn
