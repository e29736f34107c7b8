// eq, ne, lt, gt: 0/1 in the operands' dtype, broadcasting, never in the graph.
#include "check.h"

using namespace autograd;

TEST_CASE("eq, ne, lt and gt give 1 where the relation holds, broadcasting as the arithmetic does", "[forward]") {
    Tensor a = tensor({1, 2, 3, 4, 5, 6}, {2, 3}, Dtype::float64).requires_grad_();
    Tensor b = tensor({1, 5, 3}, Dtype::float64);  // [3], against each row of a
    // a = [[1, 2, 3], [4, 5, 6]] against b = [1, 5, 3]
    require_values(eq(a, b), {1, 0, 1, 0, 1, 0});
    require_values(ne(a, b), {0, 1, 0, 1, 0, 1});
    require_values(lt(a, b), {0, 1, 0, 0, 0, 0});
    require_values(gt(a, b), {0, 0, 0, 1, 0, 1});
    CHECK(eq(a, b).shape() == Shape{2, 3});
    CHECK(eq(a, b).dtype() == Dtype::float64);
    CHECK(!lt(a, b).requires_grad());  // piecewise constant: no gradient to give
    CHECK(gt(b, tensor({2}, {1, 1}, Dtype::float64)).shape() == Shape{1, 3});

    // NaN is unequal to everything, itself included (IEEE, as torch.eq).
    Tensor nan = tensor({std::nan("")}, Dtype::float64);
    require_values(eq(nan, nan), {0});
    require_values(ne(nan, nan), {1});
}

TEST_CASE("eq on int64 ids gives an accuracy: mean(eq(argmax(logits), labels))", "[forward]") {
    Tensor logits = tensor({0.1, 2, 0.3, /**/ 5, 1, 0, /**/ 0, 0, 1, /**/ 1, 3, 2}, {4, 3});
    Tensor labels = tensor({1, 0, 0, 2}, Dtype::int64);  // argmax is 1, 0, 2, 1: two right
    Tensor hits = eq(argmax(logits, -1), labels);
    CHECK(hits.dtype() == Dtype::int64);
    require_values(hits, {1, 1, 0, 0});
    CHECK(mean(hits.to(Dtype::float32)).item() == 0.5);
}

TEST_CASE("comparisons refuse operands of two dtypes or shapes that do not broadcast", "[errors]") {
    CHECK_THROWS_WITH(eq(zeros({2}), zeros({2}, Dtype::float64)), "eq: dtypes differ: float32 [2] and float64 [2]");
    CHECK_THROWS_AS(lt(zeros({2, 3}), zeros({2})), ShapeError);
    CHECK_THROWS_AS(gt(Tensor(), zeros({2})), ValueError);
}

TEST_CASE("le and ge hold on ties; the logical ops take any nonzero as true", "[forward]") {
    Tensor a = tensor({1, 2, 3, 4, 5, 6}, {2, 3}, Dtype::float64);
    Tensor b = tensor({1, 5, 3}, Dtype::float64);
    // a = [[1, 2, 3], [4, 5, 6]] against b = [1, 5, 3]
    require_values(le(a, b), {1, 1, 1, 0, 1, 0});
    require_values(ge(a, b), {1, 0, 1, 1, 1, 1});

    Tensor p = tensor({0, 0, 2, -3}, Dtype::int64), q = tensor({0, 7, 0, 1}, Dtype::int64);
    require_values(logical_and(p, q), {0, 0, 0, 1});
    require_values(logical_or(p, q), {0, 1, 1, 1});
    require_values(logical_xor(p, q), {0, 1, 1, 0});
    require_values(logical_not(p), {1, 1, 0, 0});
    CHECK(logical_not(p).dtype() == Dtype::int64);
    // masks combine: 2 <= a < 5 on the rows of a
    require_values(logical_and(ge(a, tensor({2}, {}, Dtype::float64)), lt(a, tensor({5}, {}, Dtype::float64))),
                   {0, 1, 1, 1, 0, 0});
    CHECK_THROWS_AS(logical_and(p, a), DtypeError);
}
