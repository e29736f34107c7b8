// to_dot: the graph behind a tensor as Graphviz DOT, each op with its output shape.
#include "check.h"

using namespace autograd;

TEST_CASE("to_dot draws each op once with its output shape, the leaves, and the edges between them", "[graph]") {
    Tensor x = ones({2, 4});  // data: a constant, not drawn
    Tensor w = ones({4, 3}).requires_grad_(), b = ones({3}).requires_grad_();
    Tensor h = matmul(x, w) + b;
    Tensor loss = sum(h * h);  // h used twice: one node, two edges into mul
    std::string dot = to_dot(loss);
    INFO(dot);
    CHECK(dot.rfind("digraph autograd {", 0) == 0);
    for (const char* label :
         {"matmul\\n[2, 3]", "add\\n[2, 3]", "mul\\n[2, 3]", "sum\\n[]", "leaf\\n[4, 3]", "leaf\\n[3]"})
        CHECK(dot.find(label) != std::string::npos);
    auto count = [&](const std::string& s) {
        std::size_t n = 0;
        for (std::size_t at = dot.find(s); at != std::string::npos; at = dot.find(s, at + 1)) ++n;
        return n;
    };
    CHECK(count("->") == 6);    // w -> matmul, matmul -> add, b -> add, add -> mul twice, mul -> sum
    CHECK(count("leaf") == 2);  // x is not drawn
    CHECK(count("[shape=box") == 4);
}

TEST_CASE("to_dot names the leaves it is given and draws the named inputs, dashed", "[graph]") {
    Tensor x = ones({2, 4}), y = ones({2, 3});
    Tensor w = ones({4, 3}).requires_grad_(), b = ones({3}).requires_grad_();
    Tensor loss = sum(pow(matmul(x, w) + b - y, 2.0));
    std::string dot = to_dot(loss, {{x, "x"}, {y, "y"}, {w, "w"}, {b, "b"}});
    INFO(dot);
    for (const char* label : {"label=\"w\\n[4, 3]", "label=\"b\\n[3]", "style=dashed, label=\"x\\n[2, 4]",
                              "style=dashed, label=\"y\\n[2, 3]"})
        CHECK(dot.find(label) != std::string::npos);
    CHECK(dot.find("leaf") == std::string::npos);
    auto count = [&](const std::string& s) {
        std::size_t n = 0;
        for (std::size_t at = dot.find(s); at != std::string::npos; at = dot.find(s, at + 1)) ++n;
        return n;
    };
    // x -> matmul, w -> matmul, matmul -> add, b -> add, add -> sub, y -> sub, sub -> pow, pow -> sum
    CHECK(count("->") == 8);
}

TEST_CASE("to_dot_with_norms labels each value and gradient with its norm, worked by hand", "[graph]") {
    // p = w * x, loss = sum(p): x = (3, 4) a constant; w = (1, 2).
    //   |w| = sqrt 5, |p| = |(3, 8)| = sqrt 73, loss = 11;
    //   d loss / d p = (1, 1): |g| = sqrt 2 at mul; d loss / d w = x: |g| = 5 at the leaf; 1 at sum.
    Tensor x = tensor({3, 4}, Dtype::float64);
    Tensor w = tensor({1, 2}, Dtype::float64).requires_grad_();
    Tensor loss = sum(w * x);
    std::string dot = to_dot_with_norms(loss);
    INFO(dot);
    CHECK(dot.find("sum\\n[]\\n|v| = 11\\n|g| = 1\"") != std::string::npos);
    CHECK(dot.find(fmt::format("mul\\n[2]\\n|v| = {:.3g}\\n|g| = {:.3g}\"", std::sqrt(73.0), std::sqrt(2.0))) !=
          std::string::npos);
    CHECK(dot.find(fmt::format("leaf\\n[2]\\n|v| = {:.3g}\\n|g| = 5\"", std::sqrt(5.0))) != std::string::npos);
    require_values(w.grad(), {3, 4}, 0);  // as backward() leaves it
    CHECK(live_node_count() == 0);
}
