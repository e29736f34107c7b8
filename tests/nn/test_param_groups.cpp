// Parameter groups: each group's own lr and weight decay, by hand; the usual split that
// decays matrices and embeddings and not biases or LayerNorm gains.
#include <memory>

#include "check.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/optim/adamw.h"
#include "lectern/nn/optim/param_groups.h"
#include "lectern/nn/optim/sgd.h"

using namespace autograd;

namespace {

// p = [1, -2] with gradient g = [0.5, 1].
Tensor param_with_grad() {
    Tensor p = tensor({1, -2}, Dtype::float64).requires_grad_();
    p.set_grad(tensor({0.5, 1}, Dtype::float64));
    return p;
}

// An embedding, a LayerNorm and a Linear: parameters embed.weight [5, 4], norm.gamma [4],
// norm.beta [4], head.weight [3, 4], head.bias [3].
struct Tiny : nn::Module {
    std::shared_ptr<nn::Embedding> embed = register_module("embed", std::make_shared<nn::Embedding>(5, 4));
    std::shared_ptr<nn::LayerNorm> norm = register_module("norm", std::make_shared<nn::LayerNorm>(4));
    std::shared_ptr<nn::Linear> head = register_module("head", std::make_shared<nn::Linear>(4, 3));
};

}  // namespace

TEST_CASE("SGD and AdamW step each group with its own lr and weight decay (by hand)", "[optim]") {
    // SGD: a in {lr 0.1, wd 0.1}: d = g + 0.1 p = [0.6, 0.8], a -= 0.1 d;
    // b in {lr 0.2}, the options' wd 0: b -= 0.2 g.
    Tensor a = param_with_grad(), b = param_with_grad();
    nn::optim::SGD sgd({{{a}, 0.1, 0.1}, {{b}, 0.2}}, {.lr = 1});
    sgd.step();
    require_values(a, {1 - 0.06, -2 - 0.08}, 1e-12);
    require_values(b, {1 - 0.1, -2 - 0.2}, 1e-12);

    // AdamW, lr 0.1 and wd 0.5 by default: c decays, p *= 1 - 0.05, then moves by lr sign(g);
    // d in a group of wd 0 only moves by lr sign(g).
    Tensor c = param_with_grad(), d = param_with_grad();
    nn::optim::AdamW adamw({{{c}}, {{d}, std::nullopt, 0.0}}, {.lr = 0.1, .weight_decay = 0.5});
    adamw.step();
    require_values(c, {0.95 - 0.1, -1.9 - 0.1}, 1e-7);
    require_values(d, {0.9, -2.1}, 1e-7);
    CHECK(adamw.param_groups()[0].weight_decay == 0.5);

    // set_lr moves every group by the base rate's factor (a schedule's step: base 1 to 0.01);
    // set_group_lr one.
    sgd.set_lr(0.01);
    CHECK(*sgd.param_groups()[0].lr == Approx(0.001).epsilon(1e-15));
    CHECK(*sgd.param_groups()[1].lr == Approx(0.002).epsilon(1e-15));
    sgd.set_group_lr(1, 0.3);
    CHECK(sgd.param_groups()[1].lr == 0.3);
    CHECK(sgd.lr_of(1) == 0.3);
}

