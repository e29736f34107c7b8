// A tiny GPT learns a repeating sequence of tokens by next-token cross-entropy,
// then continues a prompt of it.
#include <cstdint>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lectern/models/models.h"

using autograd::Tensor;

int main() {
    models::GPTConfig config;
    config.vocab = 8;
    config.context = 16;
    config.d_model = 32;
    config.n_layers = 2;
    config.heads = 2;
    config.d_ff = 64;
    config.seed = 1;
    auto model = models::make_gpt(config);
    fmt::print("tiny GPT: {} parameters\n", model->parameter_count());

    // The sequence 0 1 2 ... 7 0 1 2 ...: each token's successor is its number plus one.
    std::vector<double> tokens;
    for (int i = 0; i < 4 * 17; ++i) tokens.push_back(i % 8);
    std::vector<double> inputs, targets;
    for (int row = 0; row < 4; ++row)
        for (int t = 0; t < 16; ++t) {
            inputs.push_back(tokens[row * 17 + t]);
            targets.push_back(tokens[row * 17 + t + 1]);
        }
    const Tensor ids = autograd::tensor(inputs, {4, 16}, autograd::Dtype::int64);
    const Tensor next = autograd::tensor(targets, {4 * 16}, autograd::Dtype::int64);

    nn::optim::AdamW optimizer(model->parameters(), {.lr = 3e-3});
    double first_loss = 0, last_loss = 0;
    for (int step = 1; step <= 60; ++step) {
        optimizer.zero_grad();
        const Tensor logits = model->forward(ids);  // [4, 16, vocab]
        Tensor loss = autograd::cross_entropy(logits.reshape({4 * 16, config.vocab}), next);
        loss.backward();
        optimizer.step();
        (step == 1 ? first_loss : last_loss) = loss.item();
    }
    fmt::print("tiny GPT: loss {:.3f} at the first step, {:.3f} at the 60th\n", first_loss, last_loss);

    model->eval();
    autograd::NoGradGuard no_grad;
    autograd::Generator gen(0);
    const std::vector<std::int64_t> continued =
        models::generate(*model, {3, 4, 5}, {.max_new_tokens = 6, .temperature = 0.0}, gen);
    fmt::print("tiny GPT: 3 4 5 continues as {}\n", fmt::join(continued, " "));
}
