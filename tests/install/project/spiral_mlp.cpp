// An MLP learns two interleaved spirals: AdamW, cross-entropy, then a checkpoint
// saved and loaded into a second model, which must give the same predictions.
//   ./spiral_mlp CHECKPOINT_PATH
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <vector>

#include <fmt/format.h>

#include "lectern/nn/nn.h"

using autograd::Tensor;

// Two classes of `per_class` points each on spirals of one and a half turns.
void make_spirals(std::int64_t per_class, autograd::Generator& gen, Tensor& x, Tensor& y) {
    std::vector<double> points, labels;
    const Tensor noise = autograd::randn({2 * per_class, 2}, gen) * 0.05;
    const std::vector<double> jitter = noise.to_vector();
    for (std::int64_t c = 0; c < 2; ++c)
        for (std::int64_t i = 0; i < per_class; ++i) {
            const double r = static_cast<double>(i) / per_class;
            const double angle = 3 * std::numbers::pi * r + c * std::numbers::pi;
            const std::int64_t n = c * per_class + i;
            points.push_back(r * std::cos(angle) + jitter[2 * n]);
            points.push_back(r * std::sin(angle) + jitter[2 * n + 1]);
            labels.push_back(static_cast<double>(c));
        }
    x = autograd::tensor(points, {2 * per_class, 2});
    y = autograd::tensor(labels, {2 * per_class}, autograd::Dtype::int64);
}

// 2 -> 64 -> 64 -> 2, tanh between the layers.
class MLP : public nn::Module {
public:
    explicit MLP(autograd::Generator& gen)
        : fc1(register_module("fc1", std::make_shared<nn::Linear>(2, 64, true, gen))),
          fc2(register_module("fc2", std::make_shared<nn::Linear>(64, 64, true, gen))),
          out(register_module("out", std::make_shared<nn::Linear>(64, 2, true, gen))) {}
    Tensor forward(const Tensor& x) const {
        return out->forward(autograd::tanh(fc2->forward(autograd::tanh(fc1->forward(x)))));
    }

private:
    std::shared_ptr<nn::Linear> fc1, fc2, out;
};

double accuracy(const Tensor& logits, const Tensor& y) {
    const std::vector<double> predicted = autograd::argmax(logits, 1).to_vector(), truth = y.to_vector();
    std::int64_t right = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) right += predicted[i] == truth[i];
    return static_cast<double>(right) / static_cast<double>(truth.size());
}

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: spiral_mlp CHECKPOINT_PATH\n");
        return 2;
    }
    autograd::Generator gen(7);
    Tensor x, y;
    make_spirals(200, gen, x, y);
    MLP model(gen);
    nn::optim::AdamW optimizer(model.parameters(), {.lr = 1e-2, .weight_decay = 1e-4});
    for (int step = 1; step <= 400; ++step) {
        optimizer.zero_grad();
        Tensor loss = autograd::cross_entropy(model.forward(x), y);
        loss.backward();
        optimizer.step();
        if (step % 100 == 0) fmt::print("step {}  loss {:.4f}\n", step, loss.item());
    }
    autograd::NoGradGuard no_grad;
    const Tensor logits = model.forward(x);
    fmt::print("spiral: training accuracy {:.3f}\n", accuracy(logits, y));

    nn::save_checkpoint(argv[1], model, &optimizer);
    autograd::Generator other_seed(8);
    MLP reloaded(other_seed);
    nn::load_checkpoint(argv[1], reloaded);
    const std::vector<double> before = logits.to_vector(), after = reloaded.forward(x).to_vector();
    double largest_difference = 0;
    for (std::size_t i = 0; i < before.size(); ++i)
        largest_difference = std::max(largest_difference, std::abs(before[i] - after[i]));
    fmt::print("spiral: saved to {}, loaded into a model of other weights: logits differ by at most {}\n", argv[1],
               largest_difference);
    return largest_difference == 0 ? 0 : 1;
}
