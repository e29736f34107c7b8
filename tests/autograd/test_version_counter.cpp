// Version counters: a tensor changed in place after an op used it (under a
// NoGradGuard, which the in-place ops need on tensors that require grad) makes
// backward() refuse, naming the op, instead of returning the gradient of
// another function. PyTorch raises the same error ("modified by an inplace
// operation").
#include "check.h"

using namespace autograd;

TEST_CASE("a constant changed in place after x * w makes backward refuse", "[graph]") {
    Tensor x = tensor({1, 2}, {2}, Dtype::float64).requires_grad_();
    Tensor w = tensor({3, 3}, {2}, Dtype::float64);  // a constant: d(x * w)/dx = w = 3
    Tensor y = sum(x * w);
    w.fill_(5);  // backward would read 5
    REQUIRE_THROWS_AS(y.backward(), GraphError);
    REQUIRE_THROWS_WITH(y.backward(), Catch::Matchers::Contains("input 1 of 'mul'") &&
                                          Catch::Matchers::Contains("modified by an in-place operation") &&
                                          Catch::Matchers::Contains("version 1") &&
                                          Catch::Matchers::Contains("version 0"));
    CHECK_FALSE(x.grad().defined());  // nothing accumulated, nothing freed: it refuses again
    REQUIRE_THROWS_WITH(y.backward(), Catch::Matchers::Contains("input 1 of 'mul'"));
}

TEST_CASE("a saved non-leaf updated in place under a NoGradGuard makes backward refuse", "[graph]") {
    Tensor x = tensor({2, 2}, {2}, Dtype::float64).requires_grad_();
    Tensor h = x * 2.0;     // 4 4
    Tensor y = sum(h * h);  // dy/dx = 2 h * 2 = [16, 16]; with h scaled by 10 it would be [160, 160]
    {
        NoGradGuard no_grad;
        h.mul_(10);
    }
    REQUIRE_THROWS_WITH(y.backward(), Catch::Matchers::Contains("'mul'") && Catch::Matchers::Contains("in-place"));
}

TEST_CASE("the output an op's backward reads, changed in place, makes backward refuse", "[graph]") {
    Tensor x = tensor({2}, {1}, Dtype::float64).requires_grad_();
    Tensor y = exp(x);  // dx = dy * y: the formula reads the output
    {
        NoGradGuard no_grad;
        y.fill_(0);
    }
    REQUIRE_THROWS_WITH(sum(y).backward(), Catch::Matchers::Contains("the output of 'exp'"));
}

TEST_CASE("a change through another handle of the same storage is seen", "[graph]") {
    Tensor x = tensor({1, 2}, {2}, Dtype::float64).requires_grad_();
    Tensor w = tensor({3, 4}, {2}, Dtype::float64);
    Tensor y = sum(x * w);
    w.detach().set({0}, 7);  // the detached handle shares w's storage
    REQUIRE_THROWS_AS(y.backward(), GraphError);
}

TEST_CASE("in-place steps after backward, and changes before an op, stay legal", "[graph]") {
    Tensor w = tensor({1, 2}, {2}, Dtype::float64).requires_grad_();
    Tensor c = tensor({3, 4}, {2}, Dtype::float64);
    c.fill_(2);                             // before any op used it
    for (int step = 0; step < 2; ++step) {  // the optimizers' pattern: forward, backward, update in place
        w.zero_grad();
        sum(w * c).backward();
        require_values(w.grad(), {2, 2});
        NoGradGuard no_grad;
        w.add_(w.grad(), -0.1);
    }
    require_values(w, {0.6, 1.6});
}

TEST_CASE("an optimizer-style update between forward and backward is refused", "[graph]") {
    Tensor w = tensor({1, 2}, {2}, Dtype::float64).requires_grad_();
    Tensor y = sum(w * w);
    {
        NoGradGuard no_grad;
        w.add_(ones({2}, Dtype::float64), -0.1);
    }
    REQUIRE_THROWS_WITH(y.backward(), Catch::Matchers::Contains("input 0 of 'mul'"));
}
