#pragma once
// Gradient check in float64 (docs/design.md, "Tests and benchmarks"; PyTorch's gradcheck convention):
// every element of every input that requires grad is moved by +-eps and the
// central difference (L(x+eps) - L(x-eps)) / 2eps is compared with the
// analytic gradient. L = sum(f(inputs) * w) with fixed random weights w, so a
// non-scalar output is checked along a direction that mixes every output
// element. An element passes when |analytic - numeric| <= atol + rtol |numeric|.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lectern/autograd/tensor.h"

namespace autograd {

struct GradcheckOptions {
    double eps = 1e-6;
    double atol = 1e-5;
    double rtol = 1e-3;
    std::uint64_t seed = 1234;  // of the output weights w
};

struct GradcheckReport {
    bool passed = true;
    std::int64_t elements_checked = 0;
    double max_abs_error = 0;  // over all checked elements
    double max_rel_error = 0;  // |a - n| / max(|n|, atol)
    // The worst element (largest excess over the tolerance):
    std::size_t worst_input = 0;
    Shape worst_index;
    double worst_analytic = 0;
    double worst_numeric = 0;
    std::string message() const;  // one line: where the worst element is and both values
};

// `inputs` must be float64; the ones that require grad are checked (in place:
// they are perturbed and restored, so a module's own parameters can be passed).
// `f` must return a float64 tensor computed from them.
GradcheckReport gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& f, const std::vector<Tensor>& inputs,
                          const GradcheckOptions& options = {});

}  // namespace autograd
