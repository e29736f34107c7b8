// where(cond, a, b): a where cond != 0, b elsewhere; the gradient goes to the one chosen.
#include "check.h"

using namespace autograd;

TEST_CASE("where picks a where cond holds and b elsewhere, and sends dy to the one it picked", "[forward]") {
    Tensor cond = tensor({1, 0, 1}, Dtype::int64);                                   // [3]
    Tensor a = tensor({1, 2, 3, 4, 5, 6}, {2, 3}, Dtype::float64).requires_grad_();  // [2, 3]
    Tensor b = tensor({10, 20}, {2, 1}, Dtype::float64).requires_grad_();            // [2, 1]
    Tensor y = where(cond, a, b);
    require_values(y, {1, 10, 3, /**/ 4, 20, 6});
    y.backward(tensor({1, 2, 3, 4, 5, 6}, {2, 3}, Dtype::float64));
    // da = dy where cond holds; db = dy where it does not, summed over b's repeated columns.
    require_values(a.grad(), {1, 0, 3, 4, 0, 6});
    require_values(b.grad(), {2, 5});
}

TEST_CASE("where takes a 0/1 condition from a comparison, in the operands' dtype", "[forward]") {
    Tensor x = tensor({-2, 0.5, 3}).requires_grad_();
    Tensor y = where(lt(x.detach(), zeros({})), x * 0.1, x);  // a leaky ReLU of slope 0.1
    require_values(y, {-0.2, 0.5, 3}, 1e-7);
    sum(y).backward();
    require_values(x.grad(), {0.1, 1, 1}, 1e-7);
}

TEST_CASE("where refuses a and b of two dtypes and a condition that does not broadcast", "[errors]") {
    CHECK_THROWS_WITH(where(ones({2}), zeros({2}), zeros({2}, Dtype::float64)),
                      "where: dtypes differ: float32 [2] and float64 [2]");
    CHECK_THROWS_AS(where(ones({3}), zeros({2}), zeros({2})), ShapeError);
    CHECK_THROWS_AS(where(ones({2}), tensor({1, 2}, Dtype::int64), tensor({1, 2}, Dtype::int64)), DtypeError);
}
