#include "lectern/autograd/ops/attention.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/kernels/attention_head.h"
#include "lectern/autograd/kernels/dropout_draw.h"
#include "lectern/autograd/kernels/softmax_row.h"
#include "lectern/autograd/matrix_view.h"
#include "lectern/autograd/parallel.h"
#include "lectern/autograd/reference/attention.h"

namespace autograd {
namespace {

// Scaled dot-product attention of every head (001 "Scaled Dot-Product Attention" and
// "Multi-head attention"; 004 §15.5.1 eq. 15.54 and §15.5.2 eq. 15.55-15.56), or unscaled
// dot-product attention when the caller's scale is 1, head by head:
// reference::attention_head's equations (reference/attention.h), which float64 runs, and
// kernels/attention_head.h's twins for float32.
//   S = Q K^T,  P = softmax(M + scale S),  P~ = P f,  Z = P~ V   (f: dropout's factors)
// Backward:
//   dV = P~^T dZ,  dP = (dZ V^T) f,  dS = scale P (dP - sum(dP P)),  dQ = dS K,  dK = dS^T Q
// Head i reads its own columns of q, k and v where they lie and writes its own columns of z:
// no copy into [B, H, T, d] and back. One thread does a (batch entry, head) from start to
// end: no result depends on the number of threads.

struct Sizes {
    std::int64_t B, Tq, Tk, H, dk, dv;
    // Distance between rows of q, k and v (and of their gradients): H d_k and H d_v when
    // each is a tensor of its own, 3 H d_k when they are the thirds of one qkv tensor.
    std::int64_t q_ld, k_ld, v_ld;
    double score_scale;                           // the factor on Q K^T: 1 / sqrt(d_k), or the caller's
    std::int64_t z_ld() const { return H * dv; }  // of z and dz
    std::int64_t pairs() const { return B * H; }
    std::int64_t p_size() const { return Tq * Tk; }  // one head's P
    template <class T>
    T scale() const {
        return static_cast<T>(score_scale);
    }
    // Work per (batch entry, head) in elements: a multiply-add about an eighth of one
    // (matmul's estimate), a softmax element about eight.
    std::int64_t cost() const { return Tq * Tk * ((dk + dv) / 8 + 8); }

