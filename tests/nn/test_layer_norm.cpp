// LayerNorm module (003's formula with learned gain and bias).
#include "nn_check.h"
#include "nn/layer_norm.h"

using namespace autograd;

TEST_CASE("LayerNorm normalises each row to mean 0 and variance 1 at init", "[module]") {
    nn::LayerNorm ln(8);
    Generator g(1);
    Tensor y = ln(randn({5, 8}, g) * 3.0 + 2.0);
    require_values(mean(y, -1), {0, 0, 0, 0, 0}, 1e-5);
    require_values(mean(pow(y, 2.0), -1), {1, 1, 1, 1, 1}, 1e-3);
}

TEST_CASE("LayerNorm passes gradcheck w.r.t. input, gamma and beta", "[gradcheck]") {
    nn::LayerNorm ln(5);
    require_module_gradcheck(ln, {rand64({2, 3, 5}, 1)}, [&](const std::vector<Tensor>& x) { return ln(x[0]); });
}

TEST_CASE("LayerNorm rejects rows of another width", "[errors]") {
    nn::LayerNorm ln(5);
    CHECK_THROWS_AS(ln(zeros({2, 4})), ShapeError);
}
