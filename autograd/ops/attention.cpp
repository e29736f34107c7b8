#include "autograd/ops/attention.h"

#include <cmath>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "autograd/checks.h"
#include "autograd/factories.h"
#include "autograd/graph.h"
#include "autograd/ops/dropout_draw.h"
#include "autograd/ops/head_products.h"
#include "autograd/ops/softmax_row.h"
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
    std::int64_t qk_row() const { return H * dk; }  // distance between rows of q (and of k)
    std::int64_t v_row() const { return H * dv; }   // of v and z
    std::int64_t pairs() const { return B * H; }
    std::int64_t p_size() const { return Tq * Tk; }  // one head's P
    // Where head h of batch entry b starts in q (and dq), k (dk), v (dv) and z (dz).
    struct Offsets {
        std::int64_t q, k, v, z;
    };
    Offsets at(std::int64_t b, std::int64_t h) const {
        return {b * Tq * qk_row() + h * dk, b * Tk * qk_row() + h * dk, b * Tk * v_row() + h * dv,
                b * Tq * v_row() + h * dv};
    }
    template <class T>
    T scale() const {
        return static_cast<T>(1 / std::sqrt(static_cast<double>(dk)));  // 1 / sqrt(d_k)
    }
    // Work per (batch entry, head) in elements: a multiply-add about an eighth of one
    // (matmul's estimate), a softmax element about eight.
    std::int64_t cost() const { return Tq * Tk * ((dk + dv) / 8 + 8); }
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

template <class T>
void attention_forward(const Tensor& q, const Tensor& k, const Tensor& v, const MaskView& mask, const Sizes& s,
                       const DropoutOnP& drop, Tensor& z, Tensor& p) {
    const T scale = s.scale<T>();
    parallel_for(s.pairs(), s.cost(), [&](std::int64_t begin, std::int64_t end) {
        HeadScratch<T> scratch(s, drop.has_value(), false);
        for (std::int64_t bh = begin; bh < end; ++bh) {
            const std::int64_t b = bh / s.H;
            const Sizes::Offsets at = s.at(b, bh % s.H);
            const T* qi = q.data<T>() + at.q;  // Q_i: [Tq, d_k], rows qk_row apart
            const T* ki = k.data<T>() + at.k;  // K_i: [Tk, d_k]
            const T* vi = v.data<T>() + at.v;  // V_i: [Tk, d_v], rows v_row apart
            T* zi = z.data<T>() + at.z;        // Z_i: [Tq, d_v]
            T* pi = p.data<T>() + bh * s.p_size();  // P: [Tq, Tk]
            T* si = scratch.s.get();                 // S: [Tq, Tk]
            detail::pack_transposed(ki, s.qk_row(), s.Tk, s.dk, scratch.transposed.get());
            detail::head_product(s.Tq, s.Tk, s.dk, qi, s.qk_row(), 1, scratch.transposed.get(),
                                 detail::padded_width(s.Tk), si, s.Tk);  // S = Q_i K_i^T
            for (std::int64_t r = 0; r < s.Tq; ++r)
                detail::masked_softmax_row(si + r * s.Tk, pi + r * s.Tk, s.Tk, mask.row(b, r), mask.step(), scale);
            const T* pd = pi;
            if (drop) {
                detail::apply_dropout(*drop, pi, scratch.p.get(), s.p_size(), bh * s.p_size());
                pd = scratch.p.get();
            }
            std::int64_t ldv = 0;
            const T* vrows = as_product_rows(vi, s.v_row(), s.Tk, s.dv, scratch.rows.get(), &ldv);
            detail::head_product(s.Tq, s.dv, s.Tk, pd, s.Tk, 1, vrows, ldv, zi, s.v_row());  // Z_i = P~ V_i
        }
    });
}