    // Head h of batch entry b, bh = b H + h: where its Q_i, K_i, V_i and Z_i (or their
    // gradients) lie in q, k, v and z, and its P in the [B, H, Tq, Tk] weights.
    template <class T>
    MatrixView<T> q_of(T* q, std::int64_t bh) const {
        return {q + bh / H * Tq * q_ld + bh % H * dk, Tq, dk, q_ld};
    }
    template <class T>
    MatrixView<T> k_of(T* k, std::int64_t bh) const {
        return {k + bh / H * Tk * k_ld + bh % H * dk, Tk, dk, k_ld};
    }
    template <class T>
    MatrixView<T> v_of(T* v, std::int64_t bh) const {
        return {v + bh / H * Tk * v_ld + bh % H * dv, Tk, dv, v_ld};
    }
    template <class T>
    MatrixView<T> z_of(T* z, std::int64_t bh) const {
        return {z + bh / H * Tq * z_ld() + bh % H * dv, Tq, dv, z_ld()};
    }
    template <class T>
    MatrixView<T> p_of(T* p, std::int64_t bh) const {
        return packed_view(p + bh * p_size(), Tq, Tk);
    }
};

// Where q, k and v start (three tensors, or the thirds of one), and their gradients'
// (null where none is needed).
template <class T>
struct Operands {
    const T *q, *k, *v;
};
template <class T>
struct OperandGrads {
    T *dq, *dk, *dv;
};

// The mask as [B, Tq, Tk], step 0 along the dims it broadcasts; keep is null for no mask.
struct MaskView {
    const std::int64_t* keep = nullptr;
    Shape strides;
    MaskRows of_batch(std::int64_t b) const {
        return keep ? MaskRows{keep + b * strides[0], strides[1], strides[2]} : MaskRows{};
    }
};

MaskView mask_view(const Tensor& mask, const Sizes& s) {
    if (!mask.defined()) return {};
    return {mask.data<std::int64_t>(), broadcast_strides(mask.shape(), {s.B, s.Tq, s.Tk})};
}

using detail::DropoutOnP;

// Dropout's factor f(e) for element e of the P whose first element is element `first` of the
// weights, as the reference kernel takes it: 1 without dropout.
template <class T>
auto factor_of(const DropoutOnP& drop, std::int64_t first) {
    return [&drop, first](std::int64_t e) {
        return drop ? detail::dropout_factor(drop->key, drop->keep_below, static_cast<T>(drop->kept), first + e) : T(1);
    };
}

// One thread's buffers for the float32 kernel, reused head after head; none for float64,
// whose reference allocates its own.
template <class T>
std::optional<detail::HeadScratch> scratch_for(const Sizes& s, bool backward) {
    if constexpr (std::is_same_v<T, float>) return detail::HeadScratch(s.Tq, s.Tk, std::max(s.dk, s.dv), backward);
    return std::nullopt;
}

template <class T>
void attention_forward(const Operands<T>& in, const MaskView& mask, const Sizes& s, const DropoutOnP& drop, T* z,
                       T* p) {
    const T scale = s.scale<T>();
    detail::SoftmaxRow* softmax_row = nullptr;
    if constexpr (std::is_same_v<T, float>) softmax_row = detail::softmax_row_for(mask.keep != nullptr, s.Tk, scale);
    parallel_for(s.pairs(), s.cost(), [&](std::int64_t begin, std::int64_t end) {
        std::optional<detail::HeadScratch> scratch = scratch_for<T>(s, false);
        for (std::int64_t bh = begin; bh < end; ++bh) {
            if (bh + 1 < end) detail::prefetch<T>({s.q_of(in.q, bh + 1), s.k_of(in.k, bh + 1), s.v_of(in.v, bh + 1)});
            const MatrixView<const T> Q = s.q_of(in.q, bh), K = s.k_of(in.k, bh), V = s.v_of(in.v, bh);
            const MaskRows m = mask.of_batch(bh / s.H);
            const std::int64_t first = bh * s.p_size();
            if constexpr (std::is_same_v<T, double>)
                reference::attention_head(Q, K, V, m, scale, factor_of<T>(drop, first), s.z_of(z, bh), s.p_of(p, bh));
            else
                detail::attention_head(Q, K, V, m, scale, softmax_row, drop, first, s.z_of(z, bh), s.p_of(p, bh),
                                       *scratch);
        }
    });
}

// Writes dq, dk and dv where `out` says, skipping the null ones.
template <class T>
void attention_backward(const T* dz, const Operands<T>& in, const T* p, const Sizes& s, const DropoutOnP& drop,
                        const OperandGrads<T>& out) {
    const T scale = s.scale<T>();
    const MatrixView<T> none{nullptr, 0, 0, 0};  // a gradient that is not wanted
    parallel_for(s.pairs(), 2 * s.cost(), [&](std::int64_t begin, std::int64_t end) {
        std::optional<detail::HeadScratch> scratch = scratch_for<T>(s, true);
        for (std::int64_t bh = begin; bh < end; ++bh) {
            if (bh + 1 < end)
                detail::prefetch<T>({s.z_of(dz, bh + 1), s.q_of(in.q, bh + 1), s.k_of(in.k, bh + 1),
                                     s.v_of(in.v, bh + 1), s.p_of(p, bh + 1)});
            const MatrixView<const T> dZ = s.z_of(dz, bh), Q = s.q_of(in.q, bh), K = s.k_of(in.k, bh),
                                      V = s.v_of(in.v, bh), P = s.p_of(p, bh);
            const MatrixView<T> dQ = out.dq ? s.q_of(out.dq, bh) : none, dK = out.dk ? s.k_of(out.dk, bh) : none,
                                dV = out.dv ? s.v_of(out.dv, bh) : none;
            const std::int64_t first = bh * s.p_size();
            if constexpr (std::is_same_v<T, double>)
                reference::attention_head_backward(dZ, Q, K, V, P, scale, factor_of<T>(drop, first), dQ, dK, dV);
            else detail::attention_head_backward(dZ, Q, K, V, P, scale, drop, first, dQ, dK, dV, *scratch);
        }
    });
}

void check_dropout(const char* op, double dropout) {
    if (!(dropout >= 0 && dropout < 1))
        throw ValueError(fmt::format("{}: dropout probability {} is outside [0, 1)", op, dropout));
}

// The mask: int64, broadcastable to [B, Tq, Tk].
void check_mask(const char* op, const Tensor& mask, const Sizes& s) {
    if (!mask.defined()) return;
    check_dtype(op, mask, Dtype::int64, "mask");
    const Shape want{s.B, s.Tq, s.Tk};
    bool fits_want = mask.dim() <= 3;  // each of its dims, right-aligned, 1 or want's
    for (int d = 1; fits_want && d <= mask.dim(); ++d) fits_want = mask.size(-d) == 1 || mask.size(-d) == want[3 - d];
    if (!fits_want)
        throw ShapeError(fmt::format("{}: mask {} does not broadcast to [B, Tq, Tk] = {}", op, shape_str(mask.shape()),
                                     shape_str(want)));
}

// The factor on the scores: the caller's, which must be finite, or 1 / sqrt(d_k).
double score_scale(const char* op, std::optional<double> scale, std::int64_t dk) {
    if (!scale) return 1 / std::sqrt(static_cast<double>(dk));
    if (!std::isfinite(*scale))
        throw ValueError(fmt::format("{}: the scale on the scores must be finite, got {}", op, *scale));
    return *scale;
}

Sizes check_attention(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t heads, const Tensor& mask,
                      double dropout, std::optional<double> scale) {
    for (const Tensor* t : {&q, &k, &v}) {
        check_floating("multi_head_attention", *t);
        check_same_dtype("multi_head_attention", q, *t);
    }
    if (heads <= 0) throw ValueError(fmt::format("multi_head_attention: heads must be positive, got {}", heads));
    check_dropout("multi_head_attention", dropout);
    const auto fits = [&] {
        return q.dim() == 3 && k.dim() == 3 && v.dim() == 3 && k.size(0) == q.size(0) && v.size(0) == q.size(0) &&
               k.size(1) == v.size(1) && k.size(2) == q.size(2) && q.size(2) > 0 && q.size(2) % heads == 0 &&
               v.size(2) > 0 && v.size(2) % heads == 0;
    };
    if (!fits())
        throw ShapeError(
            fmt::format("multi_head_attention: q {}, k {} and v {} are not [B, Tq, {} d_k], [B, Tk, {} "
                        "d_k] and [B, Tk, {} d_v] with d_k, d_v > 0",
                        shape_str(q.shape()), shape_str(k.shape()), shape_str(v.shape()), heads, heads, heads));
    const Sizes s{q.size(0),         q.size(1),
                  k.size(1),         heads,
                  q.size(2) / heads, v.size(2) / heads,
                  q.size(2),         k.size(2),
                  v.size(2),         score_scale("multi_head_attention", scale, q.size(2) / heads)};
    check_mask("multi_head_attention", mask, s);
    return s;
}

Sizes check_self_attention(const Tensor& qkv, std::int64_t heads, const Tensor& mask, double dropout,
                           std::optional<double> scale) {
    check_floating("multi_head_self_attention", qkv);
    if (heads <= 0) throw ValueError(fmt::format("multi_head_self_attention: heads must be positive, got {}", heads));
    check_dropout("multi_head_self_attention", dropout);
    if (qkv.dim() != 3 || qkv.size(2) == 0 || qkv.size(2) % (3 * heads) != 0)
        throw ShapeError(fmt::format("multi_head_self_attention: qkv {} is not [B, T, 3 x {} d_k] with d_k > 0",
                                     shape_str(qkv.shape()), heads));
    const std::int64_t D = qkv.size(2) / 3;
    const Sizes s{qkv.size(0), qkv.size(1),
                  qkv.size(1), heads,
                  D / heads,   D / heads,
                  3 * D,       3 * D,
                  3 * D,       score_scale("multi_head_self_attention", scale, D / heads)};
    check_mask("multi_head_self_attention", mask, s);
    return s;
}

DropoutOnP dropout_on_p(double dropout, bool training, Generator& gen) {
    DropoutOnP drop;
    if (training && dropout > 0) drop.emplace(dropout, gen.next_u64());
    return drop;
}

// z and P of every head, for q, k and v where `operands` (a function of the dtype's zero)
// says they start.
template <class Locate>
AttentionOutput attention_values(const Sizes& s, Dtype dtype, const Tensor& mask, const DropoutOnP& drop,
                                 Locate operands) {
    Tensor z = Tensor::empty({s.B, s.Tq, s.z_ld()}, dtype);
    Tensor p = Tensor::empty({s.B, s.H, s.Tq, s.Tk}, dtype);
    if (s.Tk == 0) {
        z.fill_(0);  // no key: every query's weights are empty, its output 0
        return {z, p};
    }
    dispatch_floating(dtype, [&](auto zero) {
        using T = decltype(zero);
        attention_forward<T>(operands(zero), mask_view(mask, s), s, drop, z.data<T>(), p.data<T>());
    });
    return {z, p};
}

// A tensor's data, or null for an undefined tensor.
template <class T>
T* data_or_null(Tensor& t) {
    return t.defined() ? t.data<T>() : nullptr;
}

Sizes check_cache_attention(const Tensor& q, const Tensor& keys_t, const Tensor& values, std::int64_t length,
                            const Tensor& mask, std::optional<double> scale) {
    check_dtype("attention_over_cache", q, Dtype::float32, "q");
    check_dtype("attention_over_cache", keys_t, Dtype::float32, "keys_t");
    check_dtype("attention_over_cache", values, Dtype::float32, "values");
    if (grad_enabled() && (q.requires_grad() || keys_t.requires_grad() || values.requires_grad()))
        throw ValueError("attention_over_cache: no gradient flows through a cache; call it under NoGradGuard");
    const auto fits = [&] {
        if (q.dim() != 3 || keys_t.dim() != 4 || values.dim() != 4) return false;
        const std::int64_t B = q.size(0), H = keys_t.size(1), C = keys_t.size(3);
        return H > 0 && keys_t.size(0) == B && values.size(0) == B && values.size(1) == H && values.size(2) == C &&
               keys_t.size(2) > 0 && q.size(2) == H * keys_t.size(2) && values.size(3) > 0 && C % 8 == 0;
    };
    if (!fits())
        throw ShapeError(fmt::format(
            "attention_over_cache: q {}, keys_t {} and values {} are not [B, Tq, H d_k], [B, H, d_k, C] and [B, H, "
            "C, d_v] with C a multiple of 8",
            shape_str(q.shape()), shape_str(keys_t.shape()), shape_str(values.shape())));
    if (length <= 0 || length > keys_t.size(3))
        throw ValueError(fmt::format("attention_over_cache: length {} is not in [1, {}]", length, keys_t.size(3)));
    const std::int64_t H = keys_t.size(1), dk = keys_t.size(2), dv = values.size(3);
    const Sizes s{q.size(0), q.size(1), length, H,  dk,
                  dv,        q.size(2), dk,     dv, score_scale("attention_over_cache", scale, dk)};
    check_mask("attention_over_cache", mask, s);
    return s;
}

}  // namespace

AttentionOutput attention_over_cache(const Tensor& q, const Tensor& keys_t, const Tensor& values, std::int64_t length,
                                     const Tensor& mask, std::optional<double> scale) {
    const Sizes s = check_cache_attention(q, keys_t, values, length, mask, scale);
    const std::int64_t C = keys_t.size(3);
    Tensor z = Tensor::empty({s.B, s.Tq, s.z_ld()}, Dtype::float32);
    Tensor p = Tensor::empty({s.B, s.H, s.Tq, s.Tk}, Dtype::float32);
    const float *qd = q.data<float>(), *kt = keys_t.data<float>(), *vd = values.data<float>();
    float *zd = z.data<float>(), *pd = p.data<float>();
    const MaskView m = mask_view(mask, s);
    const auto scale_f = s.scale<float>();
    detail::SoftmaxRow* softmax_row = detail::softmax_row_for(m.keep != nullptr, s.Tk, scale_f);
    // Head bh's K^T: d_k rows C apart; its V: Tk rows d_v apart.
    auto kt_of = [&](std::int64_t bh) { return MatrixView<const float>{kt + bh * s.dk * C, s.dk, s.Tk, C}; };
    auto v_of = [&](std::int64_t bh) { return MatrixView<const float>{vd + bh * C * s.dv, s.Tk, s.dv, s.dv}; };
    parallel_for(s.pairs(), s.cost(), [&](std::int64_t begin, std::int64_t end) {
        detail::HeadScratch scratch(s.Tq, s.Tk, std::max(s.dk, s.dv), false);
        for (std::int64_t bh = begin; bh < end; ++bh) {
            if (bh + 1 < end) detail::prefetch<float>({s.q_of(qd, bh + 1), kt_of(bh + 1), v_of(bh + 1)});
            detail::attention_head_over_cache(s.q_of(qd, bh), kt_of(bh), v_of(bh), m.of_batch(bh / s.H), scale_f,
                                              softmax_row, s.z_of(zd, bh), s.p_of(pd, bh), scratch);
        }
    });
    return {z, p};
}

AttentionOutput multi_head_attention(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t heads,
                                     const Tensor& mask, double dropout, bool training, Generator& gen,
                                     std::optional<double> scale) {
    const Sizes s = check_attention(q, k, v, heads, mask, dropout, scale);
    const DropoutOnP drop = dropout_on_p(dropout, training, gen);
    AttentionOutput out = attention_values(s, q.dtype(), mask, drop, [&](auto zero) {
        using T = decltype(zero);
        return Operands<T>{q.data<T>(), k.data<T>(), v.data<T>()};
    });
    out.z = record("multi_head_attention", {q, k, v}, out.z, [q, k, v, p = out.weights, s, drop](const Tensor& dz) {
        if (s.Tk == 0 || s.Tq == 0)
            return std::vector{zeros(q.shape(), q.dtype()), zeros(k.shape(), k.dtype()), zeros(v.shape(), v.dtype())};
        Tensor dq = q.requires_grad() ? Tensor::empty(q.shape(), q.dtype()) : Tensor();
        Tensor dk = k.requires_grad() ? Tensor::empty(k.shape(), k.dtype()) : Tensor();
        Tensor dv = v.requires_grad() ? Tensor::empty(v.shape(), v.dtype()) : Tensor();
        dispatch_floating(dz.dtype(), [&](auto zero) {
            using T = decltype(zero);
            attention_backward<T>(dz.data<T>(), {q.data<T>(), k.data<T>(), v.data<T>()}, p.data<T>(), s, drop,
                                  {data_or_null<T>(dq), data_or_null<T>(dk), data_or_null<T>(dv)});
        });
        return std::vector{dq, dk, dv};
    });
    return out;
}

AttentionOutput multi_head_self_attention(const Tensor& qkv, std::int64_t heads, const Tensor& mask, double dropout,
                                          bool training, Generator& gen, std::optional<double> scale) {
    const Sizes s = check_self_attention(qkv, heads, mask, dropout, scale);
    const DropoutOnP drop = dropout_on_p(dropout, training, gen);
    const std::int64_t D = s.H * s.dk;  // q, k and v: columns [0, D), [D, 2D) and [2D, 3D)
    AttentionOutput out = attention_values(s, qkv.dtype(), mask, drop, [&](auto zero) {
        using T = decltype(zero);
        const T* x = qkv.data<T>();
        return Operands<T>{x, x + D, x + 2 * D};
    });
    out.z = record("multi_head_self_attention", {qkv}, out.z, [qkv, p = out.weights, s, drop, D](const Tensor& dz) {
        if (s.Tk == 0) return std::vector{zeros(qkv.shape(), qkv.dtype())};
        Tensor dqkv = Tensor::empty(qkv.shape(), qkv.dtype());  // every element is some head's dq, dk or dv
        dispatch_floating(dz.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* x = qkv.data<T>();
            T* dx = dqkv.data<T>();
            attention_backward<T>(dz.data<T>(), {x, x + D, x + 2 * D}, p.data<T>(), s, drop, {dx, dx + D, dx + 2 * D});
        });
        return std::vector{dqkv};
    });
    return out;
}

}  // namespace autograd
