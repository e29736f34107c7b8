// multi_head_attention: each head in its own columns, against the same equations
// composed of plain ops, dropout on P, threads, empty keys and errors.
#include "check.h"

using namespace autograd;

namespace {

// The heads of x [B, T, H d] as [B, H, T, d], and back.
Tensor split_heads(const Tensor& x, std::int64_t heads) {
    return permute(reshape(x, {x.size(0), x.size(1), heads, x.size(2) / heads}), {0, 2, 1, 3});
}
Tensor merge_heads(const Tensor& z) {
    return reshape(permute(z, {0, 2, 1, 3}), {z.size(0), z.size(2), z.size(1) * z.size(3)});
}

// The same attention of plain ops: P = masked_softmax(Q K^T, M, 1 / sqrt(d_k)), Z = dropout(P) V.
struct Composed {
    Tensor z, p;
};
Composed composed(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t heads, const Tensor& mask,
                  double p_drop = 0.0, Generator* gen = nullptr) {
    Tensor keep = mask.defined() ? unsqueeze(mask, 1) : ones({1}, Dtype::int64);
    const double scale = 1 / std::sqrt(static_cast<double>(q.size(2) / heads));
    Tensor p = masked_softmax(matmul(split_heads(q, heads), split_heads(k, heads), false, true), keep, scale);
    Tensor pd = gen ? dropout(p, p_drop, true, *gen) : p;
    return {merge_heads(matmul(pd, split_heads(v, heads))), p};
}

// d loss / d input for each input (leaves), leaving their gradients cleared.
std::vector<Tensor> grads_of(const Tensor& loss, const std::vector<Tensor>& inputs) {
    for (Tensor t : inputs) t.zero_grad();
    loss.backward();
    std::vector<Tensor> out;
    for (Tensor t : inputs) {
        out.push_back(t.grad());
        t.zero_grad();
    }
    return out;
}

void require_same(const Tensor& a, const Tensor& b, double tol) {
    REQUIRE(a.shape() == b.shape());
    require_values(a, b.to_vector(), tol);
}

}  // namespace

TEST_CASE("multi_head_attention: each head averages its own columns of v", "[forward]") {
    // Q = 0: every score is 0, so P is uniform over the kept keys and head i's output is
    // the mean of its columns of V's kept rows.
    Tensor q = zeros({1, 1, 4}, Dtype::float64), k = zeros({1, 2, 4}, Dtype::float64);
    Tensor v = tensor({1, 2, 3, 4, 3, 4, 5, 6}, {1, 2, 4}, Dtype::float64);
    AttentionOutput all = multi_head_attention(q, k, v, 2);
    require_values(all.z, {2, 3, 4, 5}, 1e-15);
    require_values(all.weights, {0.5, 0.5, 0.5, 0.5}, 1e-15);  // [1, 2 heads, 1, 2]
    AttentionOutput first = multi_head_attention(q, k, v, 2, tensor({1, 0}, {1, 1, 2}, Dtype::int64));
    require_values(first.z, {1, 2, 3, 4}, 1e-15);
    require_values(first.weights, {1, 0, 1, 0}, 1e-15);
}

TEST_CASE("multi_head_attention: two keys by hand, scores scaled by 1 / sqrt(d_k)", "[forward]") {
    // One head, d_k = 4: q = (1, 1, 1, 1), k_1 = (2, 0, 0, 0), k_2 = 0: scores 2 and 0, scaled
    // by 1/2 to 1 and 0, so P = (e / (e + 1), 1 / (e + 1)).
    Tensor q = ones({1, 1, 4}, Dtype::float64);
    Tensor k = tensor({2, 0, 0, 0, 0, 0, 0, 0}, {1, 2, 4}, Dtype::float64);
    Tensor v = tensor({1, 0, 0, 1}, {1, 2, 2}, Dtype::float64);
    const double p1 = std::exp(1.0) / (std::exp(1.0) + 1);
    AttentionOutput a = multi_head_attention(q, k, v, 1);
    require_values(a.weights, {p1, 1 - p1}, 1e-15);
    require_values(a.z, {p1, 1 - p1}, 1e-15);
}

