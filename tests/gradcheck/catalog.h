#pragma once
// The gradient-check catalog: one float64 gradcheck per op and per module, with
// the shapes it uses. The report program (gradcheck_report.cpp) prints a row
// per case; the test suite (test_catalog.cpp) requires every case to pass.
#include <functional>
#include <string>
#include <vector>

#include "lectern/autograd/autograd.h"
#include "lectern/autograd/gradcheck.h"

namespace gradcheck_catalog {

struct Case {
    std::string layer;   // "autograd", "nn", "models"
    std::string name;    // the op or module
    std::string shapes;  // what it was checked on
    std::function<autograd::GradcheckReport()> run;
};

// An input of a case: float64, uniform in [low, high) from its own seed, requiring grad.
inline autograd::Tensor leaf(const autograd::Shape& shape, std::uint64_t seed, double low = -1, double high = 1) {
    autograd::Generator g(seed);
    return autograd::uniform(shape, low, high, g, autograd::Dtype::float64).requires_grad_();
}

std::vector<Case> op_cases();      // autograd/ops
std::vector<Case> module_cases();  // nn and models
std::vector<Case> image_cases();   // conv2d, pooling, the CNN, batch normalisation
std::vector<Case> all_cases();

}  // namespace gradcheck_catalog
