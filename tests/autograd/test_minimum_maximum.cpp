// maximum and minimum: the larger or smaller elementwise, broadcasting; a tie splits the gradient.
#include <cmath>

#include "check.h"

using namespace autograd;

TEST_CASE("maximum and minimum pick elementwise and split the gradient of a tie evenly", "[forward]") {
    Tensor a = tensor({1, 5, 3}, Dtype::float64).requires_grad_();
    Tensor b = tensor({2, 5, 1}, Dtype::float64).requires_grad_();
    require_values(maximum(a, b), {2, 5, 3});
    require_values(minimum(a, b), {1, 5, 1});
    // d/da sum(max(a, b)) = [a > b] + [a = b] / 2
    sum(maximum(a, b)).backward();
    require_values(a.grad(), {0, 0.5, 1});
    require_values(b.grad(), {1, 0.5, 0});
    a.zero_grad(), b.zero_grad();
    sum(minimum(a, b) * tensor({1, 2, 3}, Dtype::float64)).backward();
    require_values(a.grad(), {1, 1, 0});
    require_values(b.grad(), {0, 1, 3});
}

TEST_CASE("maximum broadcasts, sums the gradient back and passes NaN through", "[forward]") {
    Tensor a = tensor({0, 4, -1, 2}, {2, 2}, Dtype::float64).requires_grad_();
    Tensor b = tensor({1}, {}, Dtype::float64).requires_grad_();  // clamp below at a learned 1
    require_values(maximum(a, b), {1, 4, 1, 2});
    sum(maximum(a, b)).backward();
    require_values(a.grad(), {0, 1, 0, 1});
    require_values(b.grad(), {2});  // the two elements where b won
    CHECK(std::isnan(maximum(tensor({std::nan(""), 1}), tensor({0, std::nan("")})).to_vector()[0]));
    CHECK(std::isnan(minimum(tensor({std::nan(""), 1}), tensor({0, std::nan("")})).to_vector()[1]));
    CHECK_THROWS_AS(maximum(a, tensor({1, 2, 3}, Dtype::float64)), ShapeError);
    CHECK_THROWS_AS(maximum(a, tensor({1, 2})), DtypeError);
}
