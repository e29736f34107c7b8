// Lectern against PyTorch for what training adds: a whole Transformer's
// log-probabilities and loss gradient, the label-smoothed loss, Adam and AdamW
// over several steps, the warmup schedule.
#include "lectern/models/transformer.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/nn/optim/adamw.h"
#include "reference_case.h"

using namespace autograd;

TEST_CASE("a whole tiny Transformer matches PyTorch: log-probabilities, loss and every parameter's gradient",
          "[reference]") {
    reference::Case ref("transformer");
    auto model = reference::tiny_transformer(ref);
    const Tensor &src = ref["src"], &tgt_in = ref["tgt_in"];
    Tensor out = model->forward(src, tgt_in, nn::padding_mask(src, 0), models::target_mask(tgt_in, 0));
    Tensor log_probs = model->generator->forward(out);
    ref.compare("out.log_probs", log_probs);
    Tensor loss = nn::LabelSmoothingLoss(7, 0, 0.1)(log_probs, ref["tgt_out"]);
    ref.compare("out.loss", reshape(loss, {1}));
    loss.backward();
    for (const auto& [name, p] : model->named_parameters()) ref.compare("grad." + name, p.grad());
}

TEST_CASE("the label-smoothed loss matches PyTorch (the KL form of 001's full post, mean over tokens)", "[reference]") {
    reference::Case ref("label_smoothing");
    Tensor logits = ref.input("logits");
    Tensor loss = nn::LabelSmoothingLoss(5, 0, 0.2)(log_softmax(logits, -1), ref["target"]);
    ref.compare("out.loss", reshape(loss, {1}));
    loss.backward();
    ref.compare("grad.logits", logits.grad());
}

TEST_CASE("Adam and AdamW match torch.optim over five steps, with weight decay and a parameter first updated at step 3",
          "[reference]") {
    for (bool decoupled : {false, true}) {
        reference::Case ref(decoupled ? "adamw" : "adam");
        Tensor a = ref.input("a"), late = ref.input("late");
        std::unique_ptr<nn::optim::Optimizer> opt;
        if (decoupled)
            opt = std::make_unique<nn::optim::AdamW>(
                std::vector<Tensor>{a, late},
                nn::optim::AdamWOptions{.lr = 0.05, .beta1 = 0.9, .beta2 = 0.98, .eps = 1e-8, .weight_decay = 0.1});
        else
            opt = std::make_unique<nn::optim::Adam>(
                std::vector<Tensor>{a, late},
                nn::optim::AdamOptions{.lr = 0.05, .beta1 = 0.9, .beta2 = 0.98, .eps = 1e-8, .weight_decay = 0.01});
        for (int s = 1; s <= 5; ++s) {
            a.set_grad(ref["grad.a." + std::to_string(s)]);
            if (s >= 3) late.set_grad(ref["grad.late." + std::to_string(s)]);
            opt->step();
            ref.compare("after.a." + std::to_string(s), a, 1e-14);
            ref.compare("after.late." + std::to_string(s), late, 1e-14);
        }
    }
}

TEST_CASE("the warmup schedule matches rate() of 001's full post: factor d^-0.5 min(s^-0.5, s w^-1.5)", "[reference]") {
    reference::Case ref("warmup");
    nn::WarmupSchedule schedule(8, 4, 2.0);
    std::vector<double> lr;
    for (std::int64_t s = 1; s <= 12; ++s) lr.push_back(schedule.lr(s));
    ref.compare("lr", tensor(lr, {12}, Dtype::float64), 1e-15);
}
