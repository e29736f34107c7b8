#include "lectern/autograd/anomaly.h"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "lectern/autograd/errors.h"
#include "lectern/autograd/shape.h"

namespace autograd {
namespace {

thread_local bool t_anomaly = false;

struct NonFinite {
    bool nan = false, inf = false;
    bool any() const { return nan || inf; }
    const char* what() const { return nan ? "NaN" : "an infinity"; }
};

NonFinite scan(const Tensor& t) {
    NonFinite f;
    if (!t.defined() || !is_floating(t.dtype())) return f;
    dispatch_floating(t.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* p = t.data<T>();
        for (std::int64_t i = 0, n = t.numel(); i < n; ++i) {
            f.nan = f.nan || std::isnan(p[i]);
            f.inf = f.inf || std::isinf(p[i]);
        }
    });
    return f;
}

std::string shapes_of(const std::vector<Tensor>& ts) {
    std::string s;
    for (const Tensor& t : ts) s += (s.empty() ? "" : ", ") + (t.defined() ? shape_str(t.shape()) : std::string("-"));
    return s;
}

}  // namespace

AnomalyGuard::AnomalyGuard() : previous_(t_anomaly) { t_anomaly = true; }
AnomalyGuard::~AnomalyGuard() { t_anomaly = previous_; }

bool anomaly_enabled() { return t_anomaly; }

void check_forward_anomaly(const char* op, const std::vector<Tensor>& inputs, const Tensor& out, AnomalyCheck check) {
    NonFinite in_all;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        NonFinite f = scan(inputs[i]);
        // A tensor no checked op made: a parameter, or data from outside. Only
        // a NaN is damning there; -inf masks built without grad are fine.
        const bool outside = inputs[i].defined() && !inputs[i].impl()->grad_fn;
        if (outside && (f.nan || (f.inf && inputs[i].requires_grad())))
            throw AnomalyError(
                fmt::format("anomaly: input {} of '{}' {}, {}, holds {}", i, op, shape_str(inputs[i].shape()),
                            inputs[i].requires_grad() ? "a parameter" : "data from outside the graph", f.what()));
        in_all.nan = in_all.nan || f.nan;
        in_all.inf = in_all.inf || f.inf;
    }
    NonFinite f = scan(out);
    if (check == AnomalyCheck::no_nan) f.inf = false;
    // Blame the op that made the first NaN (or infinity), not those passing it on.
    const bool made_nan = f.nan && !in_all.nan;
    const bool made_inf = f.inf && !in_all.any();
    if (made_nan || made_inf)
        throw AnomalyError(fmt::format("anomaly: '{}' produced {} in its output {} from inputs {}{}", op,
                                       made_nan ? "NaN" : "an infinity", shape_str(out.shape()), shapes_of(inputs),
                                       in_all.any() ? " (which hold infinities)" : " (all finite)"));
}

void check_backward_anomaly(const char* op, const std::vector<Tensor>& inputs, const Tensor& dy,
                            const std::vector<Tensor>& dx) {
    NonFinite upstream = scan(dy);
    for (std::size_t i = 0; i < dx.size(); ++i) {
        NonFinite f = scan(dx[i]);
        if ((f.nan && !upstream.nan) || (f.inf && !upstream.any()))
            throw AnomalyError(
                fmt::format("anomaly: the backward of '{}' produced {} in the gradient of input {} {} (inputs {}; "
                            "output gradient {}{})",
                            op, f.nan ? "NaN" : "an infinity", i, shape_str(inputs[i].shape()), shapes_of(inputs),
                            shape_str(dy.shape()), upstream.any() ? ", which holds infinities" : ", finite"));
    }
}

}  // namespace autograd