TEST_CASE("multi_head_attention equals the composed ops, values and gradients", "[forward]") {
    // Cross-attention, 2 heads, d_k 3, d_v 2, a padding mask with a fully masked query row.
    Tensor q = rand64({2, 3, 6}, 1), k = rand64({2, 4, 6}, 2), v = rand64({2, 4, 4}, 3);
    Tensor mask =
        tensor({1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1}, {2, 3, 4}, Dtype::int64);
    Tensor w = rand64({2, 3, 4}, 4).detach();  // a loss weighting every output differently
    AttentionOutput fused = multi_head_attention(q, k, v, 2, mask);
    Composed ref = composed(q, k, v, 2, mask);
    require_same(fused.z, ref.z, 1e-14);
    require_same(fused.weights, ref.p.detach(), 1e-14);
    CHECK(!fused.weights.requires_grad());
    std::vector<Tensor> gf = grads_of(sum(fused.z * w), {q, k, v}), gr = grads_of(sum(ref.z * w), {q, k, v});
    for (std::size_t i = 0; i < 3; ++i) require_same(gf[i], gr[i], 1e-13);
}

TEST_CASE("multi_head_attention equals the composed ops at the models' sizes", "[forward]") {
    // The ViT's heads (T 17, d_k 16: V and dZ read in place, K^T in whole 8 x 8 blocks) and
    // a cross-attention whose d_k 12 and d_v 20 need the packed copies; 3 heads.
    struct Case {
        std::int64_t tq, tk, dk, dv;
    };
    for (const Case c : {Case{17, 17, 16, 16}, Case{9, 26, 12, 20}}) {
        INFO("Tq " << c.tq << ", Tk " << c.tk << ", d_k " << c.dk << ", d_v " << c.dv);
        Tensor q = rand64({2, c.tq, 3 * c.dk}, 11), k = rand64({2, c.tk, 3 * c.dk}, 12);
        Tensor v = rand64({2, c.tk, 3 * c.dv}, 13), w = rand64({2, c.tq, 3 * c.dv}, 14).detach();
        std::vector<std::int64_t> keep(static_cast<std::size_t>(c.tq * c.tk));
        for (std::size_t i = 0; i < keep.size(); ++i) keep[i] = i % 5 != 3;
        Tensor mask = tensor(std::vector<double>(keep.begin(), keep.end()), {1, c.tq, c.tk}, Dtype::int64);
        AttentionOutput fused = multi_head_attention(q, k, v, 3, mask);
        Composed ref = composed(q, k, v, 3, mask);
        require_same(fused.z, ref.z, 1e-13);
        std::vector<Tensor> gf = grads_of(sum(fused.z * w), {q, k, v}), gr = grads_of(sum(ref.z * w), {q, k, v});
        for (std::size_t i = 0; i < 3; ++i) require_same(gf[i], gr[i], 1e-12);
        // float32 (the training dtype) against the float64 result
        Tensor q32 = q.detach().to(Dtype::float32), k32 = k.detach().to(Dtype::float32);
        Tensor v32 = v.detach().to(Dtype::float32);
        require_same(multi_head_attention(q32, k32, v32, 3, mask).z.to(Dtype::float64), ref.z.detach(), 1e-5);
    }
}

