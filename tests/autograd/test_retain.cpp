// retain_grad() keeps a non-leaf's gradient; retain_graph keeps the graph for a second
// backward(). Without them: a GraphError that names the way out, never a silent empty grad.
#include "check.h"

using namespace autograd;

TEST_CASE("retain_grad keeps a non-leaf's gradient through backward", "[graph]") {
    Tensor x = tensor({1, 2}, Dtype::float64).requires_grad_();
    Tensor h = x * x;  // non-leaf
    h.retain_grad();
    CHECK_FALSE(h.grad().defined());  // retained, but no backward yet
    Tensor loss = sum(h * 3.0);
    loss.retain_grad();
    loss.backward();
    // loss = 3 sum(x^2): dloss/dh = 3, dloss/dx = 6x, dloss/dloss = 1.
    require_values(h.grad(), {3, 3});
    require_values(x.grad(), {6, 12});
    require_values(loss.grad(), {1});
    CHECK(x.retain_grad().grad().defined());  // on a leaf it changes nothing
}

TEST_CASE("grad() of a non-leaf that did not retain it is a GraphError naming retain_grad", "[graph][errors]") {
    Tensor x = tensor({1, 2}, Dtype::float64).requires_grad_();
    Tensor h = x * 2.0;
    sum(h).backward();
    CHECK_THROWS_WITH(h.grad(),
                      "grad: this tensor is not a leaf (the output of 'mul'), and backward() keeps only the "
                      "gradients of leaves; call retain_grad() on it before backward() to keep its gradient");
    CHECK_THROWS_WITH(ones({2}).retain_grad(), Catch::Contains("does not require grad"));
}

TEST_CASE("backward with retain_graph allows a second backward, which adds to the gradients", "[graph]") {
    REQUIRE(live_node_count() == 0);
    Tensor x = tensor({1, 2}, Dtype::float64).requires_grad_();
    {
        Tensor h = exp(x);
        h.retain_grad();
        Tensor loss = sum(h * x);  // d/dx = e^x (1 + x), d/dh = x
        loss.backward(/*retain_graph=*/true);
        CHECK(live_node_count() > 0);
        loss.backward(/*retain_graph=*/false);
        const double e1 = std::exp(1.0), e2 = std::exp(2.0);
        require_values(x.grad(), {2 * e1 * 2, 2 * e2 * 3}, 1e-12);
        require_values(h.grad(), {2, 4});
        CHECK(live_node_count() == 0);  // the second backward freed it
        CHECK_THROWS_WITH(loss.backward(),
                          "backward: the graph through 'sum' was freed by an earlier backward(); to run backward() "
                          "through a graph twice, pass retain_graph = true to the first: loss.backward(true)");
    }

    // A graph kept by retain_graph still refuses a tensor changed in place since.
    Tensor w = tensor({3}, Dtype::float64);
    Tensor loss = sum(x * w);
    loss.backward(true);
    w.fill_(5);
    CHECK_THROWS_WITH(loss.backward(), Catch::Contains("modified by an in-place operation"));
}
