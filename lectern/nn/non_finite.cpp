#include "lectern/nn/non_finite.h"

#include <cmath>

#include <fmt/format.h>

namespace nn {
namespace {

// "NaN" or "an infinity" for the first non-finite element of t, or nullptr.
const char* non_finite(const autograd::Tensor& t) {
    return autograd::dispatch_floating(t.dtype(), [&](auto zero) -> const char* {
        const auto* p = t.data<decltype(zero)>();
        for (std::int64_t i = 0, n = t.numel(); i < n; ++i)
            if (!std::isfinite(p[i])) return std::isnan(p[i]) ? "NaN" : "an infinity";
        return nullptr;
    });
}

const char* describe(double v) { return std::isnan(v) ? "NaN" : v > 0 ? "+inf" : "-inf"; }

}  // namespace

void check_finite_loss(double loss, std::int64_t step) {
    if (!std::isfinite(loss)) throw NonFiniteError(fmt::format("step {}: the loss is {}", step, describe(loss)));
}

void check_finite_gradients(const Module& module, std::int64_t step) {
    for (const auto& [name, p] : module.named_parameters()) {
        if (!p.grad().defined()) continue;
        if (const char* what = non_finite(p.grad()))
            throw NonFiniteError(fmt::format("step {}: the gradient of '{}' {} holds {}", step, name,
                                             autograd::shape_str(p.shape()), what));
    }
}

void check_finite_parameters(const Module& module, const std::function<std::string(const std::string&)>& name_in_file) {
    for (const auto& [name, p] : module.named_parameters()) {
        const char* what = non_finite(p);
        if (!what) continue;
        if (name_in_file) throw NonFiniteError(fmt::format("'{}' holds {}", name_in_file(name), what));
        throw NonFiniteError(fmt::format("'{}' {} holds {}", name, autograd::shape_str(p.shape()), what));
    }
}

}  // namespace nn
