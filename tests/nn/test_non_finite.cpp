// Training stops at the first non-finite loss or gradient, naming the step and
// the value (nn/non_finite.h).
#include <limits>

#include "check.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/non_finite.h"

using namespace autograd;

TEST_CASE("a NaN or infinite loss stops training, naming the step", "[errors]") {
    CHECK_NOTHROW(nn::check_finite_loss(2.5, 1));
    CHECK_THROWS_WITH(nn::check_finite_loss(std::numeric_limits<double>::quiet_NaN(), 12), "step 12: the loss is NaN");
    CHECK_THROWS_WITH(nn::check_finite_loss(-std::numeric_limits<double>::infinity(), 3), "step 3: the loss is -inf");
    CHECK_THROWS_AS(nn::check_finite_loss(std::numeric_limits<double>::infinity(), 3), nn::NonFiniteError);
}

TEST_CASE("a non-finite gradient stops training, naming the first parameter that holds it", "[errors]") {
    nn::Linear lin(2, 3);
    sum(lin(ones({4, 2}))).backward();
    CHECK_NOTHROW(nn::check_finite_gradients(lin, 7));
    lin.bias.grad().data<float>()[2] = std::numeric_limits<float>::infinity();
    CHECK_THROWS_WITH(nn::check_finite_gradients(lin, 7), "step 7: the gradient of 'bias' [3] holds an infinity");
    lin.weight.grad().data<float>()[5] = std::numeric_limits<float>::quiet_NaN();
    CHECK_THROWS_WITH(nn::check_finite_gradients(lin, 8), "step 8: the gradient of 'weight' [3, 2] holds NaN");
}

TEST_CASE("weights that are not all finite are named, the first parameter that holds one", "[errors]") {
    nn::Linear lin(2, 3);
    CHECK_NOTHROW(nn::check_finite_parameters(lin));
    lin.bias.data<float>()[1] = std::numeric_limits<float>::quiet_NaN();
    CHECK_THROWS_WITH(nn::check_finite_parameters(lin), "'bias' [3] holds NaN");
    lin.weight.data<float>()[0] = -std::numeric_limits<float>::infinity();
    CHECK_THROWS_WITH(nn::check_finite_parameters(lin), "'weight' [3, 2] holds an infinity");
}
