// The library's later PyTorch-shaped pieces against PyTorch itself, in float64
// (make_library_torch_reference.py, run through python3-torch): ModuleDict, topk, x[mask]
// and masked_select, and the per-group learning rates of a schedule (LambdaLR's rule).
#include "lectern/nn/linear.h"
#include "lectern/nn/module_dict.h"
#include "lectern/nn/optim/sgd.h"
#include "reference_case.h"

using namespace autograd;

namespace {
// torch.nn.Module() with a trunk and heads = ModuleDict({"cls": ..., "box": ...}).
class TrunkAndHeads : public nn::Module {
public:
    TrunkAndHeads()
        : trunk(register_module("trunk", std::make_shared<nn::Linear>(3, 4))),
          heads(register_module("heads", std::make_shared<nn::ModuleDict>(std::vector<nn::ModuleDict::Item>{
                                             {"cls", std::make_shared<nn::Linear>(4, 2)},
                                             {"box", std::make_shared<nn::Linear>(4, 3, /*bias=*/false)}}))) {}
    std::shared_ptr<nn::Linear> trunk;
    std::shared_ptr<nn::ModuleDict> heads;
};
}  // namespace

TEST_CASE("ModuleDict's parameters have torch.nn.ModuleDict's names, and its heads its values and gradients",
          "[reference]") {
    reference::Case ref("module_dict");
    TrunkAndHeads model;
    model.to(Dtype::float64);
    ref.load_parameters(model);  // by PyTorch's names: trunk.weight, ..., heads.cls.weight, heads.box.weight
    Tensor x = ref.input("x");
    Tensor h = tanh(model.trunk->forward(x));
    Tensor cls = model.heads->at<nn::Linear>("cls").forward(h), box = model.heads->at<nn::Linear>("box").forward(h);
    ref.compare("out.cls", cls);
    ref.compare("out.box", box);
    (sum(cls * ref["dout.cls"]) + sum(box * ref["dout.box"])).backward();
    ref.compare("grad.x", x.grad());
    for (const auto& [name, p] : model.named_parameters()) ref.compare("grad." + name, p.grad());
}

TEST_CASE("topk matches torch.topk: values, indices and the gradient, largest and smallest", "[reference]") {
    reference::Case ref("topk");
    Tensor x = ref.input("x");
    TopK largest = topk(x, 2, 1), smallest = topk(x, 3, 0, /*largest=*/false);
    ref.compare("out.largest", largest.values);
    ref.compare("out.largest_indices", largest.indices, 0);
    ref.compare("out.smallest", smallest.values);
    ref.compare("out.smallest_indices", smallest.indices, 0);
    (sum(largest.values * ref["dout.largest"]) + sum(smallest.values * ref["dout.smallest"])).backward();
    ref.compare("grad.x", x.grad());
}

TEST_CASE("x[mask] and masked_select match PyTorch's boolean indexing and torch.masked_select", "[reference]") {
    reference::Case ref("boolean_mask");
    Tensor x = ref.input("x");
    Tensor picked = x[ref["mask.rows"]], selected = masked_select(x, ref["mask.cols"]);
    ref.compare("out.index", picked);
    ref.compare("out.select", selected);
    (sum(picked * ref["dout.index"]) + sum(selected * ref["dout.select"])).backward();
    ref.compare("grad.x", x.grad());
}

TEST_CASE("scale_lr gives each param group LambdaLR's rate: its initial lr times the factor", "[reference]") {
    reference::Case ref("lambda_lr");
    Tensor a = zeros({1}, Dtype::float64).requires_grad_(), b = zeros({1}, Dtype::float64).requires_grad_();
    nn::optim::SGD sgd(std::vector<nn::optim::ParamGroup>{{{a}}, {{b}, 0.5}}, {.lr = 0.1});
    std::vector<double> lrs;
    for (int step = 0; step < 4; ++step) {
        sgd.scale_lr(1.0 / (1 + step));
        for (const auto& group : sgd.param_groups()) lrs.push_back(*group.lr);
    }
    ref.compare("lr", tensor(lrs, {4, 2}, Dtype::float64), 1e-15);
}
