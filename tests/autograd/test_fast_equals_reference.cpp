// Each fast float32 kernel (autograd/kernels/, and the float32 paths of the ops) against its
// plain reference (autograd/reference/), both in float32, at every tail length of the
// kernels' eight-wide vectors and on 1 and 2 threads. The float64 gradient checks run the
// references; these tests carry that check over to the code that trains.
//
// The bound: the kernels differ from the references in the order of their sums (of k terms)
// and in e^x and erf (a few ulp; kernels/vector_math.h). A sum of k float32 terms in any
// order is within about k u (u = 2^-24) of the exact one, relative to the terms' sizes, so
// each value must satisfy
//   |fast - reference| <= tol(k) (1 + |reference|),  tol(k) = 4 (k + 2) u,
// a few times the largest difference these cases show; a wrong eps or scale is far outside.
#include "check.h"

#include <cstring>
#include <optional>
#include <vector>

#include "lectern/autograd/kernels/attention_head.h"
#include "lectern/autograd/kernels/dropout_draw.h"
#include "lectern/autograd/kernels/head_products.h"
#include "lectern/autograd/kernels/layer_norm_row.h"
#include "lectern/autograd/kernels/matrix_vector.h"
#include "lectern/autograd/kernels/softmax_row.h"
#include "lectern/autograd/matrix_view.h"
#include "lectern/autograd/reference/attention.h"
#include "lectern/autograd/reference/gelu.h"
#include "lectern/autograd/reference/head_products.h"
#include "lectern/autograd/reference/layer_norm.h"
#include "lectern/autograd/reference/linear.h"
#include "lectern/autograd/reference/softmax_row.h"

using namespace autograd;

namespace {

double tol(std::int64_t k) { return 4.0 * static_cast<double>(k + 2) * 0x1p-24; }

// Every element of `fast` is within tol(k) (1 + |reference|) of `reference`.
void require_close(const std::vector<float>& fast, const std::vector<float>& reference, std::int64_t k,
                   const char* what) {
    REQUIRE(fast.size() == reference.size());
    for (std::size_t i = 0; i < fast.size(); ++i) {
        INFO(fmt::format("{} element {}: fast {:.9g}, reference {:.9g}", what, i, fast[i], reference[i]));
        if (std::isnan(reference[i])) {
            REQUIRE(std::isnan(fast[i]));
            continue;
        }
        REQUIRE(std::abs(static_cast<double>(fast[i]) - reference[i]) <= tol(k) * (1 + std::abs(reference[i])));
    }
}

std::vector<float> normals(std::int64_t n, std::uint64_t seed, double sd = 1.0) {
    Generator gen(seed);
    std::vector<float> v(static_cast<std::size_t>(n));
    for (float& x : v) x = static_cast<float>(sd * gen.normal());
    return v;
}

// Small integers: every product and sum is exact in float, so the products must agree exactly.
std::vector<float> ints(std::int64_t n, int seed) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
        v[static_cast<std::size_t>(i)] = static_cast<float>((i * 7 + seed * 13) % 11 - 5);
    return v;
}

// Runs f on 1 and then on 2 threads, leaving 2.
template <class F>
void on_one_and_two_threads(F f) {
    for (int threads : {1, 2}) {
        INFO("threads " << threads);
        set_num_threads(threads);
        f();
    }
    set_num_threads(2);
}

}  // namespace

