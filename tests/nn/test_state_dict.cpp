// state_dict() and load_state_dict() in memory: copies both ways, and one error naming every
// missing, unexpected and mis-shaped name.
#include <memory>

#include "check.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/linear.h"

using namespace autograd;

namespace {

// fc.weight [3, 4], fc.bias [3], norm.gamma [3], norm.beta [3].
struct Net : nn::Module {
    explicit Net(std::uint64_t seed) : gen(seed) {
        fc = register_module("fc", std::make_shared<nn::Linear>(4, 3, true, gen));
        norm = register_module("norm", std::make_shared<nn::LayerNorm>(3));
    }
    Tensor forward(const Tensor& x) const { return (*norm)((*fc)(x)); }
    Generator gen;
    std::shared_ptr<nn::Linear> fc;
    std::shared_ptr<nn::LayerNorm> norm;
};

}  // namespace

TEST_CASE("state_dict copies the parameters by name, and load_state_dict copies them back", "[module]") {
    Net a(1), b(2);
    nn::StateDict dict = a.state_dict();
    REQUIRE(dict.size() == 4);
    CHECK(dict.count("fc.weight") == 1);
    CHECK(dict.count("norm.gamma") == 1);
    CHECK(!dict.at("fc.weight").requires_grad());
    // A copy: changing the dict leaves the model as it was.
    const double w = a.fc->weight.at({0, 0});
    dict.at("fc.weight").fill_(7);
    CHECK(a.fc->weight.at({0, 0}) == w);

    Generator g(3);
    Tensor x = randn({2, 4}, g);
    const nn::StateDictKeys keys = b.load_state_dict(a.state_dict());
    CHECK(keys.missing.empty());
    CHECK(keys.unexpected.empty());
    CHECK(b.forward(x).to_vector() == a.forward(x).to_vector());
    CHECK(b.fc->weight.requires_grad());
}

TEST_CASE("load_state_dict names every missing, unexpected and mis-shaped parameter in one error", "[errors]") {
    Net a(1), b(2);
    nn::StateDict dict = a.state_dict();
    dict.erase("fc.bias");
    dict.erase("norm.beta");
    dict["head.weight"] = zeros({2, 2});
    dict["fc.weight"] = zeros({4, 3});
    dict["norm.gamma"] = zeros({5});
    const std::vector<double> before = b.fc->weight.to_vector();
    CHECK_THROWS_WITH(b.load_state_dict(dict),
                      "load_state_dict: missing fc.bias, norm.beta; unexpected head.weight; shapes differ for "
                      "fc.weight ([4, 3] in the dict, [3, 4] in the module), norm.gamma ([5] in the dict, [3] in the "
                      "module); nothing was loaded");
    CHECK(b.fc->weight.to_vector() == before);

    // Not strict: the missing and unexpected names are passed over and returned; a shape that
    // differs is still refused.
    CHECK_THROWS_WITH(b.load_state_dict(dict, false),
                      Catch::Contains("shapes differ for fc.weight") && !Catch::Contains("missing"));
    dict["fc.weight"] = a.fc->weight.detach();
    dict["norm.gamma"] = a.norm->gamma.detach();
    const nn::StateDictKeys keys = b.load_state_dict(dict, false);
    CHECK(keys.missing == std::vector<std::string>{"fc.bias", "norm.beta"});
    CHECK(keys.unexpected == std::vector<std::string>{"head.weight"});
    CHECK(b.fc->weight.to_vector() == a.fc->weight.to_vector());
}
