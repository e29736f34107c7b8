// The mixture-of-experts layer (004 §15.5.7): routing, the gate-weighted sum
// worked out by hand, the load-balancing loss. Its gradient check is in the
// catalog (tests/gradcheck/module_cases.cpp), as every module's is.
#include <set>

#include "check.h"
#include "lectern/nn/mixture_of_experts.h"

using namespace autograd;

TEST_CASE("MoE routes each token to exactly k distinct experts, those of largest gate logit", "[module]") {
    nn::MixtureOfExperts moe(6, 8, 4, 2);
    moe.to(Dtype::float64);
    Tensor x = rand64({3, 5, 6}, 1).detach();
    moe(x);
    nn::Routing r = moe.last_routing();
    REQUIRE(r.experts.shape() == Shape{15, 2});
    Tensor logits = matmul(reshape(x, {15, 6}), moe.gate->weight, false, true);  // [N, E]
    for (std::int64_t n = 0; n < 15; ++n) {
        auto e0 = static_cast<std::int64_t>(r.experts.at({n, 0})), e1 = static_cast<std::int64_t>(r.experts.at({n, 1}));
        CHECK(e0 != e1);
        for (std::int64_t e = 0; e < 4; ++e)  // no unchosen expert beats a chosen one
            if (e != e0 && e != e1) CHECK(logits.at({n, e}) <= logits.at({n, e1}));
        CHECK(logits.at({n, e0}) >= logits.at({n, e1}));
        CHECK(r.weights.at({n, 0}) + r.weights.at({n, 1}) == Approx(1.0));
    }
}

TEST_CASE("MoE output equals the gate-weighted sum of the chosen experts, computed by hand", "[module]") {
    nn::MixtureOfExperts moe(4, 6, 3, 2);
    moe.to(Dtype::float64);
    Tensor x = rand64({5, 4}, 2).detach();
    Tensor y = moe(x);
    Tensor logits = matmul(x, moe.gate->weight, false, true);  // [5, 3]
    for (std::int64_t n = 0; n < 5; ++n) {
        // the two largest logits, by hand
        std::int64_t a = 0;
        for (std::int64_t e = 1; e < 3; ++e)
            if (logits.at({n, e}) > logits.at({n, a})) a = e;
        std::int64_t b = a == 0 ? 1 : 0;
        for (std::int64_t e = 0; e < 3; ++e)
            if (e != a && logits.at({n, e}) > logits.at({n, b})) b = e;
        double wa = 1 / (1 + std::exp(logits.at({n, b}) - logits.at({n, a}))), wb = 1 - wa;  // softmax of two
        Tensor xn = narrow(x, 0, n, 1);
        Tensor expect =
            (*moe.experts)[static_cast<std::size_t>(a)](xn) * wa + (*moe.experts)[static_cast<std::size_t>(b)](xn) * wb;
        require_values(narrow(y, 0, n, 1), expect.to_vector(), 1e-12);
    }
}

TEST_CASE("MoE load-balancing loss is E * sum_e f_e P_e, by hand", "[module]") {
    nn::MixtureOfExperts moe(4, 6, 3, 1);
    moe.to(Dtype::float64);
    Tensor x = rand64({6, 4}, 3).detach();
    moe(x);
    Tensor probs = softmax(matmul(x, moe.gate->weight, false, true), -1);  // [6, 3]
    std::vector<double> f(3, 0.0), P(3, 0.0);
    for (std::int64_t n = 0; n < 6; ++n) {
        f[static_cast<std::size_t>(moe.last_routing().experts.at({n, 0}))] += 1.0 / 6;
        for (std::int64_t e = 0; e < 3; ++e) P[static_cast<std::size_t>(e)] += probs.at({n, e}) / 6;
    }
    double expect = 3 * (f[0] * P[0] + f[1] * P[1] + f[2] * P[2]);
    CHECK(moe.aux_loss().item() == Approx(expect).epsilon(1e-12));
}

TEST_CASE("MoE: with one expert and k = 1 the layer is that expert's FFN", "[module]") {
    nn::MixtureOfExperts moe(4, 6, 1, 1);
    moe.to(Dtype::float64);
    Tensor x = rand64({2, 3, 4}, 4).detach();
    require_values(moe(x), (*moe.experts)[0](x).to_vector(), 1e-12);
    CHECK(moe.aux_loss().item() == Approx(1.0));  // everything on the one expert: f = P = 1
}

TEST_CASE("MoE rejects bad sizes and inputs", "[errors]") {
    CHECK_THROWS_AS(nn::MixtureOfExperts(4, 6, 3, 4), ValueError);
    CHECK_THROWS_AS(nn::MixtureOfExperts(4, 6, 0, 1), ValueError);
    nn::MixtureOfExperts moe(4, 6, 3, 2);
    CHECK_THROWS_AS(moe(zeros({2, 5})), ShapeError);
    CHECK_THROWS_AS(moe(zeros({2, 4}, Dtype::int64)), DtypeError);
}
