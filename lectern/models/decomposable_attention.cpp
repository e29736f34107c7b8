#include "lectern/models/decomposable_attention.h"

#include <fmt/format.h>

#include "lectern/nn/attention_mask.h"

namespace models {

using namespace autograd;

namespace {

// ids [B, T] -> the padding mask [B, 1, T] (int64, 1 for a word); ValueError for a sentence of padding only.
Tensor word_mask(const Tensor& ids, std::int64_t pad, const char* which) {
    Tensor mask = nn::padding_mask(ids, pad);
    const std::int64_t B = ids.size(0), T = ids.size(1);
    const std::int64_t* m = mask.data<std::int64_t>();
    for (std::int64_t b = 0; b < B; ++b) {
        std::int64_t words = 0;
        for (std::int64_t t = 0; t < T; ++t) words += m[b * T + t] != 0;
        if (words == 0) throw ValueError(fmt::format("DecomposableAttention: {} {} is all padding", which, b));
    }
    return mask;
}

// sum_t m_t x_t over the words of each sentence: x [B, T, H], mask [B, 1, T] -> [B, H].
Tensor sum_words(const Tensor& x, const Tensor& mask) {
    return sum(x * reshape(mask, {mask.size(0), mask.size(2), 1}).to(x.dtype()), 1);
}

}  // namespace

DecomposableAttention::DecomposableAttention(const DecomposableAttentionConfig& c) : config(c) {
    if (c.vocab <= 0 || c.d_embed <= 0 || c.hidden <= 0 || c.classes <= 0)
        throw ValueError(fmt::format("DecomposableAttention: vocab {}, E = {}, H = {} and {} classes must be positive",
                                     c.vocab, c.d_embed, c.hidden, c.classes));
    if (c.pad < 0 || c.pad >= c.vocab)
        throw ValueError(
            fmt::format("DecomposableAttention: the padding id {} is not in the vocabulary [0, {})", c.pad, c.vocab));
    Generator gen(c.seed);
    const std::int64_t E = c.d_embed, H = c.hidden;
    const bool compare = c.alignment != Alignment::none;
    embed = register_module("embed", std::make_shared<nn::Embedding>(c.vocab, E, false, gen));
    if (c.alignment == Alignment::soft) {
        f_1 = register_module("f_1", std::make_shared<nn::Linear>(E, H, true, gen));
        f_2 = register_module("f_2", std::make_shared<nn::Linear>(H, H, true, gen));
    }
    g_1 = register_module("g_1", std::make_shared<nn::Linear>(compare ? 2 * E : E, H, true, gen));
    g_2 = register_module("g_2", std::make_shared<nn::Linear>(H, H, true, gen));
    h_1 = register_module("h_1", std::make_shared<nn::Linear>(2 * H, H, true, gen));
    h_2 = register_module("h_2", std::make_shared<nn::Linear>(H, c.classes, true, gen));
}

Tensor DecomposableAttention::forward(const Tensor& premise, const Tensor& hypothesis,
                                      AlignmentWeights* weights) const {
    check_dtype("DecomposableAttention", premise, Dtype::int64, "premise");
    check_dtype("DecomposableAttention", hypothesis, Dtype::int64, "hypothesis");
    if (premise.dim() != 2 || hypothesis.dim() != 2 || premise.size(0) != hypothesis.size(0) || premise.size(1) == 0 ||
        hypothesis.size(1) == 0)
        throw ShapeError(fmt::format("DecomposableAttention: premise {} and hypothesis {} must be [B, m] and [B, n]",
                                     shape_str(premise.shape()), shape_str(hypothesis.shape())));
    if (weights && config.alignment == Alignment::none)
        throw ValueError("DecomposableAttention: a model without comparison (Alignment::none) aligns nothing");
    const Tensor mask_a = word_mask(premise, config.pad, "premise");        // [B, 1, m]
    const Tensor mask_b = word_mask(hypothesis, config.pad, "hypothesis");  // [B, 1, n]
    auto f = [&](const Tensor& x) { return relu((*f_2)(relu((*f_1)(x)))); };
    auto g = [&](const Tensor& x) { return relu((*g_2)(relu((*g_1)(x)))); };
    auto h = [&](const Tensor& x) { return (*h_2)(relu((*h_1)(x))); };
    const Tensor a = (*embed)(premise), b = (*embed)(hypothesis);  // a_i [B, m, E], b_j [B, n, E]

    Tensor v_A, v_B;
    if (config.alignment == Alignment::none) {  // no comparison: each sentence encoded alone
        v_A = sum_words(g(a), mask_a);
        v_B = sum_words(g(b), mask_b);
    } else {
        // e_ij = f(a_i)^T f(b_j), or 0 for the uniform ablation                  [B, m, n]
        const Tensor e = f_1 ? matmul(f(a), f(b), false, true) : zeros({a.size(0), a.size(1), b.size(1)}, a.dtype());
        // beta_i = sum_j softmax_j(e_ij) b_j, over the hypothesis's words     [B, m, E]
        const Tensor to_hypothesis = masked_softmax(e, mask_b);
        const Tensor beta = matmul(to_hypothesis, b);
        // v_{A,i} = g([a_i, beta_i]),  v_A = sum_i v_{A,i}                     (15.49)
        v_A = sum_words(g(concat({a, beta}, 2)), mask_a);
        // alpha_j = sum_i softmax_i(e_ij) a_i, over the premise's words        (15.50) [B, n, E]
        const Tensor to_premise = masked_softmax(transpose(e, 1, 2), mask_a);
        const Tensor alpha = matmul(to_premise, a);
        // v_{B,j} = g([b_j, alpha_j]),  v_B = sum_j v_{B,j}                    (15.51, 15.52)
        v_B = sum_words(g(concat({b, alpha}, 2)), mask_b);
        if (weights) *weights = {to_hypothesis, to_premise};
    }
    // y_hat = h([v_A, v_B])                                                    (15.53) [B, classes]
    return h(concat({v_A, v_B}, 1));
}

}  // namespace models
