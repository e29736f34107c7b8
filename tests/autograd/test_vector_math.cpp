// The float32 e^x and erf that the vectorised kernels use, against libm in double.
#include "check.h"

#include <limits>

#include "lectern/autograd/kernels/vector_math.h"

using autograd::detail::erf_f32;
using autograd::detail::exp_f32;
using autograd::detail::exp_f32_lanes;
using autograd::detail::Lanes;

TEST_CASE("exp_f32 is within 2 ulp of e^x over float32's range, and keeps inf, 0 and NaN", "[forward]") {
    double worst = 0;
    for (int i = 0; i <= 350000; ++i) {
        const float x = -87.0f + 175.0f * static_cast<float>(i) / 350000;
        const double exact = std::exp(static_cast<double>(x));
        worst = std::max(worst, std::abs(exp_f32(x) - exact) / exact);
    }
    CHECK(worst < 2 * 0x1.0p-24);  // float32's unit roundoff is 2^-24
    CHECK(exp_f32(0.0f) == 1.0f);
    CHECK(exp_f32(-100.0f) == 0.0f);
    CHECK(exp_f32(-std::numeric_limits<float>::infinity()) == 0.0f);
    CHECK(exp_f32(100.0f) == std::numeric_limits<float>::infinity());
    CHECK(std::isnan(exp_f32(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("erf_f32 is within 6e-7 of erf, odd, and keeps its limits and NaN", "[forward]") {
    double worst = 0;
    for (int i = 0; i <= 240000; ++i) {
        const float x = -6.0f + 12.0f * static_cast<float>(i) / 240000;
        worst = std::max(worst, std::abs(erf_f32(x) - std::erf(static_cast<double>(x))));
        REQUIRE(erf_f32(-x) == -erf_f32(x));
    }
    // Abramowitz and Stegun's bound 1.5e-7, plus float32 rounding of t, the sum and e^x, which
    // depends on which multiply-adds the compiler fuses: 5.49e-7 with Clang 14, under 5e-7 with GCC 12.
    CHECK(worst < 6e-7);
    CHECK(erf_f32(std::numeric_limits<float>::infinity()) == 1.0f);
    CHECK(erf_f32(-std::numeric_limits<float>::infinity()) == -1.0f);
    CHECK(std::isnan(erf_f32(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("exp_f32_lanes is exp_f32 in every lane, specials included", "[forward]") {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> xs{0.0f,
                          -0.0f,
                          1.0f,
                          -1.0f,
                          88.0f,
                          88.5f,
                          -87.0f,
                          -87.5f,
                          100.0f,
                          -100.0f,
                          inf,
                          -inf,
                          std::numeric_limits<float>::quiet_NaN(),
                          1e-30f,
                          -1e-30f};
    for (int i = 0; i <= 70000; ++i) xs.push_back(-90.0f + 180.0f * static_cast<float>(i) / 70000);
    while (xs.size() % 8 != 0) xs.push_back(0.5f);
    for (std::size_t i = 0; i < xs.size(); i += 8) {
        Lanes<float> x;
        for (int l = 0; l < 8; ++l) x[l] = xs[i + l];
        const Lanes<float> y = exp_f32_lanes(x);
        for (int l = 0; l < 8; ++l) {
            INFO("x = " << x[l]);
            if (std::isnan(x[l])) REQUIRE(std::isnan(y[l]));
            else REQUIRE(y[l] == exp_f32(x[l]));
        }
    }
}
