// Lectern against PyTorch: attention for entailment (004 §15.4.6 eq. 15.49-15.53), values and every
// gradient in float64, with padding in a premise and in a hypothesis (make_reference.py writes the
// model out from the equations).
#include "lectern/models/decomposable_attention.h"
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
