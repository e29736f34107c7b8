#include "lectern/autograd/gradcheck.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/arithmetic.h"
#include "lectern/autograd/ops/reduce.h"
#include "lectern/autograd/random_factories.h"

namespace autograd {

std::string GradcheckReport::message() const {
    return fmt::format(
        "{}: {} elements, max abs error {:.3e}, max rel error {:.3e}; worst: input {} at {}: "
        "analytic {:.10g}, numeric {:.10g}",
        passed ? "passed" : "FAILED", elements_checked, max_abs_error, max_rel_error, worst_input,
        shape_str(worst_index), worst_analytic, worst_numeric);
}

namespace {

Shape unravel(std::int64_t flat, const Shape& shape) {
    Shape idx(shape.size());
    for (std::size_t i = shape.size(); i-- > 0;) {
        idx[i] = flat % shape[i];
        flat /= shape[i];
    }
    return idx;
}

}  // namespace

GradcheckReport gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& f, const std::vector<Tensor>& inputs,
                          const GradcheckOptions& opt) {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        check_defined("gradcheck", inputs[i]);
        if (is_floating(inputs[i].dtype()) && inputs[i].dtype() != Dtype::float64)
            throw DtypeError(fmt::format("gradcheck: input {} is {}; gradients are checked in float64", i,
                                         dtype_name(inputs[i].dtype())));
    }

    // Fixed output weights w, drawn once the output's shape is known.
    Tensor w;
    auto loss = [&](const std::vector<Tensor>& xs) {
        Tensor y = f(xs);
        check_dtype("gradcheck", y, Dtype::float64, "the function's output");
        if (!w.defined()) {
            Generator gen(opt.seed);
            w = uniform(y.shape(), 0.5, 1.5, gen, Dtype::float64);
        }
        return sum(mul(y, w));
    };

    for (const Tensor& x : inputs) {
        if (x.requires_grad()) const_cast<Tensor&>(x).zero_grad();
    }
    loss(inputs).backward();

    GradcheckReport report;
    double worst_excess = -INFINITY;
    NoGradGuard no_grad;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const Tensor& x = inputs[i];
        if (!x.requires_grad()) continue;
        Tensor analytic = x.grad();
        double* p = x.data<double>();
        for (std::int64_t k = 0; k < x.numel(); ++k) {
            const double saved = p[k];
            p[k] = saved + opt.eps;
            const double plus = loss(inputs).item();
            p[k] = saved - opt.eps;
            const double minus = loss(inputs).item();
            p[k] = saved;
            const double numeric = (plus - minus) / (2 * opt.eps);
            const double a = analytic.defined() ? analytic.data<double>()[k] : 0.0;
            const double abs_err = std::abs(a - numeric);
            const double excess = abs_err - (opt.atol + opt.rtol * std::abs(numeric));
            report.elements_checked += 1;
            report.max_abs_error = std::max(report.max_abs_error, abs_err);
            report.max_rel_error = std::max(report.max_rel_error, abs_err / std::max(std::abs(numeric), opt.atol));
            if (excess > 0 || std::isnan(a) || std::isnan(numeric)) report.passed = false;
            if (excess > worst_excess || std::isnan(excess)) {
                worst_excess = std::isnan(excess) ? INFINITY : excess;
                report.worst_input = i;
                report.worst_index = unravel(k, x.shape());
                report.worst_analytic = a;
                report.worst_numeric = numeric;
            }
        }
    }
    return report;
}

}  // namespace autograd
