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

TEST_CASE("backward refuses an upstream gradient of another dtype, and says how to convert it", "[errors]") {
    Tensor x = tensor({1, 2}, {2}, Dtype::float64).requires_grad_();
    Tensor y = x * x;
    CHECK_THROWS_WITH(y.backward(tensor({10, 100}, {2}, Dtype::float32)),
                      "backward: gradient of dtype float32 for a tensor of dtype float64 [2]; pass "
                      "grad.to(Dtype::float64)");
    CHECK_THROWS_AS(x.backward(ones({2}, Dtype::int64)), DtypeError);       // a leaf too
    CHECK_FALSE(x.grad().defined());                                        // nothing accumulated
    y.backward(tensor({10, 100}, {2}, Dtype::float32).to(Dtype::float64));  // the graph is intact
    require_values(x.grad(), {20, 400});
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

    CHECK_THROWS_AS((x * 2.0).backward(), GraphError);       // not a scalar, no upstream gradient
    CHECK_THROWS_AS(sum(ones({2})).backward(), GraphError);  // nothing requires grad
    CHECK_THROWS_AS(sum(x).backward(ones({3})), ShapeError);
}

TEST_CASE("only leaves can change requires_grad", "[graph][errors]") {
    Tensor x = ones({2}).requires_grad_();
    Tensor y = x * 2.0;
    CHECK_THROWS_AS(y.requires_grad_(false), GraphError);
}

// A leaf's first gradient is taken without a copy only when nothing else holds it: a
// gradient passed on to two leaves (add's dy), a view of it (reshape's), or the tensor the
// caller gave backward() must each be copied, or a later accumulation would write into the
// other leaf's gradient or into the caller's tensor.
TEST_CASE("leaves never share a gradient's storage, with each other or with the caller", "[graph]") {
    Tensor a = tensor({1, 2, 3, 4, 5, 6}, {2, 3}).requires_grad_();
    Tensor b = tensor({1, 1, 1, 1, 1, 1}, {6}).requires_grad_();
    Tensor c = tensor({0, 0, 0, 0, 0, 0}, {6}).requires_grad_();
    Tensor dy = tensor({1, 2, 3, 4, 5, 6}, {6});
    (reshape(a, {6}) + b + c).backward(dy);  // a, b and c each get dy, a's through a reshape of it
    sum(a * 10).backward();                  // a.grad += 10
    sum(b * 100).backward();                 // b.grad += 100
    require_values(a.grad(), {11, 12, 13, 14, 15, 16});
    require_values(b.grad(), {101, 102, 103, 104, 105, 106});
    require_values(c.grad(), {1, 2, 3, 4, 5, 6});
    require_values(dy, {1, 2, 3, 4, 5, 6});

    Tensor leaf = tensor({1, 2}, {2}).requires_grad_();
    Tensor given = tensor({7, 8}, {2});
    leaf.backward(given);  // a leaf's own backward: its gradient is the caller's tensor
    sum(leaf).backward();
    require_values(leaf.grad(), {8, 9});
    require_values(given, {7, 8});
}

// A custom op may return its input as its output (gradient reversal, a straight-through
// estimator): record() puts the node on a view, so the input's own node (or leafness) stays.
TEST_CASE("a custom op whose output is its input keeps the gradient (gradient reversal)", "[graph]") {
    auto reverse = [](const Tensor& dy) { return std::vector<Tensor>{-dy}; };
    Tensor w = tensor({1, 2, 3}, Dtype::float64).requires_grad_();
    {
        Tensor h = w * 2.0;
        Tensor r = record("grad_reverse", {h}, h, reverse);
        CHECK(h.impl()->grad_fn->name == std::string("mul"));
        CHECK(r.impl()->grad_fn->name == std::string("grad_reverse"));
        sum(r * 3.0).backward();  // d/dw = 3 * (-1) * 2
        require_values(w.grad(), {-6, -6, -6});
        require_values(r, {2, 4, 6});
    }
    CHECK(live_node_count() == 0);

    w.zero_grad();
    Tensor r = record("grad_reverse", {w}, w, reverse);
    CHECK(w.is_leaf());
    CHECK_FALSE(r.is_leaf());
    sum(r * 3.0).backward();
    require_values(w.grad(), {-3, -3, -3});
    CHECK(live_node_count() == 0);
}

TEST_CASE("a custom op on its own input leaves no node alive when no backward runs", "[graph]") {
    {
        Tensor w = ones({3}).requires_grad_();
        Tensor r = record("identity", {w}, w, [](const Tensor& dy) { return std::vector<Tensor>{dy}; });
        CHECK(live_node_count() == 1);
    }
    CHECK(live_node_count() == 0);
}

TEST_CASE("clone and to(dtype) are in the graph, as in PyTorch", "[graph]") {
    Tensor x = tensor({1, 2, 3}).requires_grad_();  // float32
    Tensor c = x.clone();
    CHECK_FALSE(c.is_leaf());
    sum(c * 2.0).backward();
    require_values(x.grad(), {2, 2, 2});
    x.zero_grad();
    Tensor wide = x.to(Dtype::float64);
    CHECK(wide.requires_grad());
    sum(wide * tensor({1, 2, 3}, Dtype::float64)).backward();
    CHECK(x.grad().dtype() == Dtype::float32);  // converted back to x's dtype
    require_values(x.grad(), {1, 2, 3});
    CHECK_FALSE(x.to(Dtype::int64).requires_grad());  // an integer copy has no gradient
    CHECK(live_node_count() == 0);
}
