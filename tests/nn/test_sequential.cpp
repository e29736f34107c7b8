// nn::Sequential and the activation modules: steps in order, PyTorch's names, values by hand.
#include "check.h"
#include "lectern/nn/activation.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/sequential.h"

using namespace autograd;

namespace {
std::shared_ptr<nn::Linear> linear(std::int64_t in, std::int64_t out, const std::vector<double>& w,
                                   const std::vector<double>& b) {
    auto m = std::make_shared<nn::Linear>(in, out);
    m->to(Dtype::float64);
    NoGradGuard no_grad;
    m->weight.copy_(tensor(w, {out, in}, Dtype::float64));
    m->bias.copy_(tensor(b, Dtype::float64));
    return m;
}
}  // namespace

TEST_CASE("Sequential runs its steps in order, named 0, 1, ... as PyTorch names them", "[module]") {
    // W1 = [[1, -1], [2, 0]], b1 = [0, -1]; W2 = [[1, 3]], b2 = [0.5]
    nn::Sequential mlp(linear(2, 2, {1, -1, 2, 0}, {0, -1}), std::make_shared<nn::ReLU>(), linear(2, 1, {1, 3}, {0.5}));
    std::vector<std::string> names;
    for (const auto& [name, p] : mlp.named_parameters()) names.push_back(name);
    CHECK(names == std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"});
    CHECK(mlp.size() == 3);
    CHECK(dynamic_cast<nn::ReLU*>(&mlp[1]) != nullptr);
    CHECK_THROWS_WITH(mlp[3], "Sequential: step 3 of a Sequential of 3");

    // x = [1, 2]: h = W1 x + b1 = [-1, 1], relu [0, 1], y = 1 * 0 + 3 * 1 + 0.5
    Tensor x = tensor({1, 2}, Dtype::float64).requires_grad_();
    Tensor y = mlp(x);
    require_values(y, {3.5});
    y.sum().backward();
    auto& first = dynamic_cast<nn::Linear&>(mlp[0]);
    auto& last = dynamic_cast<nn::Linear&>(mlp[2]);
    require_values(last.weight.grad(), {0, 1});         // relu(h)
    require_values(first.bias.grad(), {0, 3});          // W2^T through relu's mask [0, 1]
    require_values(first.weight.grad(), {0, 0, 3, 6});  // [0, 3] x^T
    require_values(x.grad(), {6, 0});                   // W1^T [0, 3]

    nn::Sequential outer;
    outer.push_back(std::make_shared<nn::Sequential>(linear(2, 2, {1, 0, 0, 1}, {0, 0})))
        .push_back(std::make_shared<nn::Tanh>());
    CHECK(outer.named_parameters()[0].first == "0.0.weight");
    CHECK(nn::Sequential()(x).to_vector() == x.to_vector());  // no step: the identity
}

TEST_CASE("the activation modules are their ops: ReLU, GELU, Tanh, Sigmoid, SiLU", "[module]") {
    Tensor x = tensor({-1, 0, 1}, Dtype::float64);
    require_values(nn::ReLU()(x), {0, 0, 1});
    // x Phi(x), Phi(1) = 0.8413447460685429; the tanh form at 1: (1 + tanh(sqrt(2/pi) 1.044715)) / 2
    require_values(nn::GELU()(x), {-0.15865525393145707, 0, 0.8413447460685429}, 1e-15);
    require_values(nn::GELU(true)(x), {-0.15880800939172324, 0, 0.8411919906082768}, 1e-15);
    require_values(nn::Tanh()(x), {-0.7615941559557649, 0, 0.7615941559557649}, 1e-15);
    require_values(nn::Sigmoid()(x), {0.2689414213699951, 0.5, 0.7310585786300049}, 1e-15);
    require_values(nn::SiLU()(x), {-0.2689414213699951, 0, 0.7310585786300049}, 1e-15);
    CHECK(nn::GELU().parameters().empty());
}
