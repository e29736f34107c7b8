// An op of the user's own, written with Lectern's public headers only, and its
// backward checked by the float64 gradient check as Lectern checks its own ops.
//   swish(x) = x sigmoid(x);  dx = dy (s + x s (1 - s)),  s = sigmoid(x)
// The same op with a wrong backward (the second term forgotten) must fail the check.
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "lectern/autograd/autograd.h"

using autograd::Tensor;

// y = f(x) elementwise, split over Lectern's threads (so the result does not depend
// on their number), in x's floating dtype.
template <class F>
Tensor elementwise(const Tensor& x, F f) {
    Tensor y = Tensor::empty(x.shape(), x.dtype());
    autograd::dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* px = x.data<T>();
        T* py = y.data<T>();
        autograd::parallel_for(x.numel(), 1, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) py[i] = f(px[i]);
        });
    });
    return y;
}

// The check first, the forward, then the backward beside it (docs/autograd.md).
Tensor swish(const Tensor& x, bool forget_second_term = false) {
    autograd::check_floating("swish", x);
    Tensor y = elementwise(x, [](auto v) { return v / (1 + std::exp(-v)); });
    return autograd::record("swish", {x}, y, [x, forget_second_term](const Tensor& dy) {
        const Tensor s = autograd::sigmoid(x);
        const Tensor derivative = forget_second_term ? s : s + x * s * (1.0 - s);
        return std::vector{dy * derivative};
    });
}

int main() {
    autograd::Generator gen(3);
    const Tensor x = autograd::randn({4, 5}, gen, autograd::Dtype::float64).requires_grad_();
    const Tensor y = swish(x);
    fmt::print("swish of {} values: first {:.6f} (x = {:.6f})\n", x.numel(), y.to_vector()[0], x.to_vector()[0]);

    const auto right = autograd::gradcheck([](const std::vector<Tensor>& in) { return swish(in[0]); }, {x});
    fmt::print("swish: gradcheck {} ({} elements, largest error {:.2e})\n", right.passed ? "passed" : "FAILED",
               right.elements_checked, right.max_abs_error);
    const auto wrong = autograd::gradcheck([](const std::vector<Tensor>& in) { return swish(in[0], true); }, {x});
    fmt::print("swish with a wrong backward: gradcheck {}: {}\n", wrong.passed ? "passed" : "failed", wrong.message());
    return right.passed && !wrong.passed ? 0 : 1;
}
