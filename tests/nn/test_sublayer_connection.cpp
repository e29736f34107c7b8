// The residual sublayer in its pre-norm and post-norm forms (003).
#include "nn_check.h"
#include "nn/linear.h"
#include "nn/sublayer_connection.h"

using namespace autograd;

TEST_CASE("pre-norm is x + f(LN(x)), post-norm is LN(x + f(x)) (003)", "[module]") {
    nn::SublayerConnection pre(4, 0.0, nn::Norm::pre), post(4, 0.0, nn::Norm::post);
    Generator g(1);
    Tensor x = randn({2, 4}, g);
    auto f = [](const Tensor& h) { return h * 2.0; };
    require_values(pre.forward(x, f), (x + pre.norm->forward(x) * 2.0).to_vector(), 1e-6);
    require_values(post.forward(x, f), post.norm->forward(x * 3.0).to_vector(), 1e-6);
}

TEST_CASE("both residual forms pass gradcheck", "[gradcheck]") {
    for (auto norm : {nn::Norm::pre, nn::Norm::post}) {
        nn::SublayerConnection sub(4, 0.0, norm);
        nn::Linear f(4, 4);
        f.to(Dtype::float64);
        require_module_gradcheck(sub, {rand64({2, 3, 4}, 1)},
                                 [&](const std::vector<Tensor>& x) { return sub.forward(x[0], [&](const Tensor& h) { return f(h); }); });
    }
}