TEST_CASE("head products A B, A B^T and A^T B equal the reference's at every tile and edge", "[forward]") {
    // Rows in tiles of 4 and the 1 to 3 left; columns in blocks of 24, 16 and 8 with a partial
    // vector; the operand read by rows in place (width a multiple of 8) and packed. Each matrix
    // is a block of a wider one (ld > cols), as a head is of its tensor.
    for (std::int64_t m : {1, 2, 3, 4, 5, 7, 17})
        for (std::int64_t n : {1, 7, 8, 9, 16, 17, 24, 25, 41, 64})
            for (std::int64_t k : {1, 3, 16, 17}) {
                INFO("m " << m << ", n " << n << ", k " << k);
                const std::vector<float> a = ints((m + k) * (m + k + 3), 1), b = ints((n + k) * (n + k + 4), 2);
                std::vector<float> pack(static_cast<std::size_t>(detail::pack_size(std::max(n, k) + m, n + k + m)));
                auto check = [&](auto fast, auto reference, MatrixView<const float> A, MatrixView<const float> B,
                                 const char* what) {
                    INFO(what);
                    std::vector<float> c(static_cast<std::size_t>(m * (n + 5)), -99.0f), want = c;
                    fast(A, B, MatrixView<float>{c.data(), m, n, n + 5}, pack.data());
                    reference(A, B, MatrixView<float>{want.data(), m, n, n + 5});
                    REQUIRE(c == want);  // C's neighbours (columns n .. n + 5) untouched too
                };
                check(detail::product_ab<float>, reference::product_ab<float>, {a.data(), m, k, m + k + 3},
                      {b.data(), k, n, n + k + 4}, "A B");
                check(detail::product_abt<float>, reference::product_abt<float>, {a.data(), m, k, m + k + 3},
                      {b.data(), n, k, n + k + 4}, "A B^T");
                check(detail::product_atb<float>, reference::product_atb<float>, {a.data(), k, m, m + k + 3},
                      {b.data(), k, n, n + k + 4}, "A^T B");
            }
}

TEST_CASE("softmax rows, masked and not, and their backward equal the reference's at every length", "[forward]") {
    constexpr float inf = std::numeric_limits<float>::infinity();
    for (std::int64_t len = 1; len <= 41; ++len)
        for (float scale : {0.3f, -0.3f, 0.0f}) {
            INFO("length " << len << ", scale " << scale);
            std::vector<float> s = normals(len, static_cast<std::uint64_t>(len), 6.0), dp = normals(len, 99);
            std::vector<float> p(s.size()), want(s.size()), ds(s.size()), want_ds(s.size());
            std::vector<std::int64_t> keep(s.size());
            for (std::int64_t j = 0; j < len; ++j) keep[static_cast<std::size_t>(j)] = (j * 5 + len) % 3 != 0;
            s.back() = -inf;  // a score at -inf, in the last vector
            if (scale != 0.0f) {
                detail::softmax_row_for(false, len, scale)(s.data(), p.data(), len, nullptr, 0, scale);
                reference::masked_softmax_row(s.data(), want.data(), len, nullptr, std::int64_t{0}, scale);
                require_close(p, want, len, "unmasked P");
            }
            detail::masked_softmax_row(s.data(), p.data(), len, keep.data(), 1, scale);
            reference::masked_softmax_row(s.data(), want.data(), len, keep.data(), std::int64_t{1}, scale);
            require_close(p, want, len, "masked P");
            s.front() = 1e30f;  // one score swamps the rest: P = 1 there, 0 elsewhere
            if (scale != 0.0f) {
                detail::softmax_row_for(false, len, scale)(s.data(), p.data(), len, nullptr, 0, scale);
                reference::masked_softmax_row(s.data(), want.data(), len, nullptr, std::int64_t{0}, scale);
                require_close(p, want, len, "unmasked P, one score 1e30");
            }
            std::fill(s.begin(), s.end(), -inf);  // every score at -inf: P = 0
            detail::masked_softmax_row(s.data(), p.data(), len, keep.data(), 1, scale);
            reference::masked_softmax_row(s.data(), want.data(), len, keep.data(), std::int64_t{1}, scale);
            require_close(p, want, len, "P of a row at -inf");
            p = normals(len, 7);
            detail::masked_softmax_row_backward(dp.data(), p.data(), ds.data(), len, scale);
            reference::masked_softmax_row_backward(dp.data(), p.data(), want_ds.data(), len, scale);
            require_close(ds, want_ds, len, "dS");
        }
}

