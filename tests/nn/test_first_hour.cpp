// A PyTorch user's first hour, written as they would write it (docs/library.md shows it): a
// Sequential MLP, a binary cross-entropy from logits, indexing, the method forms, printing
// with <<, and a dict of tensors saved and loaded.
#include <sstream>

#include "check.h"
#include "lectern/nn/activation.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/nn/safetensors.h"
#include "lectern/nn/sequential.h"
#include "temp_files.h"

using namespace autograd;

TEST_CASE("a PyTorch user's first hour: Sequential, BCE with logits, indexing, <<, a saved dict", "[module]") {
    // Two blobs in the plane, labelled 1 where x0 + x1 > 0.
    Generator gen(7);
    Tensor x = randn({64, 2}, gen);
    Tensor y = x.sum(1, true).gt(zeros({})).to(Dtype::float32);  // [64, 1]

    nn::Sequential model(std::make_shared<nn::Linear>(2, 16, true, gen), std::make_shared<nn::ReLU>(),
                         std::make_shared<nn::Linear>(16, 1, true, gen));
    nn::optim::Adam optimizer(model.parameters(), {.lr = 0.05});
    for (int step = 0; step < 100; ++step) {
        optimizer.zero_grad();
        Tensor loss = nn::binary_cross_entropy_with_logits(model(x), y);
        loss.backward();
        optimizer.step();
    }
    Tensor accuracy = model(x).gt(zeros({})).eq(y.gt(zeros({}))).to(Dtype::float32).mean();
    CHECK(accuracy.item() >= 0.95);

    Tensor first = x[0];                                        // x[0]: [2]
    Tensor every_other = x.slice(0, 0, kEnd, 2);                // x[::2]: [32, 2]
    Tensor picked = x.gather(1, zeros({64, 1}, Dtype::int64));  // x[:, 0:1]
    std::ostringstream os;
    os << first.pow(2).sum() << " " << every_other.shape()[0] << " " << picked.argmax(0);
    CHECK(os.str().starts_with("tensor("));

    testing::TempDir dir("first-hour");
    const std::string path = (dir.path / "state.safetensors").string();
    nn::write_safetensors(path, {{"x", x}, {"model.0.weight", model.state_dict().at("0.weight")}});
    std::map<std::string, Tensor> back = nn::read_safetensors(path);
    CHECK(back.at("x").to_vector() == x.to_vector());
    CHECK(back.at("model.0.weight").shape() == Shape{16, 2});
}
