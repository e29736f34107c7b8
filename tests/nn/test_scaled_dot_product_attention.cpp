// Scaled dot-product attention and multi-head attention by value: the notes'
// worked example step by step, masks, and the heads computed one by one.
#include <cmath>
#include <utility>

#include "check.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/init.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/nn/scaled_dot_product_attention.h"

using namespace autograd;

TEST_CASE("attention reproduces 002's worked example step by step (scores 102 and 99, D_K = 3)", "[module]") {
    // 002 "Self-Attention: Step-by-Step": q_1 k_1^T = 102, q_1 k_2^T = 99; divided by sqrt(D_K) they are
    // 58.9 and 57.2, so D_K = 3; the softmax gives p_11 = 0.85, p_12 = 0.15; then Z = P V.
    Tensor q = tensor({1, 1, 1}, {1, 1, 3}, Dtype::float64);
    Tensor k = tensor({34, 34, 34, 33, 33, 33}, {1, 2, 3}, Dtype::float64);
    Tensor v = tensor({1, 0, 0, 0, 1, 0}, {1, 2, 3}, Dtype::float64);
    // Step 2: the scores.
    require_values(matmul(q, k, false, true), {102, 99}, 0);
    // Step 3: divided by sqrt(D_K), as the slide rounds them.
    require_values(matmul(q, k, false, true) / std::sqrt(3.0), {58.9, 57.2}, 0.05);
    // Step 4: the softmax, to the slide's two digits and to the formula exactly.
    Tensor p = nn::attention_weights(q, k);
    require_values(p, {0.85, 0.15}, 0.005);
    const double p11 = 1 / (1 + std::exp(-3 / std::sqrt(3.0)));  // softmax of two scores differing by 3 / sqrt(3)
    require_values(p, {p11, 1 - p11}, 1e-15);
    // Steps 5 and 6: weight the values and sum them.
    require_values(nn::scaled_dot_product_attention(q, k, v), {p11, 1 - p11, 0}, 1e-15);
}

TEST_CASE("attention masks by value: causal, padding, and a fully masked row of zeros", "[module]") {
    // Scores q.k / sqrt(1) = position products; values name their key.
    Tensor q = tensor({1, 2, 3}, {3, 1}, Dtype::float64);
    Tensor k = tensor({0, 1, 2}, {3, 1}, Dtype::float64);
    Tensor v = tensor({10, 20, 30}, {3, 1}, Dtype::float64);
    auto softmax_of = [](std::vector<double> s) {
        double z = 0;
        for (double x : s) z += std::exp(x);
        for (double& x : s) x = std::exp(x) / z;
        return s;
    };
    // Causal (002's M, 001's subsequent_mask): query i sees keys 0..i.
    Tensor causal = nn::attention_weights(q, k, reshape(nn::subsequent_mask(3), {3, 3}));
    auto row2 = softmax_of({0, 2}), row3 = softmax_of({0, 3, 6});
    require_values(causal, {1, 0, 0, row2[0], row2[1], 0, row3[0], row3[1], row3[2]}, 1e-15);
    // Padding: key 2 is padding for every query; query 0 additionally sees nothing.
    Tensor mask = tensor({0, 0, 0, 1, 1, 0, 1, 1, 0}, {3, 3}, Dtype::int64);
    Tensor z = nn::scaled_dot_product_attention(q, k, v, mask);
    auto r2 = softmax_of({0, 2}), r3 = softmax_of({0, 3});
    require_values(z, {0, 10 * r2[0] + 20 * r2[1], 10 * r3[0] + 20 * r3[1]}, 1e-12);
}