TEST_CASE("layer norm rows and their backward equal the reference's at every length", "[forward]") {
    for (std::int64_t D = 1; D <= 72; ++D) {
        INFO("D " << D);
        const std::vector<float> a = normals(D, 1), gamma = normals(D, 2), beta = normals(D, 3), ds = normals(D, 4);
        std::vector<float> a_hat(a.size()), s(a.size()), want_a_hat(a.size()), want_s(a.size());
        std::vector<float> da(a.size()), dg(a.size(), 0.5f), db(a.size(), 0.25f);
        std::vector<float> want_da(a.size()), want_dg = dg, want_db = db;
        const bool lanes = D % detail::kLanes == 0;
        const float rstd =
            (lanes ? detail::layer_norm_row_lanes : detail::layer_norm_row_sums)(a.data(), gamma.data(), beta.data(),
                                                                                 1e-5f, D, a_hat.data(), s.data());
        const float want_rstd =
            reference::layer_norm_row(a.data(), gamma.data(), beta.data(), 1e-5f, D, want_a_hat.data(), want_s.data());
        require_close({rstd}, {want_rstd}, D, "rstd");
        require_close(a_hat, want_a_hat, D, "a_hat");
        require_close(s, want_s, D, "s");
        (lanes ? detail::layer_norm_row_backward_lanes
               : detail::layer_norm_row_backward_sums)(ds.data(), want_a_hat.data(), gamma.data(), want_rstd, D,
                                                       da.data(), dg.data(), db.data());
        reference::layer_norm_row_backward(ds.data(), want_a_hat.data(), gamma.data(), want_rstd, D, want_da.data(),
                                           want_dg.data(), want_db.data());
        require_close(da, want_da, D, "da");
        require_close(dg, want_dg, 1, "dgamma");
        require_close(db, want_db, 1, "dbeta");
    }
}

TEST_CASE("layer_norm in float32 on 1 and 2 threads equals the reference rows", "[forward]") {
    // Enough rows that the rows and the dgamma and dbeta sums split over two threads.
    for (std::int64_t D : {64, 12}) {
        INFO("D " << D);
        const std::int64_t rows = 8192 / D + 7;
        const std::vector<float> a = normals(rows * D, 5), gamma = normals(D, 6), beta = normals(D, 7);
        const std::vector<float> ds = normals(rows * D, 8);
        std::vector<float> a_hat(a.size()), s(a.size()), da(a.size()), dg(D, 0.0f), db(D, 0.0f);
        for (std::int64_t r = 0; r < rows; ++r) {
            const float rstd = reference::layer_norm_row(a.data() + r * D, gamma.data(), beta.data(), 1e-5f, D,
                                                         a_hat.data() + r * D, s.data() + r * D);
            reference::layer_norm_row_backward(ds.data() + r * D, a_hat.data() + r * D, gamma.data(), rstd, D,
                                               da.data() + r * D, dg.data(), db.data());
        }
        on_one_and_two_threads([&] {
            Tensor x = tensor(std::vector<double>(a.begin(), a.end()), {rows, D}).requires_grad_();
            Tensor g = tensor(std::vector<double>(gamma.begin(), gamma.end()), {D}).requires_grad_();
            Tensor b = tensor(std::vector<double>(beta.begin(), beta.end()), {D}).requires_grad_();
            Tensor y = layer_norm(x, g, b, 1e-5);
            y.backward(tensor(std::vector<double>(ds.begin(), ds.end()), {rows, D}));
            auto floats = [](const Tensor& t) {
                const std::vector<double> v = t.to_vector();
                return std::vector<float>(v.begin(), v.end());
            };
            require_close(floats(y), s, D, "s");
            require_close(floats(x.grad()), da, D, "da");
            require_close(floats(g.grad()), dg, rows, "dgamma");
            require_close(floats(b.grad()), db, rows, "dbeta");
        });
    }
}

// An activation of autograd (y and, through backward, its slope) in float32 against its
// reference in float32 arithmetic, over [-10, 10] and at the limits, on 1 and 2 threads.
void require_activation_equals_reference(Tensor (*op)(const Tensor&), float (*reference)(float, float*),
                                         std::int64_t k) {
    std::vector<double> xs;
    for (int i = 0; i <= 4000; ++i) xs.push_back(-10.0 + 20.0 * i / 4000);
    for (double x : {-1e30, -88.0, 88.0, 1e30}) xs.push_back(x);
    std::vector<float> want_y, want_slope;
    for (double x : xs) {
        float slope = 0;
        want_y.push_back(reference(static_cast<float>(x), &slope));
        want_slope.push_back(slope);
    }
    on_one_and_two_threads([&] {
        Tensor x = tensor(xs, Dtype::float32).requires_grad_();
        Tensor y = op(x);
        sum(y).backward();  // dx = the slope
        auto floats = [](const Tensor& t) {
            const std::vector<double> v = t.to_vector();
            return std::vector<float>(v.begin(), v.end());
        };
        require_close(floats(y), want_y, k, "y");
        require_close(floats(x.grad()), want_slope, k, "slope");
    });
}

