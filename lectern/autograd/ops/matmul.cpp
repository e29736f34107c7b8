#include "lectern/autograd/ops/matmul.h"

#include <algorithm>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/broadcast.h"
#include "lectern/autograd/kernels/gemm.h"
#include "lectern/autograd/ops/reshape.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

Shape batch_of(const Tensor& t) { return Shape(t.shape().begin(), t.shape().end() - 2); }

// Offset (in matrices) of batch entry `i` of the broadcast batch `out` in an
// operand of batch shape `own`.
std::int64_t batch_offset(std::int64_t i, const Shape& out, const Shape& own_strides) {
    std::int64_t off = 0;
    for (std::size_t d = out.size(); d-- > 0;) {
        off += (i % out[d]) * own_strides[d];
        i /= out[d];
    }
    return off;
}

// The matrix product over broadcast batch dims, op(X) = X or X^T by its flag
// (a GEMM flag, never a copy):
//   C = op(A) op(B)
// Backward, each gradient summed over the batch dims its operand was broadcast along:
//   dA = dC op(B)^T,  or its transpose op(B) dC^T when A was given transposed;
//   dB = op(A)^T dC,  or its transpose dC^T op(A) when B was given transposed.

// C's rows m, columns n and the inner size k; ShapeError when they do not fit.
struct MatmulSizes {
    std::int64_t m, n, k;
};

MatmulSizes check_matmul(const Tensor& a, const Tensor& b, bool transpose_a, bool transpose_b) {
    check_floating("matmul", a);
    check_floating("matmul", b);
    check_same_dtype("matmul", a, b);
    if (a.dim() < 2 || b.dim() < 2)
        throw ShapeError(fmt::format("matmul: operands must have at least 2 dims: {} @ {}", shape_str(a.shape()),
                                     shape_str(b.shape())));
    const std::int64_t m = a.size(transpose_a ? -1 : -2), k = a.size(transpose_a ? -2 : -1);
    const std::int64_t kb = b.size(transpose_b ? -1 : -2), n = b.size(transpose_b ? -2 : -1);
    if (k != kb)
        throw ShapeError(fmt::format("matmul: inner dimensions differ: {}{} @ {}{}", shape_str(a.shape()),
                                     transpose_a ? "^T" : "", shape_str(b.shape()), transpose_b ? "^T" : ""));
    using detail::kBlasMax;
    if (m * std::max<std::int64_t>(numel(batch_of(a)), 1) > kBlasMax || n > kBlasMax || k > kBlasMax)
        throw ShapeError(
            fmt::format("matmul: operands too large for BLAS: {} @ {}", shape_str(a.shape()), shape_str(b.shape())));
    return {m, n, k};
}

Tensor matmul_forward(const Tensor& a, const Tensor& b, bool transpose_a, bool transpose_b, MatmulSizes size) {
    const std::int64_t m = size.m, n = size.n, k = size.k;  // not a structured binding: clang 14 cannot capture one
    Shape batch = broadcast_shapes("matmul", batch_of(a), batch_of(b));
    Shape c_shape = batch;
    c_shape.push_back(m);
    c_shape.push_back(n);
    Tensor c = Tensor::empty(c_shape, a.dtype());
    dispatch_floating(a.dtype(), [&](auto zero) {
        using T = decltype(zero);
        if (b.dim() == 2 && !transpose_a) {
            // A's batch dims fold into the rows: one GEMM (a Linear on [B, T, D]).
            detail::gemm(false, transpose_b, numel(batch) * m, n, k, a.data<T>(), b.data<T>(), c.data<T>());
            return;
        }
        if (numel(batch) == 1) {  // one product (a weight's gradient): its rows split over the threads
            detail::gemm(transpose_a, transpose_b, m, n, k, a.data<T>(), b.data<T>(), c.data<T>());
            return;
        }
        // Batched products: split over the threads by batch entry, each GEMM on one thread.
        // A multiply-add costs about an eighth of an elementwise kernel's element.
        const Shape a_strides = broadcast_strides(batch_of(a), batch),
                    b_strides = broadcast_strides(batch_of(b), batch);
        parallel_for(numel(batch), m * n * k / 8, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                const T* ai = a.data<T>() + batch_offset(i, batch, a_strides) * m * k;
                const T* bi = b.data<T>() + batch_offset(i, batch, b_strides) * k * n;
                detail::gemm_call(transpose_a, transpose_b, m, n, k, ai, transpose_a ? m : k, bi, transpose_b ? k : n,
                                  c.data<T>() + i * m * n, n, T(0));
            }
        });
    });
    return c;
}

// {dA, dB}, each undefined where its operand needs no gradient.
std::vector<Tensor> matmul_backward(const Tensor& dc, const Tensor& a, const Tensor& b, bool transpose_a,
                                    bool transpose_b) {
    Tensor da, db;
    if (a.requires_grad()) {
        da = transpose_a ? matmul(b, dc, transpose_b, true) : matmul(dc, b, false, !transpose_b);
        da = sum_to(da, a.shape());
    }
    if (b.requires_grad()) {
        if (b.dim() == 2 && a.dim() > 2 && !transpose_a) {
            // B was shared by every batch entry: one GEMM over the folded batch.
            Tensor a2 = reshape(a, {-1, a.size(-1)});
            Tensor dc2 = reshape(dc, {-1, dc.size(-1)});
            db = transpose_b ? matmul(dc2, a2, true, transpose_a) : matmul(a2, dc2, !transpose_a, false);
        } else {
            db = transpose_b ? matmul(dc, a, true, transpose_a) : matmul(a, dc, !transpose_a, false);
            db = sum_to(db, b.shape());
        }
    }
    return {da, db};
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a, bool transpose_b) {
    MatmulSizes size = check_matmul(a, b, transpose_a, transpose_b);
    Tensor c = matmul_forward(a, b, transpose_a, transpose_b, size);
    return record("matmul", {a, b}, c, [a, b, transpose_a, transpose_b](const Tensor& dc) {
        return matmul_backward(dc, a, b, transpose_a, transpose_b);
    });
}

}  // namespace autograd