TEST_CASE("multi_head_attention's dropout on P draws what autograd::dropout on P draws", "[forward]") {
    Tensor q = rand64({2, 5, 4}, 5), k = rand64({2, 5, 4}, 6), v = rand64({2, 5, 4}, 7);
    Tensor causal =
        tensor({1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1}, {1, 5, 5}, Dtype::int64);
    Generator g1(3), g2(3);
    AttentionOutput fused = multi_head_attention(q, k, v, 2, causal, 0.4, true, g1);
    Composed ref = composed(q, k, v, 2, causal, 0.4, &g2);
    require_same(fused.z, ref.z, 1e-14);
    require_same(fused.weights, ref.p.detach(), 1e-14);  // the weights are P before dropout
    std::vector<Tensor> gf = grads_of(sum(fused.z * fused.z), {q, k, v}), gr = grads_of(sum(ref.z * ref.z), {q, k, v});
    for (std::size_t i = 0; i < 3; ++i) require_same(gf[i], gr[i], 1e-13);
    // Not training, or p = 0: no dropout, and the generator is not drawn from.
    Generator g3(3), g4(3);
    require_same(multi_head_attention(q, k, v, 2, causal, 0.4, false, g3).z, composed(q, k, v, 2, causal).z, 1e-14);
    CHECK(g3.next_u64() == g4.next_u64());
}

TEST_CASE("multi_head_attention gives the same results with any number of threads", "[forward]") {
    Generator g(1);
    Tensor q = randn({16, 12, 32}, g).requires_grad_(), k = randn({16, 12, 32}, g).requires_grad_();
    Tensor v = randn({16, 12, 32}, g).requires_grad_();
    auto run = [&](int threads) {
        set_num_threads(threads);
        Generator drop(5);
        Tensor z = multi_head_attention(q, k, v, 4, Tensor(), 0.1, true, drop).z;
        std::vector<Tensor> grads = grads_of(sum(z * z), {q, k, v});
        std::vector<std::vector<double>> out{z.to_vector()};
        for (const Tensor& t : grads) out.push_back(t.to_vector());
        return out;
    };
    const auto one = run(1);
    CHECK(run(2) == one);
}

TEST_CASE("multi_head_attention with no keys gives zeros, and zero gradients", "[forward]") {
    Tensor q = rand64({2, 3, 4}, 1), k = rand64({2, 0, 4}, 2), v = rand64({2, 0, 4}, 3);
    AttentionOutput a = multi_head_attention(q, k, v, 2);
    CHECK(a.weights.shape() == Shape{2, 2, 3, 0});
    require_values(a.z, std::vector<double>(24, 0.0));
    std::vector<Tensor> g = grads_of(sum(a.z), {q, k, v});
    require_values(g[0], std::vector<double>(24, 0.0));
    CHECK(g[1].shape() == Shape{2, 0, 4});
}

TEST_CASE("multi_head_attention rejects bad heads, shapes, masks and probabilities", "[errors]") {
    Tensor x = zeros({2, 3, 4});
    CHECK_THROWS_WITH(multi_head_attention(x, x, x, 0), "multi_head_attention: heads must be positive, got 0");
    CHECK_THROWS_WITH(multi_head_attention(x, x, x, 3),
                      "multi_head_attention: q [2, 3, 4], k [2, 3, 4] and v [2, 3, 4] are not [B, Tq, 3 d_k], "
                      "[B, Tk, 3 d_k] and [B, Tk, 3 d_v] with d_k, d_v > 0");
    CHECK_THROWS_AS(multi_head_attention(x, zeros({2, 3, 6}), x, 2), ShapeError);  // k's width is not q's
    CHECK_THROWS_AS(multi_head_attention(x, x, zeros({2, 2, 4}), 2), ShapeError);  // v's rows are not k's
    CHECK_THROWS_AS(multi_head_attention(x, x, zeros({1, 3, 4}), 2), ShapeError);  // batch sizes differ
    CHECK_THROWS_AS(multi_head_attention(zeros({3, 4}), zeros({3, 4}), zeros({3, 4}), 2), ShapeError);
    CHECK_THROWS_AS(multi_head_attention(x, x, zeros({2, 3, 4}, Dtype::float64), 2), DtypeError);
    CHECK_THROWS_AS(multi_head_attention(x, x, x, 2, ones({1, 3, 3})), DtypeError);  // a float mask
    CHECK_THROWS_WITH(multi_head_attention(x, x, x, 2, ones({1, 4, 3}, Dtype::int64)),
                      "multi_head_attention: mask [1, 4, 3] does not broadcast to [B, Tq, Tk] = [2, 3, 3]");
    CHECK_THROWS_AS(multi_head_attention(x, x, x, 2, ones({1, 1, 3, 3}, Dtype::int64)), ShapeError);  // rank 4
    Generator g(0);
    CHECK_THROWS_WITH(multi_head_attention(x, x, x, 2, Tensor(), 1.0, true, g),
                      "multi_head_attention: dropout probability 1 is outside [0, 1)");
}