TEST_CASE("gelu in float32 and its slope equal reference::gelu over [-10, 10] and at the limits", "[forward]") {
    require_activation_equals_reference(gelu, reference::gelu<float>, 1);
}

TEST_CASE("gelu_tanh in float32 and its slope equal reference::gelu_tanh over [-10, 10] and at the limits",
          "[forward]") {
    require_activation_equals_reference(gelu_tanh, reference::gelu_tanh<float>, 1);
}

namespace {

// One attention problem in float32: q [B, Tq, H dk], k [B, Tk, H dk], v [B, Tk, H dv], and a
// padding mask [B, 1, Tk] (or none), dropout p on P.
struct AttentionCase {
    std::int64_t B, Tq, Tk, H, dk, dv;
    bool masked;
    double p_drop;
    std::optional<double> scale = {};  // none: 1 / sqrt(dk)
};

void check_attention(const AttentionCase& c) {
    INFO(fmt::format("B {} Tq {} Tk {} H {} dk {} dv {} masked {} dropout {}", c.B, c.Tq, c.Tk, c.H, c.dk, c.dv,
                     c.masked, c.p_drop));
    const std::vector<float> q = normals(c.B * c.Tq * c.H * c.dk, 1), k = normals(c.B * c.Tk * c.H * c.dk, 2);
    const std::vector<float> v = normals(c.B * c.Tk * c.H * c.dv, 3), dz = normals(c.B * c.Tq * c.H * c.dv, 4);
    std::vector<std::int64_t> keep(static_cast<std::size_t>(c.B * c.Tk));
    for (std::size_t j = 0; j < keep.size(); ++j) keep[j] = (j * 3 + 1) % 4 != 0;
    keep[0] = 0;  // batch entry 0's key 0 masked; with Tk = 1 every key of its queries

    // Every head of the problem: fn(at, mask, first), where at(base, T, d) is the head's [T, d]
    // block of a [B, T, H d] array and `first` is its P's first element in the weights.
    const std::int64_t p_size = c.Tq * c.Tk;
    auto for_each_head = [&](auto fn) {
        for (std::int64_t bh = 0; bh < c.B * c.H; ++bh) {
            const std::int64_t b = bh / c.H, h = bh % c.H;
            auto at = [&](auto* base, std::int64_t T, std::int64_t d) {
                return MatrixView<std::remove_pointer_t<decltype(base)>>{base + b * T * c.H * d + h * d, T, d, c.H * d};
            };
            fn(at, c.masked ? MaskRows{keep.data() + b * c.Tk, 0, 1} : MaskRows{}, bh * p_size);
        }
    };
    const float scale = static_cast<float>(c.scale.value_or(1 / std::sqrt(static_cast<double>(c.dk))));
    Generator draw_gen(42);
    const detail::DropoutDraw draw(c.p_drop, draw_gen.next_u64());  // the op's draw from the same seed

    // The reference, head by head, on the same layout.
    std::vector<float> z(dz.size()), p(static_cast<std::size_t>(c.B * c.H * p_size));
    std::vector<float> dq(q.size()), dk(k.size()), dv(v.size());
    for_each_head([&](auto at, const MaskRows& mask, std::int64_t first) {
        auto f = [&](std::int64_t e) {
            return c.p_drop > 0
                       ? detail::dropout_factor(draw.key, draw.keep_below, static_cast<float>(draw.kept), first + e)
                       : 1.0f;
        };
        const MatrixView<float> P = packed_view(p.data() + first, c.Tq, c.Tk);
        reference::attention_head<float>(at(q.data(), c.Tq, c.dk), at(k.data(), c.Tk, c.dk), at(v.data(), c.Tk, c.dv),
                                         mask, scale, f, at(z.data(), c.Tq, c.dv), P);
        reference::attention_head_backward<float>(at(dz.data(), c.Tq, c.dv), at(q.data(), c.Tq, c.dk),
                                                  at(k.data(), c.Tk, c.dk), at(v.data(), c.Tk, c.dv), P, scale, f,
                                                  at(dq.data(), c.Tq, c.dk), at(dk.data(), c.Tk, c.dk),
                                                  at(dv.data(), c.Tk, c.dv));
    });
    const std::int64_t bound_k = std::max({c.dk, c.dv, c.Tk, c.Tq});

    // The float32 kernel, head by head on the same layout, with one thread's buffers.
    {
        std::vector<float> kz(z.size()), kp(p.size()), kdq(q.size()), kdk(k.size()), kdv(v.size());
        detail::DropoutOnP drop;
        if (c.p_drop > 0) drop.emplace(draw);
        detail::SoftmaxRow* const softmax_row = detail::softmax_row_for(c.masked, c.Tk, scale);
        detail::HeadScratch scratch(c.Tq, c.Tk, std::max(c.dk, c.dv), /*backward=*/true);
        for_each_head([&](auto at, const MaskRows& mask, std::int64_t first) {
            const MatrixView<float> P = packed_view(kp.data() + first, c.Tq, c.Tk);
            detail::attention_head(at(q.data(), c.Tq, c.dk), at(k.data(), c.Tk, c.dk), at(v.data(), c.Tk, c.dv), mask,
                                   scale, softmax_row, drop, first, at(kz.data(), c.Tq, c.dv), P, scratch);
            detail::attention_head_backward(at(dz.data(), c.Tq, c.dv), at(q.data(), c.Tq, c.dk),
                                            at(k.data(), c.Tk, c.dk), at(v.data(), c.Tk, c.dv), P, scale, drop, first,
                                            at(kdq.data(), c.Tq, c.dk), at(kdk.data(), c.Tk, c.dk),
                                            at(kdv.data(), c.Tk, c.dv), scratch);
        });
        require_close(kp, p, bound_k, "kernel P");
        require_close(kz, z, bound_k, "kernel Z");
        require_close(kdq, dq, bound_k, "kernel dQ");
        require_close(kdk, dk, bound_k, "kernel dK");
        require_close(kdv, dv, bound_k, "kernel dV");
    }

    // The op, which runs that kernel over the heads on 1 and 2 threads.
    auto tensor_of = [](const std::vector<float>& x, Shape shape) {
        return tensor(std::vector<double>(x.begin(), x.end()), shape);
    };
    auto floats = [](const Tensor& t) {
        const std::vector<double> x = t.to_vector();
        return std::vector<float>(x.begin(), x.end());
    };
    on_one_and_two_threads([&] {
        Tensor tq = tensor_of(q, {c.B, c.Tq, c.H * c.dk}).requires_grad_();
        Tensor tk = tensor_of(k, {c.B, c.Tk, c.H * c.dk}).requires_grad_();
        Tensor tv = tensor_of(v, {c.B, c.Tk, c.H * c.dv}).requires_grad_();
        Tensor mask =
            c.masked ? tensor(std::vector<double>(keep.begin(), keep.end()), {c.B, 1, c.Tk}, Dtype::int64) : Tensor();
        Generator gen(42);
        AttentionOutput out = multi_head_attention(tq, tk, tv, c.H, mask, c.p_drop, c.p_drop > 0, gen, c.scale);
        out.z.backward(tensor_of(dz, out.z.shape()));
        require_close(floats(out.weights), p, bound_k, "P");
        require_close(floats(out.z), z, bound_k, "Z");
        require_close(floats(tq.grad()), dq, bound_k, "dQ");
        require_close(floats(tk.grad()), dk, bound_k, "dK");
        require_close(floats(tv.grad()), dv, bound_k, "dV");
    });
}

}  // namespace

