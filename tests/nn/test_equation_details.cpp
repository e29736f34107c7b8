// Details of the equations that a plausible mistake would change while every
// gradient check still passed: Glorot's bound and fans, where LayerNorm's eps
// sits, and where dropout acts (on the sublayer's output, on the attention
// weights P, on the sum of embeddings and positions).
#include <algorithm>
#include <cmath>

#include "check.h"
#include "lectern/nn/init.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/nn/sinusoidal_positional_encoding.h"
#include "lectern/nn/sublayer_connection.h"

using namespace autograd;

TEST_CASE(
    "Xavier/Glorot uniform: bound a = sqrt(6 / (fan_in + fan_out)), fans from [out, in] and receptive fields (001 "
    "make_model)",
    "[module]") {
    Generator gen(1);
    struct Case {
        Shape shape;
        double fan_in, fan_out;
    };
    for (const Case& c : {Case{{300, 200}, 200, 300}, Case{{40, 50, 3}, 150, 120}}) {
        Tensor w = Tensor::empty(c.shape, Dtype::float64);
        nn::init::xavier_uniform_(w, gen);
        const double a = std::sqrt(6 / (c.fan_in + c.fan_out));
        std::vector<double> v = w.to_vector();
        double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
        double var = 0;
        for (double x : v) var += x * x / static_cast<double>(v.size());
        INFO("shape " << shape_str(c.shape) << ": bound " << a << ", range [" << lo << ", " << hi << "], variance "
                      << var);
        CHECK(lo >= -a);
        CHECK(hi <= a);
        CHECK(hi > 0.99 * a);  // the draws fill the whole interval, not a narrower one
        CHECK(lo < -0.99 * a);
        CHECK(var == Approx(2 / (c.fan_in + c.fan_out)).epsilon(0.03));  // a^2 / 3
    }
}

TEST_CASE("LayerNorm puts eps inside the square root: (a - mu) / sqrt(v + eps) (003), not / (sigma + eps)",
          "[module]") {
    // A row of tiny variance tells the two apart: a = [0, 1e-3], mu = 5e-4, v = 2.5e-7 (biased, over d).
    nn::LayerNorm ln(2, 1e-5);
    ln.to(Dtype::float64);
    Tensor y = ln(tensor({0, 1e-3}, {1, 2}, Dtype::float64));
    const double inside = 5e-4 / std::sqrt(2.5e-7 + 1e-5);  // 0.156: eps inside
    // Outside it would be 5e-4 / (5e-4 + 1e-5) = 0.980; 001's formula (unbiased std 7.07e-4, eps 1e-6
    // outside) gives 5e-4 / (7.07e-4 + 1e-6) = 0.706.
    require_values(y, {-inside, inside}, 1e-12);
}

TEST_CASE("dropout acts on the sublayer's output before the residual sum: x + dropout(F(LN(x))) (001, 003)",
          "[module]") {
    manual_seed(3);
    nn::SublayerConnection sub(8, 0.5, nn::Norm::pre);
    sub.to(Dtype::float64);
    Tensor x = randn({4, 8}, default_generator(), Dtype::float64);
    Tensor y = sub.forward(x, [](const Tensor& h) { return ones(h.shape(), h.dtype()); });  // F = 1 everywhere
    // y - x is F kept and scaled by 1 / (1 - p) = 2, or dropped: nothing else.
    std::vector<double> d = (y - x).to_vector();
    std::size_t dropped = 0;
    for (double e : d) {
        CHECK((std::abs(e) < 1e-12 || std::abs(e - 2) < 1e-12));
        dropped += std::abs(e) < 1e-12;
    }
    CHECK(dropped > 4);
    CHECK(dropped < 28);
}

TEST_CASE("attention dropout acts on the weights P, before P V (001's full post: p_attn = dropout(p_attn))",
          "[module]") {
    // One head, D = 1, W_Q = W_K = 0 so P is uniform, 1/3 per key; W_V = W_O = 1 and no biases:
    // out_t = sum_j dropout(P)_tj v_j. With v = [1, 10, 100] each kept subset of keys is readable.
    manual_seed(5);
    nn::MultiHeadAttention mha(1, 1, 0.5);
    mha.to(Dtype::float64);
    {
        NoGradGuard no_grad;
        mha.w_q->weight.fill_(0), mha.w_k->weight.fill_(0), mha.w_v->weight.fill_(1), mha.w_o->weight.fill_(1);
        for (auto* lin : {mha.w_q.get(), mha.w_k.get(), mha.w_v.get(), mha.w_o.get()}) lin->bias.fill_(0);
    }
    Tensor v = tensor({1, 10, 100}, {1, 3, 1}, Dtype::float64);
    Tensor out = mha(tensor({0, 0, 0, 0, 0, 0, 0, 0}, {1, 8, 1}, Dtype::float64), v, v);  // 8 queries
    require_values(mha.last_attention(), std::vector<double>(24, 1.0 / 3), 1e-15);        // P before dropout
    bool partial = false;
    for (double o : out.to_vector()) {
        // o = (2 / 3) * (sum of a subset of {1, 10, 100}): one digit per key, each 0 or 1.
        long digits = std::lround(o * 3 / 2);
        CHECK(std::abs(o - digits * 2.0 / 3) < 1e-12);
        CHECK((digits % 10 <= 1 && digits / 10 % 10 <= 1 && digits / 100 <= 1));
        partial = partial || (digits != 0 && digits != 111);  // some keys of a row dropped, not the whole output
    }
    CHECK(partial);
    mha.eval();
    require_values(mha(tensor({0}, {1, 1, 1}, Dtype::float64), v, v), {37}, 1e-12);  // no dropout: the mean, 111 / 3
}

TEST_CASE("positional-encoding dropout acts on the sum: dropout(x + P) (001 'Positional Encoding')", "[module]") {
    manual_seed(7);
    nn::SinusoidalPositionalEncoding pe(4, 0.5, 16);
    pe.to(Dtype::float64);
    Tensor x = ones({2, 5, 4}, Dtype::float64);
    std::vector<double> y = pe(x).to_vector(), sum = (x + narrow(pe.table, 0, 0, 5)).to_vector();
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        bool kept = std::abs(y[i] - 2 * sum[i]) < 1e-12, zero = y[i] == 0;
        CHECK((kept || zero));
        dropped += zero && sum[i] != 0;
    }
    CHECK(dropped > 5);
}
