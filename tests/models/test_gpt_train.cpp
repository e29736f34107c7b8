// Training end to end: a tiny GPT learns a short repeated text to near-zero loss.
#include <chrono>
#include <string>

#include "check.h"
#include "lectern/models/generate.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/optim/adamw.h"

using namespace autograd;

namespace {

// Trains on random windows of "the cat sat on the mat. " repeated; returns the
// last batch's loss on the positions that see at least 6 characters (" the "
// occurs twice, so the next character is determined only after 6 characters;
// under block-local attention a position sees only its own block).
double learn_repeated_text(std::int64_t experts, std::int64_t block, int steps, std::shared_ptr<models::GPT>& model) {
    const std::string text = "the cat sat on the mat. ";
    const std::string alphabet = "the casonm.";  // the distinct characters, the space included below
    auto id = [&](char ch) { return ch == ' ' ? std::int64_t{11} : static_cast<std::int64_t>(alphabet.find(ch)); };
    models::GPTConfig c;
    c.vocab = 12, c.context = 16, c.d_model = 32, c.n_layers = 1, c.heads = 2, c.d_ff = 64;
    c.experts = experts, c.block = block, c.seed = 1;
    model = models::make_gpt(c);
    nn::optim::AdamW opt(model->parameters(), {.lr = 1e-2, .weight_decay = 0.0});
    Generator gen(2);
    const std::int64_t B = 8, T = 16;
    const std::int64_t span = block > 0 ? block : T;  // the characters a position can see
    double last = 0;
    for (int step = 0; step < steps; ++step) {
        Tensor x = Tensor::empty({B, T}, Dtype::int64), y = Tensor::empty({B, T}, Dtype::int64);
        for (std::int64_t b = 0; b < B; ++b) {
            std::int64_t start = gen.randint(static_cast<std::int64_t>(text.size()));
            for (std::int64_t t = 0; t < T; ++t) {
                x.data<std::int64_t>()[b * T + t] = id(text[(start + t) % text.size()]);
                y.data<std::int64_t>()[b * T + t] = id(text[(start + t + 1) % text.size()]);
            }
        }
        opt.zero_grad();
        Tensor logits = model->forward(x);
        Tensor loss = cross_entropy(logits, y) + model->aux_loss() * 0.01;
        loss.backward();
        opt.step();
        Tensor certain = y.clone();
        for (std::int64_t i = 0; i < B * T; ++i)
            if (i % T % span < 5) certain.data<std::int64_t>()[i] = -100;  // ignored
        last = cross_entropy(logits, certain).item();
    }
    return last;
}

}  // namespace

TEST_CASE("a tiny GPT learns a repeated sentence to near-zero loss and then recites it", "[train]") {
    set_num_threads(1);
    auto start = std::chrono::steady_clock::now();
    std::shared_ptr<models::GPT> model;
    double loss = learn_repeated_text(0, 0, 400, model);
    INFO("final loss " << loss << " nats/char after "
                       << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s");
    CHECK(loss < 0.05);
    // Greedy continuation of "the c" (ids of t h e ' ' c) is "at sat on the mat"
    Generator gen(0);
    std::vector<std::int64_t> out =
        models::generate(*model, {0, 1, 2, 11, 4}, {.max_new_tokens = 6, .temperature = 0}, gen);
    CHECK(out == std::vector<std::int64_t>{5, 0, 11, 6, 5, 0});  // "at sat"
}

TEST_CASE("a tiny GPT with a mixture of experts and block-local attention learns it too", "[train]") {
    set_num_threads(1);
    std::shared_ptr<models::GPT> model;
    double loss = learn_repeated_text(4, 8, 1000, model);
    INFO("final loss " << loss);
    CHECK(loss < 0.05);
}