TEST_CASE("attention_head and multi_head_attention in float32 equal reference::attention_head at every tail length",
          "[forward]") {
    for (std::int64_t Tk : {1, 7, 8, 9, 17, 25})
        for (std::int64_t Tq : {1, 9, 17})
            for (auto [dk, dv] : {std::pair<std::int64_t, std::int64_t>{3, 2}, {8, 8}, {16, 9}})
                for (bool masked : {false, true})
                    for (double p_drop : {0.0, 0.3}) check_attention({4, Tq, Tk, 2, dk, dv, masked, p_drop});
}

TEST_CASE("attention_head and multi_head_attention in float32 without the 1/sqrt(d_k) scale equal the reference's",
          "[forward]") {
    for (std::int64_t Tk : {7, 9, 17})
        for (bool masked : {false, true})
            for (double scale : {1.0, 0.3}) check_attention({2, 9, Tk, 2, 8, 8, masked, 0.0, scale});
}

TEST_CASE("the matrix-vector product equals reference::linear's row at every tail length, in any split of the rows",
          "[forward]") {
    // Rows two at a time, then the one left; n at every length of the eight lanes and their
    // tail. Each row's sum is in an order set by n alone, so a split of W's rows between calls,
    // as the threads make, gives the same bits.
    for (std::int64_t m : {1, 3, 4, 5, 8, 9, 13})
        for (std::int64_t n = 0; n <= 41; ++n)
            for (bool with_bias : {true, false}) {
                INFO(fmt::format("m {} n {} bias {}", m, n, with_bias));
                const std::vector<float> w = normals(m * n, 1), x = normals(n, 2), b = normals(m, 3);
                const float* bias = with_bias ? b.data() : nullptr;
                std::vector<float> y(static_cast<std::size_t>(m + 1), -99.0f), want(y.size(), -99.0f);
                detail::matrix_vector(m, n, w.data(), x.data(), bias, y.data());
                reference::linear(x.data(), w.data(), bias, 1, n, m, want.data());
                REQUIRE(y.back() == -99.0f);  // nothing written past row m
                y.pop_back(), want.pop_back();
                require_close(y, want, n, "y");
                for (std::int64_t split = 1; split < m; ++split) {
                    INFO("rows split at " << split);
                    std::vector<float> parts(y.size());
                    detail::matrix_vector(split, n, w.data(), x.data(), bias, parts.data());
                    detail::matrix_vector(m - split, n, w.data() + split * n, x.data(), bias ? bias + split : nullptr,
                                          parts.data() + split);
                    REQUIRE(std::memcmp(parts.data(), y.data(), y.size() * sizeof(float)) == 0);
                }
            }
}

