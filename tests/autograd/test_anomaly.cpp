// Anomaly mode (AnomalyGuard): the first op that makes a NaN or an infinity is
// named, with its shapes, in the forward and in the backward.
#include <limits>

#include "check.h"

using namespace autograd;

namespace {

// The message of the AnomalyError that f throws ("" if it throws none).
template <class F>
std::string anomaly_message(F&& f) {
    try {
        f();
    } catch (const AnomalyError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("anomaly mode names the op whose forward made the first NaN, not the ops passing it on", "[anomaly]") {
    Tensor x = tensor({1, -1, 2}, {3}, Dtype::float64).requires_grad_();
    AnomalyGuard anomaly;
    std::string msg = anomaly_message([&] { sum(exp(log(x) * 2.0)); });
    CHECK(msg == "anomaly: 'log' produced NaN in its output [3] from inputs [3] (all finite)");
}

TEST_CASE("anomaly mode names the op whose forward made an infinity", "[anomaly]") {
    Tensor x = tensor({0.5, 0.0}, {2}, Dtype::float64).requires_grad_();
    AnomalyGuard anomaly;
    CHECK(anomaly_message([&] { log(x); }) ==
          "anomaly: 'log' produced an infinity in its output [2] from inputs [2] (all finite)");
}

TEST_CASE("anomaly mode names the op whose backward made the first bad gradient", "[anomaly]") {
    Tensor x = tensor({4, 0}, {2}, Dtype::float64).requires_grad_();
    Tensor loss = sum(sqrt(x) * 3.0);  // forward finite: sqrt(0) = 0; backward 1 / (2 sqrt(0)) = inf
    AnomalyGuard anomaly;
    std::string msg = anomaly_message([&] { loss.backward(); });
    CHECK(msg ==
          "anomaly: the backward of 'sqrt' produced an infinity in the gradient of input 0 [2] "
          "(inputs [2]; output gradient [2], finite)");
}

TEST_CASE("anomaly mode names a parameter that already holds NaN", "[anomaly]") {
    Tensor w = tensor({1, std::numeric_limits<double>::quiet_NaN()}, {2}, Dtype::float64).requires_grad_();
    AnomalyGuard anomaly;
    CHECK(anomaly_message([&] { w * 2.0; }) == "anomaly: input 0 of 'mul' [2], a parameter, holds NaN");
}

TEST_CASE("anomaly mode accepts masked_fill's deliberate -inf and what follows from it", "[anomaly]") {
    Tensor x = tensor({1, 2, 3, 4}, {2, 2}, Dtype::float64).requires_grad_();
    Tensor mask = tensor({0, 1, 0, 0}, {2, 2}, Dtype::int64);
    AnomalyGuard anomaly;
    Tensor p = softmax(masked_fill(x, mask, -std::numeric_limits<double>::infinity()), 1);
    sum(p * p).backward();
    require_values(p, {1, 0, 0.2689414213699951, 0.7310585786300049}, 1e-12);
}

TEST_CASE("without anomaly mode, NaN passes silently and the guard restores the mode", "[anomaly]") {
    Tensor x = tensor({-1}, {1}, Dtype::float64).requires_grad_();
    CHECK(anomaly_message([&] { log(x); }).empty());
    {
        AnomalyGuard outer;
        {
            AnomalyGuard inner;
            CHECK(anomaly_enabled());
        }
        CHECK(anomaly_enabled());
    }
    CHECK_FALSE(anomaly_enabled());
}
