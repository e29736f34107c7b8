#include "autograd/ops/attention.h"

#include <cmath>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "autograd/checks.h"
#include "autograd/factories.h"
#include "autograd/graph.h"
#include "autograd/kernels/dropout_draw.h"
#include "autograd/kernels/head_products.h"
#include "autograd/kernels/softmax_row.h"
#include "autograd/parallel.h"

namespace autograd {
namespace {

// Scaled dot-product attention of every head (001 "Scaled Dot-Product Attention" and
// "Multi-head attention"; 004 §15.5.1 eq. 15.54 and §15.5.2 eq. 15.55-15.56). Head i reads
// its own columns of q, k and v where they are, and writes its own columns of z: no copy
// into [B, H, T, d] and back. For each batch entry and head:
//   S = Q_i K_i^T,  P = softmax(M + S / sqrt(d_k)),  P~ = dropout(P),  Z_i = P~ V_i
// Backward (f = dropout's factor per element, 0 or 1 / (1 - p)):
//   dV_i = P~^T dZ_i,  dP = (dZ_i V_i^T) f,  dS = P (dP - sum(dP P)) / sqrt(d_k),
//   dQ_i = dS K_i,  dK_i = dS^T Q_i
// One thread does a (batch entry, head) from start to end, with P still in its cache: no
// result depends on the number of threads. The products are head_products.h's, not BLAS's:
// at these sizes a BLAS call's fixed costs were most of its time (docs/performance.md).

struct Sizes {
    std::int64_t B, Tq, Tk, H, dk, dv;
    // Distance between rows of q, k and v (and of their gradients): H d_k and H d_v when
    // each is a tensor of its own, 3 H d_k when they are the thirds of one qkv tensor.
    std::int64_t q_ld, k_ld, v_ld;
    std::int64_t z_ld() const { return H * dv; }  // of z and dz
    std::int64_t pairs() const { return B * H; }
    std::int64_t p_size() const { return Tq * Tk; }  // one head's P
    // Where head h of batch entry b starts in q (and dq), k (dk), v (dv) and z (dz).
    struct Offsets {
        std::int64_t q, k, v, z;
    };
    Offsets at(std::int64_t b, std::int64_t h) const {
        return {b * Tq * q_ld + h * dk, b * Tk * k_ld + h * dk, b * Tk * v_ld + h * dv, b * Tq * z_ld() + h * dv};
    }
    template <class T>
    T scale() const {
        return static_cast<T>(1 / std::sqrt(static_cast<double>(dk)));  // 1 / sqrt(d_k)
    }
    // Work per (batch entry, head) in elements: a multiply-add about an eighth of one
    // (matmul's estimate), a softmax element about eight.
    std::int64_t cost() const { return Tq * Tk * ((dk + dv) / 8 + 8); }
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
    const std::int64_t* row(std::int64_t b, std::int64_t i) const {
        return keep ? keep + b * strides[0] + i * strides[1] : nullptr;
    }
    std::int64_t step() const { return keep ? strides[2] : 0; }
};

MaskView mask_view(const Tensor& mask, const Sizes& s) {
    if (!mask.defined()) return {};
    return {mask.data<std::int64_t>(), broadcast_strides(mask.shape(), {s.B, s.Tq, s.Tk})};
}

// Dropout's draw on P, kept for the backward; none in evaluation and for p = 0. Element j of
// head bh's P is element bh Tq Tk + j of the [B, H, Tq, Tk] weights: the same factors as
// autograd::dropout on the weights would draw.
using DropoutOnP = std::optional<detail::DropoutDraw>;

// A head's [rows, cols] block of a wider tensor (rows ld apart), as head_product reads its B:
// in place when cols is a multiple of its vector width, else copied into `scratch`. The
// copy's rows are padded_width(cols) apart; *ldb says which.
template <class T>
const T* as_product_rows(const T* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, T* scratch,
                         std::int64_t* ldb) {
    if (cols % detail::kLanes == 0) {
        *ldb = ld;
        return src;
    }
    detail::pack_rows(src, ld, rows, cols, scratch);
    *ldb = detail::padded_width(cols);
    return scratch;
}

// One thread's buffers, sized for any (batch entry, head); ds only for the backward.
template <class T>
struct HeadScratch {
    std::unique_ptr<T[]> rows, transposed, s, p, ds;
    HeadScratch(const Sizes& sz, bool dropped, bool backward) {
        const std::int64_t d = std::max(sz.dk, sz.dv), t = std::max(sz.Tq, sz.Tk);
        rows.reset(new T[t * detail::padded_width(d)]);           // a [T, d] block, padded
        transposed.reset(new T[d * detail::padded_width(sz.Tk)]);  // K_i^T or V_i^T, padded
        s.reset(new T[sz.p_size()]);
        p.reset(dropped ? new T[sz.p_size()] : nullptr);
        ds.reset(backward ? new T[sz.p_size()] : nullptr);
    }
};

// Asks the cache for a [rows, cols] block (rows ld apart) that the next head reads. A head's
// rows are H d_k apart (3 H d_k in qkv), too few and too far apart for the hardware's own
// prefetching to follow, so each was a wait on memory: this took a ViT step's attention
// regions from 2.04-2.18 to 1.60-1.73 ms.
template <class T>
void prefetch_rows(const T* p, std::int64_t ld, std::int64_t rows, std::int64_t cols) {
    constexpr std::int64_t line = 64 / sizeof(T);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; c += line) __builtin_prefetch(p + r * ld + c);
}

template <class T>
void attention_forward(const Operands<T>& in, const MaskView& mask, const Sizes& s, const DropoutOnP& drop, T* z,
                       T* p) {
    const T scale = s.scale<T>();
    parallel_for(s.pairs(), s.cost(), [&](std::int64_t begin, std::int64_t end) {
        HeadScratch<T> scratch(s, drop.has_value(), false);
        for (std::int64_t bh = begin; bh < end; ++bh) {
            const std::int64_t b = bh / s.H;
            const Sizes::Offsets at = s.at(b, bh % s.H);
            if (bh + 1 < end) {
                const Sizes::Offsets next = s.at((bh + 1) / s.H, (bh + 1) % s.H);
                prefetch_rows(in.q + next.q, s.q_ld, s.Tq, s.dk);
                prefetch_rows(in.k + next.k, s.k_ld, s.Tk, s.dk);
                prefetch_rows(in.v + next.v, s.v_ld, s.Tk, s.dv);
            }
            const T* qi = in.q + at.q;  // Q_i: [Tq, d_k], rows q_ld apart
            const T* ki = in.k + at.k;  // K_i: [Tk, d_k], rows k_ld apart
            const T* vi = in.v + at.v;  // V_i: [Tk, d_v], rows v_ld apart
            T* zi = z + at.z;           // Z_i: [Tq, d_v], rows z_ld apart
            T* pi = p + bh * s.p_size();  // P: [Tq, Tk]
            T* si = scratch.s.get();      // S: [Tq, Tk]
            detail::pack_transposed(ki, s.k_ld, s.Tk, s.dk, scratch.transposed.get());
            detail::head_product(s.Tq, s.Tk, s.dk, qi, s.q_ld, 1, scratch.transposed.get(),
                                 detail::padded_width(s.Tk), si, s.Tk);  // S = Q_i K_i^T
            for (std::int64_t r = 0; r < s.Tq; ++r)
                detail::masked_softmax_row(si + r * s.Tk, pi + r * s.Tk, s.Tk, mask.row(b, r), mask.step(), scale);
            const T* pd = pi;
            if (drop) {
                detail::apply_dropout(*drop, pi, scratch.p.get(), s.p_size(), bh * s.p_size());
                pd = scratch.p.get();
            }
            std::int64_t ldv = 0;
            const T* vrows = as_product_rows(vi, s.v_ld, s.Tk, s.dv, scratch.rows.get(), &ldv);
            detail::head_product(s.Tq, s.dv, s.Tk, pd, s.Tk, 1, vrows, ldv, zi, s.z_ld());  // Z_i = P~ V_i
        }
    });
}

// Writes dq, dk and dv where `out` says, skipping the null ones.
template <class T>
void attention_backward(const T* dz, const Operands<T>& in, const T* p, const Sizes& s, const DropoutOnP& drop,
                        const OperandGrads<T>& out) {
    const T scale = s.scale<T>();
    parallel_for(s.pairs(), 2 * s.cost(), [&](std::int64_t begin, std::int64_t end) {
        HeadScratch<T> scratch(s, drop.has_value(), true);
        T* dp = scratch.s.get();  // dP~, then dP: [Tq, Tk]
        T* ds = scratch.ds.get();  // dS: [Tq, Tk]
        for (std::int64_t bh = begin; bh < end; ++bh) {
            const Sizes::Offsets at = s.at(bh / s.H, bh % s.H);
            if (bh + 1 < end) {
                const Sizes::Offsets next = s.at((bh + 1) / s.H, (bh + 1) % s.H);
                prefetch_rows(dz + next.z, s.z_ld(), s.Tq, s.dv);
                prefetch_rows(in.q + next.q, s.q_ld, s.Tq, s.dk);
                prefetch_rows(in.k + next.k, s.k_ld, s.Tk, s.dk);
                prefetch_rows(in.v + next.v, s.v_ld, s.Tk, s.dv);
                prefetch_rows(p + (bh + 1) * s.p_size(), s.p_size(), 1, s.p_size());
            }
            const T* dzi = dz + at.z;
            const T* pi = p + bh * s.p_size();
            if (out.dv) {
                const T* pd = pi;
                if (drop) {
                    detail::apply_dropout(*drop, pi, scratch.p.get(), s.p_size(), bh * s.p_size());
                    pd = scratch.p.get();
                }
                std::int64_t ldz = 0;
                const T* dzrows = as_product_rows(dzi, s.z_ld(), s.Tq, s.dv, scratch.rows.get(), &ldz);
                detail::head_product(s.Tk, s.dv, s.Tq, pd, 1, s.Tk, dzrows, ldz, out.dv + at.v,
                                     s.v_ld);  // dV_i = P~^T dZ_i
            }
            if (!out.dq && !out.dk) continue;
            detail::pack_transposed(in.v + at.v, s.v_ld, s.Tk, s.dv, scratch.transposed.get());
            detail::head_product(s.Tq, s.Tk, s.dv, dzi, s.z_ld(), 1, scratch.transposed.get(),
                                 detail::padded_width(s.Tk), dp, s.Tk);  // dP~ = dZ_i V_i^T
            if (drop) detail::apply_dropout(*drop, dp, dp, s.p_size(), bh * s.p_size());  // dP = dP~ f
            for (std::int64_t r = 0; r < s.Tq; ++r)
                detail::masked_softmax_backward_row(dp + r * s.Tk, pi + r * s.Tk, ds + r * s.Tk, s.Tk, scale);
            if (out.dq) {
                std::int64_t ldk = 0;
                const T* krows = as_product_rows(in.k + at.k, s.k_ld, s.Tk, s.dk, scratch.rows.get(), &ldk);
                detail::head_product(s.Tq, s.dk, s.Tk, ds, s.Tk, 1, krows, ldk, out.dq + at.q,
                                     s.q_ld);  // dQ_i = dS K_i
            }
            if (out.dk) {
                std::int64_t ldq = 0;
                const T* qrows = as_product_rows(in.q + at.q, s.q_ld, s.Tq, s.dk, scratch.rows.get(), &ldq);
                detail::head_product(s.Tk, s.dk, s.Tq, ds, 1, s.Tk, qrows, ldq, out.dk + at.k,
                                     s.k_ld);  // dK_i = dS^T Q_i
            }
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
    for (int d = 1; fits_want && d <= mask.dim(); ++d)
        fits_want = mask.size(-d) == 1 || mask.size(-d) == want[3 - d];
    if (!fits_want)
        throw ShapeError(fmt::format("{}: mask {} does not broadcast to [B, Tq, Tk] = {}", op,
                                     shape_str(mask.shape()), shape_str(want)));
}

Sizes check_attention(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t heads, const Tensor& mask,
                      double dropout) {
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
        throw ShapeError(fmt::format("multi_head_attention: q {}, k {} and v {} are not [B, Tq, {} d_k], [B, Tk, {} "
                                     "d_k] and [B, Tk, {} d_v] with d_k, d_v > 0",
                                     shape_str(q.shape()), shape_str(k.shape()), shape_str(v.shape()), heads, heads,
                                     heads));
    const Sizes s{q.size(0),         q.size(1), k.size(1), heads, q.size(2) / heads,
                  v.size(2) / heads, q.size(2), k.size(2), v.size(2)};
    check_mask("multi_head_attention", mask, s);
    return s;
}

Sizes check_self_attention(const Tensor& qkv, std::int64_t heads, const Tensor& mask, double dropout) {
    check_floating("multi_head_self_attention", qkv);
    if (heads <= 0) throw ValueError(fmt::format("multi_head_self_attention: heads must be positive, got {}", heads));
    check_dropout("multi_head_self_attention", dropout);
    if (qkv.dim() != 3 || qkv.size(2) == 0 || qkv.size(2) % (3 * heads) != 0)
        throw ShapeError(fmt::format("multi_head_self_attention: qkv {} is not [B, T, 3 x {} d_k] with d_k > 0",
                                     shape_str(qkv.shape()), heads));
    const std::int64_t D = qkv.size(2) / 3;
    const Sizes s{qkv.size(0), qkv.size(1), qkv.size(1), heads, D / heads, D / heads, 3 * D, 3 * D, 3 * D};
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

}  // namespace

AttentionOutput multi_head_attention(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t heads,
                                     const Tensor& mask, double dropout, bool training, Generator& gen) {
    const Sizes s = check_attention(q, k, v, heads, mask, dropout);
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
                                     bool training, Generator& gen) {
    const Sizes s = check_self_attention(qkv, heads, mask, dropout);
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
            attention_backward<T>(dz.data<T>(), {x, x + D, x + 2 * D}, p.data<T>(), s, drop,
                                  {dx, dx + D, dx + 2 * D});
        });
        return std::vector{dqkv};
    });
    return out;
}

}  // namespace autograd