TEST_CASE("multi_head_self_attention on qkv equals multi_head_attention on its thirds", "[forward]") {
    // The ViT's sizes (T 17, 4 heads of d_k 16: read in place) and d_k 3 (packed copies), with a
    // causal mask and dropout on P drawn from the same seed; values, weights and gradients.
    struct Case {
        std::int64_t t, heads, dk;
    };
    for (const Case c : {Case{17, 4, 16}, Case{5, 2, 3}}) {
        INFO("T " << c.t << ", " << c.heads << " heads of d_k " << c.dk);
        const std::int64_t D = c.heads * c.dk;
        Tensor qkv = rand64({2, c.t, 3 * D}, 21), w = rand64({2, c.t, D}, 22).detach();
        Tensor q = narrow(qkv, 2, 0, D), k = narrow(qkv, 2, D, D), v = narrow(qkv, 2, 2 * D, D);
        std::vector<std::int64_t> keep(static_cast<std::size_t>(c.t * c.t));
        for (std::int64_t i = 0; i < c.t; ++i)
            for (std::int64_t j = 0; j < c.t; ++j) keep[static_cast<std::size_t>(i * c.t + j)] = j <= i;
        Tensor causal = tensor(std::vector<double>(keep.begin(), keep.end()), {1, c.t, c.t}, Dtype::int64);
        Generator g1(7), g2(7);
        AttentionOutput packed = multi_head_self_attention(qkv, c.heads, causal, 0.2, true, g1);
        AttentionOutput thirds = multi_head_attention(q, k, v, c.heads, causal, 0.2, true, g2);
        require_same(packed.z, thirds.z.detach(), 1e-15);
        require_same(packed.weights, thirds.weights, 1e-15);
        std::vector<Tensor> gp = grads_of(sum(packed.z * w), {qkv}), gt = grads_of(sum(thirds.z * w), {qkv});
        require_same(gp[0], gt[0], 1e-15);
        Tensor qkv32 = qkv.detach().to(Dtype::float32);
        Generator g3(7);
        require_same(multi_head_self_attention(qkv32, c.heads, causal, 0.2, true, g3).z.to(Dtype::float64),
                     thirds.z.detach(), 1e-5);
    }
}

TEST_CASE("multi_head_self_attention rejects a qkv that is not three sets of heads", "[errors]") {
    CHECK_THROWS_WITH(multi_head_self_attention(zeros({2, 3, 8}), 2),
                      "multi_head_self_attention: qkv [2, 3, 8] is not [B, T, 3 x 2 d_k] with d_k > 0");
    CHECK_THROWS_AS(multi_head_self_attention(zeros({2, 0}), 1), ShapeError);
    CHECK_THROWS_WITH(multi_head_self_attention(zeros({2, 3, 6}), 0),
                      "multi_head_self_attention: heads must be positive, got 0");
    CHECK_THROWS_WITH(multi_head_self_attention(zeros({2, 3, 6}), 1, ones({1, 4, 3}, Dtype::int64)),
                      "multi_head_self_attention: mask [1, 4, 3] does not broadcast to [B, Tq, Tk] = [2, 3, 3]");
    CHECK_THROWS_AS(multi_head_self_attention(zeros({2, 3, 6}, Dtype::int64), 1), DtypeError);
}