TEST_CASE(
    "multi-head attention equals its heads computed one by one from slices of the weights (001; 004 eq. 15.55-15.56)",
    "[module]") {
    // Keys and values of the query's width D, then of their own widths (003: d_X != d_Y; kdim, vdim).
    const std::int64_t B = 2, T = 4, S = 3, D = 6, H = 3, dk = D / H;
    for (auto [kdim, vdim] : {std::pair<std::int64_t, std::int64_t>{D, D}, {5, 2}}) {
        nn::MultiHeadAttention mha(D, H, kdim, vdim);
        mha.to(Dtype::float64);
        Generator gen(5);
        Tensor x = randn({B, T, D}, gen, Dtype::float64), keys = randn({B, S, kdim}, gen, Dtype::float64),
               values = randn({B, S, vdim}, gen, Dtype::float64);
        Tensor mask = tensor({1, 1, 0, 1, 1, 1}, {B, 1, S}, Dtype::int64);
        Tensor got = mha(x, keys, values, mask);  // [B, T, D]
        // head_i = Attention(x W_i^Q, keys W_i^K, values W_i^V), W_i = rows i*dk .. (i+1)*dk of each projection.
        std::vector<Tensor> heads;
        auto project = [](const Tensor& in, const nn::Linear& lin, std::int64_t i, std::int64_t dk) {
            return matmul(in, narrow(lin.weight, 0, i * dk, dk), false, true) + narrow(lin.bias, 0, i * dk, dk);
        };
        for (std::int64_t i = 0; i < H; ++i)
            heads.push_back(nn::scaled_dot_product_attention(project(x, *mha.w_q, i, dk),
                                                             project(keys, *mha.w_k, i, dk),
                                                             project(values, *mha.w_v, i, dk), mask));
        // MultiHead = Concat(head_1, ..., head_h) W^O.
        Tensor want = mha.w_o->forward(concat(heads, 2));
        INFO("kdim " << kdim << ", vdim " << vdim);
        CHECK(mha.w_k->weight.shape() == Shape{D, kdim});
        CHECK(mha.w_v->weight.shape() == Shape{D, vdim});
        require_values(got, want.to_vector(), 1e-12);
    }
}

TEST_CASE("without the 1/sqrt(D_K) scaling the weights start sharp and their gradient small (002)", "[module]") {
    // 002 "Why Use the 1/sqrt(D_K) Scaling?": at random initialisation unscaled scores (variance
    // D_K = 64) put almost all weight on one key, where the softmax's slope vanishes; scaled
    // (variance 1), the weights are spread. Per row of P: its largest weight, and the Frobenius
    // norm of the softmax's Jacobian diag(p) - p p^T, sqrt(S2 - 2 S3 + S2^2) with S_m = sum p^m.
    const std::int64_t n = 2000, keys = 16, dk = 64;
    Generator gen(21);
    Tensor q = randn({n, 1, dk}, gen, Dtype::float64), k = randn({n, keys, dk}, gen, Dtype::float64);
    auto sharpness = [](const Tensor& p) {
        Tensor s2 = sum(p * p, -1), s3 = sum(p * p * p, -1);
        return std::pair{mean(max(p, -1)).item(),
                         mean(sqrt(relu(s2 - 2.0 * s3 + s2 * s2))).item()};  // >= 0 but for rounding
    };
    auto [max_scaled, slope_scaled] = sharpness(nn::attention_weights(q, k));
    auto [max_unscaled, slope_unscaled] = sharpness(softmax(matmul(q, k, false, true), -1));
    INFO("mean largest weight: scaled " << max_scaled << ", unscaled " << max_unscaled << "; mean |Jacobian|: scaled "
                                        << slope_scaled << ", unscaled " << slope_unscaled);
    CHECK(max_unscaled > 0.75);  // about 0.84: nearly one-hot
    CHECK(max_scaled < 0.35);    // about 0.25 of 16 keys
    CHECK(slope_unscaled < 0.7 * slope_scaled);
}

TEST_CASE("q.k has variance d_k through Lectern's own projections, and the scaled score variance 1 (001)", "[module]") {
    // With x ~ N(0, 1) of width D and projections initialised N(0, 1/D), q and k have unit-variance
    // entries, so q.k sums d_k products of variance 1: var = d_k; dividing by sqrt(d_k) restores 1.
    const std::int64_t D = 64, dk = 64, n = 4000;
    Generator gen(11);
    nn::Linear w_q(D, dk, false, gen), w_k(D, dk, false, gen);
    nn::init::normal_(w_q.weight, 0, 1 / std::sqrt(static_cast<double>(D)), gen);
    nn::init::normal_(w_k.weight, 0, 1 / std::sqrt(static_cast<double>(D)), gen);
    NoGradGuard no_grad;
    Tensor q = w_q(randn({n, D}, gen)), k = w_k(randn({n, D}, gen));
    Tensor dots = sum(q * k, 1);  // n independent q.k
    auto variance = [](const Tensor& t) {
        double m = mean(t).item();
        return mean(pow(t - m, 2.0)).item();
    };
    const double var = variance(dots), scaled = variance(dots / std::sqrt(static_cast<double>(dk)));
    INFO("var(q.k) = " << var << " for d_k = " << dk << "; scaled: " << scaled);
    CHECK(std::abs(var / dk - 1) < 0.1);
    CHECK(std::abs(scaled - 1) < 0.1);
}
