// The optimizer state a checkpoint holds must be exactly
// the optimizer's. Renamed, missing or extra moment records (a file whose
// checksum was recomputed after the edit) once resumed a run other than the
// one saved, with exit status 0, and unknown records were carried into the
// next file. Each is refused, naming the first record that does not fit, and
// the optimizer and the model are left as they were.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "lectern/nn/checkpoint.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/nn/optim/sgd.h"
#include "temp_files.h"

using namespace autograd;
using State = std::vector<std::pair<std::string, Tensor>>;

namespace {

// Two steps of `opt` on a Linear(3, 2): every parameter updated twice.
void train(nn::Linear& model, nn::optim::Optimizer& opt) {
    for (int k = 0; k < 2; ++k) {
        opt.zero_grad();
        Tensor x = ones({4, 3});
        sum(model.forward(x) * model.forward(x)).backward();
        opt.step();
    }
}

State renamed(State s, const std::string& from, const std::string& to) {
    for (auto& [name, t] : s)
        if (name == from) name = to;
    return s;
}

State without(State s, const std::string& gone) {
    std::erase_if(s, [&](const auto& r) { return r.first == gone; });
    return s;
}

}  // namespace

TEST_CASE("optimizer state whose names are not exactly the optimizer's is refused, naming the record",
          "[optim][hostile]") {
    nn::Linear model(3, 2);
    nn::optim::Adam opt(model.parameters(), {.lr = 0.1});
    train(model, opt);
    const State good = opt.named_state();
    const std::vector<double> moment = good.front().second.to_vector();
    auto refused = [&](const State& s, const std::string& what) {
        CHECK_THROWS_WITH(opt.load_state(s, 2), Catch::Contains(what));
        CHECK(opt.named_state().size() == good.size());
        CHECK(opt.named_state().front().second.to_vector() == moment);
    };
    refused(renamed(good, "exp_avg.1", "exp_avgX.1"), "state 'exp_avgX.1' is not this optimizer's");
    refused(without(good, "exp_avg_sq.0"), "state 'exp_avg_sq.0' is missing: parameter 0 was updated 2 times");
    State extra = good;
    extra.emplace_back("momentum_buffer.0", zeros(model.parameters()[0].shape()));
    refused(extra, "state 'momentum_buffer.0' is not this optimizer's");
    refused(without(good, "step.1"), "state 'exp_avg.1' is for parameter 1, which records no update");
    State twice = good;
    twice.push_back(good.front());
    refused(twice, "appears twice");
    opt.load_state(good, 2);  // the state it saved loads
    CHECK(opt.named_state().size() == good.size());
}

TEST_CASE("a checkpoint of one optimizer's state does not resume another", "[io][optim][hostile]") {
    testing::TempDir dir("hostile-optim");
    nn::Linear saved_model(3, 2);
    nn::optim::SGD momentum(saved_model.parameters(), {.lr = 0.1, .momentum = 0.9});
    nn::optim::SGD plain_sgd(saved_model.parameters(), {.lr = 0.1});
    nn::optim::Adam adam(saved_model.parameters(), {.lr = 0.1});
    train(saved_model, momentum);
    train(saved_model, plain_sgd);
    train(saved_model, adam);
    nn::save_checkpoint(dir.file("momentum.ckpt"), saved_model, &momentum);
    nn::save_checkpoint(dir.file("plain.ckpt"), saved_model, &plain_sgd);
    nn::save_checkpoint(dir.file("adam.ckpt"), saved_model, &adam);

    nn::Linear model(3, 2);
    nn::optim::Adam resumed(model.parameters(), {.lr = 0.1});
    nn::optim::SGD resumed_sgd(model.parameters(), {.lr = 0.1});
    const std::vector<double> weight = model.parameters()[0].to_vector();
    // SGD's momentum where Adam keeps its moments: renamed records
    CHECK_THROWS_WITH(nn::load_checkpoint(dir.file("momentum.ckpt"), model, &resumed),
                      Catch::Contains("state 'momentum_buffer.0' is not this optimizer's"));
    // SGD without momentum keeps step counts alone: Adam's moments are missing
    CHECK_THROWS_WITH(nn::load_checkpoint(dir.file("plain.ckpt"), model, &resumed),
                      Catch::Contains("state 'exp_avg.0' is missing"));
    // Adam's moments for an SGD without momentum: extra records, never carried on
    CHECK_THROWS_WITH(nn::load_checkpoint(dir.file("adam.ckpt"), model, &resumed_sgd),
                      Catch::Contains("state 'exp_avg.0' is not this optimizer's"));
    CHECK(model.parameters()[0].to_vector() == weight);
    nn::load_checkpoint(dir.file("adam.ckpt"), model, &resumed);
    CHECK(resumed.named_state().size() == adam.named_state().size());
}
