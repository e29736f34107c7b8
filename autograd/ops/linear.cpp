#include "autograd/ops/linear.h"

#include <algorithm>

#include <fmt/format.h>

#include "autograd/checks.h"
#include "autograd/graph.h"
#include "autograd/ops/broadcast.h"
#include "autograd/kernels/gemm.h"
#include "autograd/ops/matmul.h"
#include "autograd/ops/reshape.h"
#include "autograd/parallel.h"

namespace autograd {
namespace {

// The affine map over the rows of x, [rows, in] with rows the product of its leading dims,
// one token per row (003's Q = X W_Q; 001's nn.Linear, PyTorch's weight layout [out, in]):
//   y = x W^T + b
// computed as one GEMM adding into y, which starts as b in every row (0 without a bias), so
// the bias costs no pass of its own, nor does BLAS's zeroing of y.
// Backward, each a GEMM over the folded rows but db, which is summed beside dW:
//   dx = dy W,   dW = dy^T x,   db = sum over rows of dy.

Tensor linear_forward(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    const std::int64_t in = weight.size(1), out = weight.size(0);
    Shape y_shape = x.shape();
    y_shape.back() = out;
    const std::int64_t rows = numel(Shape(y_shape.begin(), y_shape.end() - 1));
    Tensor y = Tensor::empty(y_shape, x.dtype());
    if (y.numel() == 0) return y;
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* py = y.data<T>();
        const T* pb = bias.defined() ? bias.data<T>() : nullptr;
        // Each thread's rows: filled with b, then its part of the GEMM adds into them while
        // they are still in its cache (detail::gemm's split, with the fill in the same loop).
        parallel_for(rows, out + out * in / 8, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r)
                for (std::int64_t j = 0; j < out; ++j) py[r * out + j] = pb ? pb[j] : T(0);
            if (in > 0)
                detail::gemm_call(false, true, end - begin, out, in, x.data<T>() + begin * in, in, weight.data<T>(), in,
                                  py + begin * out, out, T(1));
        });
    });
    return y;
}

// dW = dy^T x and db = the sum of dy's rows, both over the rows split between the threads:
// each thread's part is one BLAS call into an [out, in] of its own (the first thread's is dW
// itself) and its rows' column sums, and then the parts are added in thread order. Split this
// way each thread packs only its own rows of x and dy for BLAS; split by dW's rows, each
// packed all of x (0.13 ms of a ViT step's 14). The sums depend on the number of threads.
template <class T>
void weight_gradients(const T* dy, const T* x, std::int64_t rows, std::int64_t out, std::int64_t in, T* dw, T* db) {
    const std::int64_t size = out * in;
    const std::int64_t row_cost = size / 8;  // a multiply-add costs about an eighth of an element
    const std::int64_t parts = parallel_parts(rows, row_cost);
    // Parts 1 and on: their dW, then every part's db (caching allocator: no fresh pages a step).
    Tensor scratch = Tensor::empty({(parts - 1) * size + (db ? parts * out : 0)}, dtype_of<T>());
    T* partial_w = scratch.data<T>();
    T* partial_b = partial_w + (parts - 1) * size;
    if (db) std::fill(partial_b, partial_b + parts * out, T(0));
    if (size > 0 && rows == 0) std::fill(dw, dw + size, T(0));
    parallel_for_parts(rows, row_cost, [&](std::int64_t t, std::int64_t r0, std::int64_t r1) {
        T* w = t == 0 ? dw : partial_w + (t - 1) * size;
        if (size > 0) detail::gemm_call(true, false, out, in, r1 - r0, dy + r0 * out, out, x + r0 * in, in, w, in, T(0));
        if (!db) return;
        T* b = partial_b + t * out;
        for (std::int64_t r = r0; r < r1; ++r)
            for (std::int64_t j = 0; j < out; ++j) b[j] += dy[r * out + j];
    });
    if (parts > 1)
        parallel_for(size, parts, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t t = 1; t < parts; ++t)
                for (std::int64_t e = begin; e < end; ++e) dw[e] += partial_w[(t - 1) * size + e];
        });
    if (db) {
        std::copy(partial_b, partial_b + out, db);
        for (std::int64_t t = 1; t < parts; ++t)
            for (std::int64_t j = 0; j < out; ++j) db[j] += partial_b[t * out + j];
    }
}

std::vector<Tensor> linear_backward(const Tensor& dy, const Tensor& x, const Tensor& weight, const Tensor& bias) {
    const std::int64_t in = weight.size(1), out = weight.size(0);
    Tensor dx = x.requires_grad() ? matmul(dy, weight) : Tensor();
    const bool want_w = weight.requires_grad(), want_b = bias.defined() && bias.requires_grad();
    Tensor dw = want_w ? Tensor::empty(weight.shape(), weight.dtype()) : Tensor();
    Tensor db = want_b ? Tensor::empty(bias.shape(), bias.dtype()) : Tensor();
    if (want_w) {
        const std::int64_t rows = out == 0 ? 0 : dy.numel() / out;
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            weight_gradients<T>(dy.data<T>(), x.data<T>(), rows, out, in, dw.data<T>(),
                                want_b ? db.data<T>() : nullptr);
        });
    } else if (want_b) {
        db = sum_to(dy, bias.shape());
    }
    return {dx, dw, db};
}

void check_linear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    check_floating("linear", x);
    check_floating("linear", weight);
    check_same_dtype("linear", x, weight);
    if (weight.dim() != 2)
        throw ShapeError(fmt::format("linear: weight must be [out, in], got {}", shape_str(weight.shape())));
    if (x.dim() < 1 || x.size(-1) != weight.size(1))
        throw ShapeError(fmt::format("linear: input {} does not end in in_features = {}", shape_str(x.shape()),
                                     weight.size(1)));
    using detail::kBlasMax;
    if (x.numel() / std::max<std::int64_t>(weight.size(1), 1) > kBlasMax || weight.size(0) > kBlasMax ||
        weight.size(1) > kBlasMax)
        throw ShapeError(fmt::format("linear: operands too large for BLAS: {} and weight {}", shape_str(x.shape()),
                                     shape_str(weight.shape())));
    if (bias.defined()) {
        check_floating("linear", bias);
        check_same_dtype("linear", x, bias);
        if (bias.shape() != Shape{weight.size(0)})
            throw ShapeError(fmt::format("linear: bias {} must be [{}] for weight {}", shape_str(bias.shape()),
                                         weight.size(0), shape_str(weight.shape())));
    }
}

}  // namespace

Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    check_linear(x, weight, bias);
    Tensor y = linear_forward(x, weight, bias);
    std::vector<Tensor> inputs{x, weight};
    if (bias.defined()) inputs.push_back(bias);
    return record("linear", inputs, y, [x, weight, bias](const Tensor& dy) {
        std::vector<Tensor> grads = linear_backward(dy, x, weight, bias);
        if (!bias.defined()) grads.pop_back();
        return grads;
    });
}

}  // namespace autograd