// {dq, dk, dv}, each undefined where its input needs no gradient.
template <class T>
std::vector<Tensor> attention_backward(const Tensor& dz, const Tensor& q, const Tensor& k, const Tensor& v,
                                       const Tensor& p, const Sizes& s, const DropoutOnP& drop) {
    const bool need_q = q.requires_grad(), need_k = k.requires_grad(), need_v = v.requires_grad();
    Tensor dq = need_q ? Tensor::empty(q.shape(), q.dtype()) : Tensor();
    Tensor dk = need_k ? Tensor::empty(k.shape(), k.dtype()) : Tensor();
    Tensor dv = need_v ? Tensor::empty(v.shape(), v.dtype()) : Tensor();
    const T scale = s.scale<T>();
    parallel_for(s.pairs(), 2 * s.cost(), [&](std::int64_t begin, std::int64_t end) {
        HeadScratch<T> scratch(s, drop.has_value(), true);
        T* dp = scratch.s.get();  // dP~, then dP: [Tq, Tk]
        T* ds = scratch.ds.get();  // dS: [Tq, Tk]
        for (std::int64_t bh = begin; bh < end; ++bh) {
            const Sizes::Offsets at = s.at(bh / s.H, bh % s.H);
            const T* dzi = dz.data<T>() + at.z;
            const T* pi = p.data<T>() + bh * s.p_size();
            if (need_v) {
                const T* pd = pi;
                if (drop) {
                    detail::apply_dropout(*drop, pi, scratch.p.get(), s.p_size(), bh * s.p_size());
                    pd = scratch.p.get();
                }
                std::int64_t ldz = 0;
                const T* dzrows = as_product_rows(dzi, s.v_row(), s.Tq, s.dv, scratch.rows.get(), &ldz);
                detail::head_product(s.Tk, s.dv, s.Tq, pd, 1, s.Tk, dzrows, ldz, dv.data<T>() + at.v,
                                     s.v_row());  // dV_i = P~^T dZ_i
            }
            if (!need_q && !need_k) continue;
            detail::pack_transposed(v.data<T>() + at.v, s.v_row(), s.Tk, s.dv, scratch.transposed.get());
            detail::head_product(s.Tq, s.Tk, s.dv, dzi, s.v_row(), 1, scratch.transposed.get(),
                                 detail::padded_width(s.Tk), dp, s.Tk);  // dP~ = dZ_i V_i^T
            if (drop) detail::apply_dropout(*drop, dp, dp, s.p_size(), bh * s.p_size());  // dP = dP~ f
            for (std::int64_t r = 0; r < s.Tq; ++r)
                detail::masked_softmax_backward_row(dp + r * s.Tk, pi + r * s.Tk, ds + r * s.Tk, s.Tk, scale);
            if (need_q) {
                std::int64_t ldk = 0;
                const T* krows = as_product_rows(k.data<T>() + at.k, s.qk_row(), s.Tk, s.dk, scratch.rows.get(), &ldk);
                detail::head_product(s.Tq, s.dk, s.Tk, ds, s.Tk, 1, krows, ldk, dq.data<T>() + at.q,
                                     s.qk_row());  // dQ_i = dS K_i
            }
            if (need_k) {
                std::int64_t ldq = 0;
                const T* qrows = as_product_rows(q.data<T>() + at.q, s.qk_row(), s.Tq, s.dk, scratch.rows.get(), &ldq);
                detail::head_product(s.Tk, s.dk, s.Tq, ds, 1, s.Tk, qrows, ldq, dk.data<T>() + at.k,
                                     s.qk_row());  // dK_i = dS^T Q_i
            }
        }
    });
    return {dq, dk, dv};
}

Sizes check_attention(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t heads, const Tensor& mask,
                      double dropout) {
    for (const Tensor* t : {&q, &k, &v}) {
        check_floating("multi_head_attention", *t);
        check_same_dtype("multi_head_attention", q, *t);
    }
    if (heads <= 0) throw ValueError(fmt::format("multi_head_attention: heads must be positive, got {}", heads));
    if (!(dropout >= 0 && dropout < 1))
        throw ValueError(fmt::format("multi_head_attention: dropout probability {} is outside [0, 1)", dropout));
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
    const Sizes s{q.size(0), q.size(1), k.size(1), heads, q.size(2) / heads, v.size(2) / heads};
    if (mask.defined()) {
        check_dtype("multi_head_attention", mask, Dtype::int64, "mask");
        const Shape want{s.B, s.Tq, s.Tk};
        bool fits_want = mask.dim() <= 3;  // each of its dims, right-aligned, 1 or want's
        for (int d = 1; fits_want && d <= mask.dim(); ++d)
            fits_want = mask.size(-d) == 1 || mask.size(-d) == want[3 - d];
        if (!fits_want)
            throw ShapeError(fmt::format("multi_head_attention: mask {} does not broadcast to [B, Tq, Tk] = {}",
                                         shape_str(mask.shape()), shape_str(want)));
    }
    return s;
}

}  // namespace

AttentionOutput multi_head_attention(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t heads,
                                     const Tensor& mask, double dropout, bool training, Generator& gen) {
    const Sizes s = check_attention(q, k, v, heads, mask, dropout);
    Tensor z = Tensor::empty({s.B, s.Tq, s.H * s.dv}, q.dtype());
    Tensor p = Tensor::empty({s.B, s.H, s.Tq, s.Tk}, q.dtype());
    DropoutOnP drop;
    if (training && dropout > 0) drop.emplace(dropout, gen.next_u64());
    if (s.Tk == 0) {
        z.fill_(0);  // no key: every query's weights are empty, its output 0
    } else {
        dispatch_floating(q.dtype(), [&](auto zero) {
            attention_forward<decltype(zero)>(q, k, v, mask_view(mask, s), s, drop, z, p);
        });
    }
    z = record("multi_head_attention", {q, k, v}, z, [q, k, v, p, s, drop](const Tensor& dz) {
        if (s.Tk == 0 || s.Tq == 0)
            return std::vector{zeros(q.shape(), q.dtype()), zeros(k.shape(), k.dtype()), zeros(v.shape(), v.dtype())};
        std::vector<Tensor> grads;
        dispatch_floating(dz.dtype(), [&](auto zero) {
            grads = attention_backward<decltype(zero)>(dz, q, k, v, p, s, drop);
        });
        return grads;
    });
    return {z, p};
}

}  // namespace autograd
