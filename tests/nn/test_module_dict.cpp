// nn::ModuleDict: named submodules in insertion order, seen by parameters() and state_dict().
#include "check.h"
#include "lectern/nn/activation.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/module_dict.h"

using namespace autograd;

namespace {
// A model with a trunk and a dict of heads, as a multi-task network holds them.
class TwoHeads : public nn::Module {
public:
    TwoHeads()
        : trunk(register_module("trunk", std::make_shared<nn::Linear>(2, 3))),
          heads(register_module("heads", std::make_shared<nn::ModuleDict>(std::vector<nn::ModuleDict::Item>{
                                             {"cls", std::make_shared<nn::Linear>(3, 4)},
                                             {"act", std::make_shared<nn::ReLU>()},
                                             {"box", std::make_shared<nn::Linear>(3, 2, /*bias=*/false)}}))) {}
    std::shared_ptr<nn::Linear> trunk;
    std::shared_ptr<nn::ModuleDict> heads;
};
}  // namespace

TEST_CASE("ModuleDict registers its modules under their keys, in insertion order", "[module]") {
    TwoHeads model;
    std::vector<std::string> names;
    for (const auto& [name, p] : model.named_parameters()) names.push_back(name);
    // not sorted: "cls" before "box", as inserted (PyTorch's order too)
    CHECK(names == std::vector<std::string>{"trunk.weight", "trunk.bias", "heads.cls.weight", "heads.cls.bias",
                                            "heads.box.weight"});
    CHECK(model.parameters().size() == 5);
    CHECK(model.parameter_count() == 6 + 3 + 12 + 4 + 6);
    nn::StateDict state = model.state_dict();
    CHECK(state.count("heads.box.weight") == 1);
    CHECK(state.at("heads.box.weight").shape() == Shape{2, 3});

    nn::ModuleDict& heads = *model.heads;
    CHECK(heads.size() == 3);
    CHECK(heads.keys() == std::vector<std::string>{"cls", "act", "box"});
    CHECK(heads.contains("act"));
    CHECK_FALSE(heads.contains("seg"));
    CHECK(&heads.at<nn::Linear>("cls") == &heads["cls"]);
    std::vector<std::string> walked;
    for (const auto& [key, m] : heads) walked.push_back(key);
    CHECK(walked == heads.keys());

    // the modules are the dict's: to() and eval() reach them
    model.to(Dtype::float64);
    CHECK(heads.at<nn::Linear>("box").weight.dtype() == Dtype::float64);
    model.eval();
    CHECK_FALSE(heads["act"].is_training());

    heads.insert("seg", std::make_shared<nn::Linear>(3, 1));
    CHECK(model.named_parameters().back().first == "heads.seg.bias");
}

TEST_CASE("ModuleDict refuses a key it has, and names its keys for one it lacks", "[errors]") {
    nn::ModuleDict d({{"a", std::make_shared<nn::ReLU>()}});
    CHECK_THROWS_AS(d.insert("a", std::make_shared<nn::Tanh>()), ValueError);
    CHECK_THROWS_AS(d.insert("b.c", std::make_shared<nn::Tanh>()), ValueError);
    CHECK_THROWS_WITH(d["z"], "ModuleDict: no module named 'z'; the keys are [a]");
    CHECK_THROWS_WITH(d.at<nn::Linear>("a"), "ModuleDict: the module 'a' is not of the type asked for");
}
