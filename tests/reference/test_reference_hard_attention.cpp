// Lectern against PyTorch: hard attention (004 §15.4.7) with its draws fixed, and the
// score-function estimator's loss L = -(1/B) sum_b (r_b - b) log p(z_b), values and gradients in
// float64 (make_reference.py writes both out with torch.log_softmax and indexing).
#include "lectern/nn/hard_attention.h"
#include "lectern/nn/reinforce.h"
#include "reference_case.h"

using namespace autograd;

TEST_CASE("hard attention's glimpse matches PyTorch: c = v_z and log p(z) = log_softmax(s)_z", "[reference]") {
    reference::Case ref("hard_attention_glimpse");
    Tensor s = ref.input("scores"), v = ref.input("values");
    nn::Glimpse g = nn::glimpse(s, v, ref["chosen"]);
    Tensor out = concat({g.value, reshape(g.log_prob, {g.log_prob.size(0), 1})}, 1);  // [B, D + 1]
    ref.compare("out.value_and_log_prob", out);
    ref.compare_gradients(out, {{"scores", s}, {"values", v}});
}

TEST_CASE("the score-function estimator's loss matches PyTorch: -(1/B) sum (r - b) log p(z)", "[reference]") {
    reference::Case ref("reinforce_loss");
    Tensor s = ref.input("scores"), v = ref.input("values");
    Tensor loss = nn::reinforce_loss(nn::glimpse(s, v, ref["chosen"]).log_prob, ref["reward"], ref["baseline"].item());
    ref.compare("out.loss", reshape(loss, {1}));
    ref.compare_gradients(reshape(loss, {1}), {{"scores", s}, {"values", v}});
}