TEST_CASE("linear in float32 on 1 and 2 threads equals reference::linear, values and gradients", "[forward]") {
    // in 256 x out 300 is work enough to split W's rows when there are fewer rows than a
    // part of a split product (the matrix-vector path of generation), and x's rows otherwise;
    // out 1100 at in 256 is W in several blocks of 256 KiB on that path.
    for (std::int64_t rows : {1, 3, 17, 300})
        for (std::int64_t in : {1, 5, 64, 256})
            for (std::int64_t out : {1, 7, 64, 300, 1100})
                for (bool with_bias : {true, false}) {
                    if (out == 1100 && rows == 300) continue;  // the matrix-vector path is the one to see
                    INFO(fmt::format("rows {} in {} out {} bias {}", rows, in, out, with_bias));
                    const std::vector<float> x = normals(rows * in, 1), w = normals(out * in, 2), b = normals(out, 3),
                                             dy = normals(rows * out, 4);
                    std::vector<float> y(dy.size()), dx(x.size()), dw(w.size()), db(b.size());
                    reference::linear(x.data(), w.data(), with_bias ? b.data() : nullptr, rows, in, out, y.data());
                    reference::linear_backward(dy.data(), x.data(), w.data(), rows, in, out, dx.data(), dw.data(),
                                               db.data());
                    auto tensor_of = [](const std::vector<float>& v, Shape shape) {
                        return tensor(std::vector<double>(v.begin(), v.end()), shape).requires_grad_();
                    };
                    auto floats = [](const Tensor& t) {
                        const std::vector<double> v = t.to_vector();
                        return std::vector<float>(v.begin(), v.end());
                    };
                    on_one_and_two_threads([&] {
                        Tensor tx = tensor_of(x, {rows, in}), tw = tensor_of(w, {out, in}), tb = tensor_of(b, {out});
                        Tensor ty = with_bias ? linear(tx, tw, tb) : linear(tx, tw);
                        ty.backward(tensor(std::vector<double>(dy.begin(), dy.end()), {rows, out}));
                        require_close(floats(ty), y, in, "y");
                        require_close(floats(tx.grad()), dx, out, "dx");
                        require_close(floats(tw.grad()), dw, rows, "dW");
                        if (with_bias) require_close(floats(tb.grad()), db, rows, "db");
                    });
                }
}