namespace {

// Each head's K^T [B, H, d_k, C] and V [B, H, C, d_v] of k [B, Tk, H d_k] and v [B, Tk, H d_v],
// in buffers of C positions (the rest zeros), as a decoder's cache keeps them.
std::pair<Tensor, Tensor> by_head(const Tensor& k, const Tensor& v, std::int64_t heads, std::int64_t C) {
    const std::int64_t Tk = k.size(1);
    Tensor kt = zeros({k.size(0), heads, k.size(2) / heads, C}), vh = zeros({v.size(0), heads, C, v.size(2) / heads});
    const Tensor k_t = permute(split_heads(k, heads), {0, 1, 3, 2}), v_h = split_heads(v, heads);
    for (std::int64_t b = 0; b < k.size(0); ++b)
        for (std::int64_t h = 0; h < heads; ++h) {
            for (std::int64_t x = 0; x < kt.size(2); ++x)
                for (std::int64_t t = 0; t < Tk; ++t) kt.set({b, h, x, t}, k_t.at({b, h, x, t}));
            for (std::int64_t t = 0; t < Tk; ++t)
                for (std::int64_t x = 0; x < vh.size(3); ++x) vh.set({b, h, t, x}, v_h.at({b, h, t, x}));
        }
    return {kt, vh};
}

}  // namespace

TEST_CASE("attention over a cache kept head by head gives multi_head_attention's z and P to the bit", "[op]") {
    Generator gen(11);
    NoGradGuard no_grad;
    // d_v 8 reads V in place, d_v 5 through a padded copy; 13 keys in room for 16, 2 and 1 queries.
    for (const auto [dv, Tq] : {std::pair<std::int64_t, std::int64_t>{8, 2}, {5, 1}}) {
        const std::int64_t B = 2, H = 3, dk = 4, Tk = 13;
        Tensor q = randn({B, Tq, H * dk}, gen), k = randn({B, Tk, H * dk}, gen), v = randn({B, Tk, H * dv}, gen);
        Tensor mask = ones({B, Tq, Tk}, Dtype::int64);
        mask.set({1, 0, 4}, 0);  // one masked key
        auto [kt, vh] = by_head(k, v, H, 16);
        for (const Tensor& m : {Tensor(), mask}) {
            const AttentionOutput want = multi_head_attention(q, k, v, H, m);
            const AttentionOutput got = attention_over_cache(q, kt, vh, Tk, m);
            INFO("d_v " << dv << ", Tq " << Tq << (m.defined() ? ", masked" : ""));
            require_values(got.z, want.z.to_vector(), 0);
            require_values(got.weights, want.weights.to_vector(), 0);
        }
        // Fewer positions than the buffers hold: the first 9.
        const AttentionOutput first9 = attention_over_cache(q, kt, vh, 9);
        require_values(first9.z, multi_head_attention(q, narrow(k, 1, 0, 9), narrow(v, 1, 0, 9), H).z.to_vector(), 0);
    }
}

TEST_CASE("attention over a cache refuses other layouts, lengths, dtypes and gradients", "[errors]") {
    Tensor q = zeros({1, 1, 8}), kt = zeros({1, 2, 4, 16}), vh = zeros({1, 2, 16, 4});
    CHECK(attention_over_cache(q, kt, vh, 3).z.shape() == Shape{1, 1, 8});
    CHECK_THROWS_WITH(attention_over_cache(q, kt, vh, 0), "attention_over_cache: length 0 is not in [1, 16]");
    CHECK_THROWS_AS(attention_over_cache(q, kt, vh, 17), ValueError);
    CHECK_THROWS_AS(attention_over_cache(q, zeros({1, 2, 4, 12}), zeros({1, 2, 12, 4}), 3), ShapeError);  // C 12
    CHECK_THROWS_AS(attention_over_cache(zeros({1, 1, 6}), kt, vh, 3), ShapeError);
    CHECK_THROWS_AS(attention_over_cache(q.to(Dtype::float64), kt, vh, 3), DtypeError);
    CHECK_THROWS_AS(attention_over_cache(q, kt, vh, 3, ones({1, 1, 4}, Dtype::int64)), ShapeError);
    Tensor needs_grad = zeros({1, 1, 8}).requires_grad_();
    CHECK_THROWS_WITH(attention_over_cache(needs_grad, kt, vh, 3), Catch::Contains("call it under NoGradGuard"));
}
