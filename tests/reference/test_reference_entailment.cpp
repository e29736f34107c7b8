// Lectern against PyTorch: attention for entailment (004 §15.4.6 eq. 15.49-15.53) and its STS
// variant, values and every gradient in float64, with padding in a premise and in a hypothesis
// (make_reference.py writes the models out from the equations).
#include "lectern/models/decomposable_attention.h"
#include "lectern/models/textual_similarity.h"
#include "reference_case.h"

using namespace autograd;

TEST_CASE("attention for entailment matches PyTorch: e_ij, beta, alpha, v_A, v_B, h, padding", "[reference]") {
    reference::Case ref("decomposable_attention");
    models::DecomposableAttentionConfig c;
    c.vocab = 9, c.d_embed = 4, c.hidden = 5;
    models::DecomposableAttention m(c);
    m.to(Dtype::float64);
    ref.load_parameters(m);
    Tensor logits = m.forward(ref["premise"], ref["hypothesis"]);
    ref.compare("out.logits", logits);
    ref.compare_gradients(logits, {}, &m);
}

TEST_CASE("textual similarity matches PyTorch: 5 sigmoid(h) of one output, padding (004 §15.4.6)", "[reference]") {
    reference::Case ref("textual_similarity");
    models::DecomposableAttentionConfig c;
    c.vocab = 9, c.d_embed = 4, c.hidden = 5, c.classes = 1;
    models::TextualSimilarity m(c);
    m.to(Dtype::float64);
    ref.load_parameters(m);
    Tensor score = m.forward(ref["premise"], ref["hypothesis"]);
    ref.compare("out.score", score);
    ref.compare_gradients(score, {}, &m);
}
