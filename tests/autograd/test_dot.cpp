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
    for (const char* label : {"matmul\\n[2, 3]", "add\\n[2, 3]", "mul\\n[2, 3]", "sum\\n[]", "leaf\\n[4, 3]", "leaf\\n[3]"})
        CHECK(dot.find(label) != std::string::npos);
    auto count = [&](const std::string& s) {
        std::size_t n = 0;
        for (std::size_t at = dot.find(s); at != std::string::npos; at = dot.find(s, at + 1)) ++n;
        return n;
    };
    CHECK(count("->") == 6);        // w -> matmul, matmul -> add, b -> add, add -> mul twice, mul -> sum
    CHECK(count("leaf") == 2);      // x is not drawn
    CHECK(count("[shape=box") == 4);
}
