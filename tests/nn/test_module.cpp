// nn::Module: named parameters over the tree, train/eval, to(), zero_grad.
#include "check.h"
#include "lectern/nn/feed_forward.h"
#include "lectern/nn/init.h"
#include "lectern/nn/linear.h"

using namespace autograd;

namespace {
struct Block : nn::Module {
    Block() {
        ff = register_module("ff", std::make_shared<nn::FeedForward>(4, 8, 0.5));
        layers = register_module("layers", std::make_shared<nn::ModuleList<nn::Linear>>());
        for (int i = 0; i < 2; ++i) layers->push_back(std::make_shared<nn::Linear>(4, 4));
        scale = register_parameter("scale", ones({4}));
    }
    std::shared_ptr<nn::FeedForward> ff;
    std::shared_ptr<nn::ModuleList<nn::Linear>> layers;
    Tensor scale;
};
}  // namespace

TEST_CASE("named_parameters walks the tree with dotted names", "[module]") {
    Block b;
    std::vector<std::string> names;
    for (const auto& [name, p] : b.named_parameters()) names.push_back(name);
    CHECK(names == std::vector<std::string>{"scale", "ff.w_1.weight", "ff.w_1.bias", "ff.w_2.weight", "ff.w_2.bias",
                                            "layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias"});
    // 4 + (4*8 + 8) + (8*4 + 4) + 2 * (4*4 + 4)
    CHECK(b.parameter_count() == 4 + 40 + 36 + 40);
    CHECK(b.layers->size() == 2);
    CHECK((*b.layers)[1].weight.shape() == Shape{4, 4});
}

TEST_CASE("train and eval reach every submodule", "[module]") {
    Block b;
    b.eval();
    CHECK_FALSE(b.ff->dropout->is_training());
    CHECK_FALSE((*b.layers)[0].is_training());
    b.train();
    CHECK(b.ff->dropout->is_training());
}

TEST_CASE("to(float64) converts parameters in place and zero_grad clears them", "[module]") {
    Block b;
    Tensor w = b.ff->w_1->weight;
    double before = w.at({0, 0});
    b.to(Dtype::float64);
    CHECK(w.dtype() == Dtype::float64);  // the same handle sees the conversion
    CHECK(w.at({0, 0}) == Approx(before));
    sum(b.ff->forward(ones({2, 4}, Dtype::float64))).backward();
    CHECK(w.grad().defined());
    b.zero_grad();
    CHECK_FALSE(w.grad().defined());
}

TEST_CASE("under SkipInitGuard the random initialisers draw nothing and leave their tensor", "[module]") {
    Generator gen(5), fresh(5);
    {
        nn::init::SkipInitGuard skip;
        CHECK(nn::init::skipping_init());
        nn::Linear layer(3, 2, true, gen);
        require_values(layer.weight, {0, 0, 0, 0, 0, 0});
        require_values(layer.bias, {0, 0});
        Tensor t = autograd::ones({2, 2});
        nn::init::xavier_uniform_(t, gen);
        nn::init::normal_(t, 0, 1, gen);
        require_values(t, {1, 1, 1, 1});
        nn::init::zeros_(t);  // not random: still runs
        require_values(t, {0, 0, 0, 0});
        { nn::init::SkipInitGuard nested; }
        CHECK(nn::init::skipping_init());  // the inner guard restores the outer one's state
    }
    CHECK_FALSE(nn::init::skipping_init());
    CHECK(gen.normal() == fresh.normal());  // nothing was drawn
    nn::Linear layer(3, 2, true, gen);
    CHECK(layer.weight.at({0, 0}) != 0);
}

namespace {
// Registers its pieces under the names given, as a user's module might by mistake.
struct Named : nn::Module {
    Named(const std::string& param, const std::string& child, const std::string& buffer = "table") {
        register_parameter("scale", ones({2}));
        register_buffer(buffer, zeros({2}));
        register_module("proj", std::make_shared<nn::Linear>(2, 2));
        register_module(child, std::make_shared<nn::Linear>(2, 2));
        register_parameter(param, ones({2}));
    }
};
}  // namespace

// state_dict() keys by dotted name: a second "proj" would drop half the parameters from it,
// and a checkpoint of the two would not load back.
TEST_CASE("a second parameter, buffer or submodule of a name is refused, naming it", "[module][errors]") {
    CHECK_NOTHROW(Named("shift", "out"));
    CHECK_THROWS_WITH(Named("shift", "proj"),
                      "register_module: this module has a submodule named 'proj' already; give the second a name of "
                      "its own");
    CHECK_THROWS_WITH(Named("scale", "out"),
                      "register_parameter: this module has a parameter named 'scale' already; give the second a "
                      "name of its own");
    CHECK_THROWS_WITH(Named("table", "out"),
                      "register_parameter: this module has a buffer named 'table' already; give the second a name "
                      "of its own");
    CHECK_THROWS_WITH(Named("shift", "out", "proj"),
                      "register_module: this module has a buffer named 'proj' already; give the second a name of "
                      "its own");
    CHECK_THROWS_WITH(Named("a.b", "out"), "register_parameter: the name 'a.b' must be non-empty and without '.'");
    CHECK_THROWS_WITH(Named("shift", ""), "register_module: the name '' must be non-empty and without '.'");
}
