// The residual sublayer in its pre-norm and post-norm forms (003).
#include "check.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/sublayer_connection.h"

using namespace autograd;

TEST_CASE("pre-norm is x + f(LN(x)), post-norm is LN(x + f(x)) (003)", "[module]") {
    nn::SublayerConnection pre(4, 0.0, nn::Norm::pre), post(4, 0.0, nn::Norm::post);
    Generator g(1);
    Tensor x = randn({2, 4}, g);
    auto f = [](const Tensor& h) { return h * 2.0; };
    require_values(pre.forward(x, f), (x + pre.norm->forward(x) * 2.0).to_vector(), 1e-6);
    require_values(post.forward(x, f), post.norm->forward(x * 3.0).to_vector(), 1e-6);
}
