// Learning-rate schedules.
#include <cmath>

#include "check.h"
#include "lectern/nn/lr_schedule.h"

TEST_CASE("the Transformer's warmup schedule at given steps (001's full post)", "[optim]") {
    nn::WarmupSchedule s(512, 4000, 1.0);
    double base = 1 / std::sqrt(512.0);
    CHECK(s.lr(1) == Approx(base * 1 * std::pow(4000.0, -1.5)));
    CHECK(s.lr(0) == s.lr(1));
    CHECK(s.lr(4000) == Approx(base / std::sqrt(4000.0)));  // the peak: both branches meet, 6.99e-4
    CHECK(s.lr(4000) == Approx(6.987712429686844e-4));
    CHECK(s.lr(8000) == Approx(base / std::sqrt(8000.0)));
    CHECK(s.lr(2000) < s.lr(4000));
    nn::WarmupSchedule annotated(512, 400, 1.0);  // the copy task's: peak at step 400
    CHECK(annotated.lr(400) == Approx(1 / std::sqrt(512.0 * 400.0)));
}

TEST_CASE("warmup + cosine: linear rise, half-cosine fall, floor", "[optim]") {
    nn::WarmupCosineSchedule s(1e-3, 10, 110, 1e-5);
    CHECK(s.lr(1) == Approx(1e-4));  // steps count from 1, as WarmupSchedule's
    CHECK(s.lr(0) == s.lr(1));
    CHECK(s.lr(5) == Approx(5e-4));
    CHECK(s.lr(10) == Approx(1e-3));
    CHECK(s.lr(11) == Approx(1e-3));
    CHECK(s.lr(61) == Approx(1e-5 + (1e-3 - 1e-5) * 0.5));  // halfway down
    CHECK(s.lr(111) == Approx(1e-5));
    CHECK(s.lr(500) == Approx(1e-5));
    nn::WarmupCosineSchedule no_warmup(1e-3, 0, 10);
    CHECK(no_warmup.lr(1) == Approx(1e-3));
}

TEST_CASE("schedules reject bad arguments", "[errors]") {
    CHECK_THROWS_AS(nn::WarmupSchedule(512, 0), autograd::ValueError);
    CHECK_THROWS_AS(nn::WarmupCosineSchedule(1e-3, 10, 5), autograd::ValueError);
}