TEST_CASE("weight_decay_groups decays matrices and embeddings, not biases or LayerNorm gains, in the model's order",
          "[optim]") {
    Tiny model;
    const auto groups = nn::optim::weight_decay_groups(model, 0.1);
    // embed.weight | norm.gamma, norm.beta | head.weight | head.bias
    REQUIRE(groups.size() == 4);
    const std::vector<double> decay{0.1, 0, 0.1, 0};
    const std::vector<std::size_t> sizes{1, 2, 1, 1};
    std::vector<Tensor> in_order;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        INFO("group " << g);
        CHECK(*groups[g].weight_decay == decay[g]);
        CHECK(!groups[g].lr.has_value());
        CHECK(groups[g].params.size() == sizes[g]);
        for (const Tensor& p : groups[g].params) in_order.push_back(p);
    }
    const std::vector<Tensor> params = model.parameters();
    REQUIRE(in_order.size() == params.size());
    for (std::size_t i = 0; i < params.size(); ++i) CHECK(in_order[i].impl() == params[i].impl());

    // With zero gradients AdamW moves only by its decay: the weights shrink by 1 - lr wd, the
    // bias and the gains stay.
    const double w0 = model.head->weight.at({0, 0}), b0 = model.head->bias.at({0}), g0 = model.norm->gamma.at({0});
    for (Tensor& p : model.parameters()) p.set_grad(zeros(p.shape()));
    nn::optim::AdamW opt(groups, {.lr = 0.5});
    opt.step();
    CHECK(model.head->weight.at({0, 0}) == Approx(w0 * (1 - 0.5 * 0.1)));
    CHECK(model.head->bias.at({0}) == b0);
    CHECK(model.norm->gamma.at({0}) == g0);
}

TEST_CASE("parameter groups reject a parameter twice and a negative lr or weight decay", "[errors]") {
    Tensor a = param_with_grad(), b = param_with_grad();
    CHECK_THROWS_WITH(nn::optim::SGD({{{a}}, {{b, a}}}),
                      "Optimizer: parameter 2 [2] of group 1 appears twice (it would be updated twice per step)");
    CHECK_THROWS_AS(nn::optim::SGD({{{a}, -0.1}}), ValueError);
    CHECK_THROWS_WITH(nn::optim::AdamW({{{a}, 0.1, -1.0}}), Catch::Contains("group 0's weight decay -1"));
    nn::optim::SGD sgd(std::vector<nn::optim::ParamGroup>{{{a}}, {{b}}});
    CHECK_THROWS_WITH(sgd.set_group_lr(2, 0.1), Catch::Contains("no group 2 (there are 2)"));
}

TEST_CASE("a schedule's set_lr keeps each group's ratio to the base rate; scale_lr is LambdaLR's", "[optim]") {
    // base 0.01 (group 0 takes it), group 1 made at 0.1: ten times the base
    Tensor a = param_with_grad(), b = param_with_grad();
    nn::optim::SGD sgd(std::vector<nn::optim::ParamGroup>{{{a}}, {{b}, 0.1}}, {.lr = 0.01});
    sgd.set_lr(0.002);  // warmup's rate, say: group 1 goes to 0.02, not 0.002
    CHECK(sgd.lr() == 0.002);
    CHECK(*sgd.param_groups()[0].lr == 0.002);
    CHECK(*sgd.param_groups()[1].lr == Approx(0.02).epsilon(1e-15));
    sgd.step();  // p -= lr g, g = [0.5, 1]: a by 0.002 g, b by 0.02 g
    require_values(a, {1 - 0.001, -2 - 0.002}, 1e-15);
    require_values(b, {1 - 0.01, -2 - 0.02}, 1e-15);
    // LambdaLR: each group's lr at construction times the factor
    sgd.scale_lr(0.5);
    CHECK(*sgd.param_groups()[0].lr == 0.005);
    CHECK(*sgd.param_groups()[1].lr == 0.05);
    CHECK(sgd.lr() == 0.005);
    CHECK_THROWS_AS(sgd.scale_lr(-1), ValueError);
    // with base 0 a group's own lr has no ratio to keep
    nn::optim::SGD zero_base(std::vector<nn::optim::ParamGroup>{{{a}}, {{b}, 0.1}}, {.lr = 0});
    CHECK_THROWS_WITH(zero_base.set_lr(0.01),
                      "Optimizer: set_lr(0.01): group 1 has lr 0.1 of its own but the base "
                      "rate was 0, so there is no ratio to keep; use scale_lr(factor)");
    CHECK(*zero_base.param_groups()[1].lr == 0.1);  // unchanged
}
