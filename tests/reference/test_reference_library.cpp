// The library's PyTorch-shaped pieces against the formulas of the PyTorch modules they stand
// for, in float64 (make_library_reference.py: plain Python floats, gradients by hand; not run
// through PyTorch itself): the activation modules, a Sequential MLP, the elementwise losses.
#include "lectern/nn/activation.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/sequential.h"
#include "reference_case.h"

using namespace autograd;

namespace {
// y = m(x) and the gradient of sum(y * dout) against out.<name> and grad.<name>.
template <class M>
void check_activation(reference::Case& ref, const std::string& name, const M& m) {
    Tensor x = ref.input("x");
    Tensor y = m(x);
    ref.compare("out." + name, y);
    sum(y * ref["dout"]).backward();
    ref.compare("grad." + name, x.grad());
}
}  // namespace

TEST_CASE("the activation modules match torch.nn's ReLU, GELU (both forms), Tanh, Sigmoid, SiLU", "[reference]") {
    reference::Case ref("activations");
    check_activation(ref, "relu", nn::ReLU());
    check_activation(ref, "gelu", nn::GELU());
    check_activation(ref, "gelu_tanh", nn::GELU(true));
    check_activation(ref, "tanh", nn::Tanh());
    check_activation(ref, "sigmoid", nn::Sigmoid());
    check_activation(ref, "silu", nn::SiLU());
}

TEST_CASE("Sequential(Linear, ReLU, Linear, Tanh) matches torch.nn.Sequential's names, values and gradients",
          "[reference]") {
    reference::Case ref("sequential_mlp");
    nn::Sequential mlp(std::make_shared<nn::Linear>(4, 5), std::make_shared<nn::ReLU>(),
                       std::make_shared<nn::Linear>(5, 3), std::make_shared<nn::Tanh>());
    mlp.to(Dtype::float64);
    ref.load_parameters(mlp);  // by PyTorch's names: 0.weight, 0.bias, 2.weight, 2.bias
    Tensor x = ref.input("x");
    Tensor y = mlp(x);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &mlp);
}

TEST_CASE("mse_loss, l1_loss, binary_cross_entropy (with logits) match torch.nn's losses, mean-reduced",
          "[reference]") {
    using Loss = Tensor (*)(const Tensor&, const Tensor&, nn::Reduction);
    for (auto [name, loss] : {std::pair<const char*, Loss>{"mse_loss", nn::mse_loss},
                              {"l1_loss", nn::l1_loss},
                              {"binary_cross_entropy", nn::binary_cross_entropy},
                              {"binary_cross_entropy_with_logits", nn::binary_cross_entropy_with_logits}}) {
        reference::Case ref(name);
        Tensor input = ref.input("input"), target = ref.input("target");
        Tensor l = loss(input, target, nn::Reduction::mean);
        ref.compare("out.loss", l);
        l.backward();
        ref.compare("grad.input", input.grad());
        ref.compare("grad.target", target.grad());
    }
}
