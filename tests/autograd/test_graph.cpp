// The graph: accumulation, no_grad, leaves, freeing after backward.
#include "check.h"

using namespace autograd;

TEST_CASE("a value used twice accumulates both gradients", "[graph]") {
    Tensor x = tensor({3}, {1}, Dtype::float64).requires_grad_();
    Tensor y = x * x + x;  // dy/dx = 2x + 1 = 7
    sum(y).backward();
    require_values(x.grad(), {7});
}

TEST_CASE("gradients accumulate across backward calls until zero_grad", "[graph]") {
    Tensor x = tensor({2}, {1}, Dtype::float64).requires_grad_();
    sum(x * 3.0).backward();
    sum(x * 3.0).backward();
    require_values(x.grad(), {6});
    x.zero_grad();
    CHECK_FALSE(x.grad().defined());
}

TEST_CASE("no_grad records nothing", "[graph]") {
    Tensor x = ones({2}).requires_grad_();
    Tensor y;
    {
        NoGradGuard g;
        CHECK_FALSE(grad_enabled());
        y = x * 2.0;
    }
    CHECK(grad_enabled());
    CHECK_FALSE(y.requires_grad());
    CHECK(y.is_leaf());
    CHECK(live_node_count() == 0);
}

TEST_CASE("the gradient of an input that does not require grad stays empty", "[graph]") {
    Tensor a = ones({2}).requires_grad_();
    Tensor b = ones({2});
    sum(a * b).backward();
    CHECK(a.grad().defined());
    CHECK_FALSE(b.grad().defined());
}

TEST_CASE("no graph node is alive after backward", "[graph]") {
    REQUIRE(live_node_count() == 0);
    Tensor w = rand64({3, 3}, 1);
    Tensor x = rand64({3}, 2);
    {
        Tensor h = tanh(matmul(w, reshape(x, {3, 1})));
        Tensor loss = sum(exp(h) * 2.0);
        CHECK(live_node_count() > 0);
        loss.backward();
        CHECK(live_node_count() == 0);
    }
    CHECK(live_node_count() == 0);
}

TEST_CASE("backward with an explicit upstream gradient", "[graph]") {
    Tensor x = tensor({1, 2}, {2}, Dtype::float64).requires_grad_();
    Tensor y = x * x;
    y.backward(tensor({10, 100}, {2}, Dtype::float64));
    require_values(x.grad(), {20, 400});  // dy * 2x
}

TEST_CASE("detach cuts the graph", "[graph]") {
    Tensor x = ones({2}, Dtype::float64).requires_grad_();
    Tensor y = (x * 2.0).detach();
    CHECK_FALSE(y.requires_grad());
    Tensor z = x * y;
    sum(z).backward();
    require_values(x.grad(), {2, 2});
}

TEST_CASE("backward misuse gets a GraphError, not a crash", "[graph][errors]") {
    Tensor x = ones({2}).requires_grad_();
    Tensor y = sum(x * 2.0);
    y.backward();
    CHECK_THROWS_AS(y.backward(), GraphError);
    CHECK_THROWS_WITH(y.backward(), Catch::Contains("freed by an earlier backward()"));

    // A second graph reaching a freed part of the first one.
    Tensor shared = x * 3.0;
    sum(shared).backward();
    Tensor again = sum(shared * 2.0);
    CHECK_THROWS_AS(again.backward(), GraphError);

    CHECK_THROWS_AS((x * 2.0).backward(), GraphError);  // not a scalar, no upstream gradient
    CHECK_THROWS_AS(sum(ones({2})).backward(), GraphError);  // nothing requires grad
    CHECK_THROWS_AS(sum(x).backward(ones({3})), ShapeError);
}

TEST_CASE("only leaves can change requires_grad", "[graph][errors]") {
    Tensor x = ones({2}).requires_grad_();
    Tensor y = x * 2.0;
    CHECK_THROWS_AS(y.requires_grad_(false), GraphError);
}
