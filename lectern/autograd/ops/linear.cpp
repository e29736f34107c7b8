#include "lectern/autograd/ops/linear.h"

#include <algorithm>
#include <array>
#include <type_traits>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/broadcast.h"
#include "lectern/autograd/kernels/gemm.h"
#include "lectern/autograd/kernels/matrix_vector.h"
#include "lectern/autograd/ops/matmul.h"
#include "lectern/autograd/ops/reshape.h"
#include "lectern/autograd/parallel.h"
#include "lectern/autograd/reference/linear.h"

namespace autograd {
namespace {

// The affine map over the rows of x, [rows, in] with rows the product of its leading dims,
// one token per row (003's Q = X W_Q; 001's nn.Linear, PyTorch's weight layout [out, in]):
//   y = x W^T + b
// Backward:
//   dx = dy W,   dW = dy^T x,   db = sum over rows of dy
// float64 runs reference::linear and reference::linear_backward (reference/linear.h), the
// equations as loops; float32 runs the BLAS calls below, tested equal to them in
// tests/autograd/test_fast_equals_reference.cpp.

// Computes reference::linear: one GEMM adding into y, which starts as b in every row (0
// without a bias), so the bias costs no pass of its own, nor does BLAS's zeroing of y. Each
// thread fills its rows with b and its part of the GEMM adds into them while they are in its
// cache. With fewer rows than one part of a split product (detail::kGemmRowAlign; a token at
// a time, as generation runs) the threads split W's rows instead, the outputs' columns: each
// row of x is a matrix-vector product (kernels/matrix_vector.h) that reads every weight once,
// where BLAS would pack all of W for a GEMM on one thread. W goes by in blocks that stay in
// cache while every row passes them. Which of the two runs is set by the shapes, never by the
// threads.
template <class T>
void linear_rows(const T* x, const T* w, const T* b, std::int64_t rows, std::int64_t in, std::int64_t out, T* y) {
    using detail::kGemmRowAlign;
    if (rows < kGemmRowAlign) {
        // W's rows in blocks of about 256 KiB, a multiple of kGemmRowAlign rows; one row of x
        // reads W once, in one block.
        const std::int64_t row_bytes = static_cast<std::int64_t>(sizeof(T)) * std::max<std::int64_t>(in, 1);
        const std::int64_t rows_cached = (std::int64_t{256} << 10) / row_bytes;
        const std::int64_t block =
            rows == 1 ? out : std::max(kGemmRowAlign, rows_cached / kGemmRowAlign * kGemmRowAlign);
        parallel_for_aligned(out, rows * in, kGemmRowAlign, [&](std::int64_t j0, std::int64_t j1) {
            for (std::int64_t jb = j0; jb < j1; jb += block) {
                const std::int64_t je = std::min(j1, jb + block);
                for (std::int64_t r = 0; r < rows; ++r)
                    detail::matrix_vector(je - jb, in, w + jb * in, x + r * in, b ? b + jb : nullptr, y + r * out + jb);
            }
        });
        return;
    }
    parallel_for_aligned(rows, out + out * in / 8, kGemmRowAlign, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t r = begin; r < end; ++r)
            for (std::int64_t j = 0; j < out; ++j) y[r * out + j] = b ? b[j] : T(0);
        if (in > 0)
            detail::gemm_call(false, true, end - begin, out, in, x + begin * in, in, w, in, y + begin * out, out, T(1));
    });
}

Tensor linear_forward(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    const std::int64_t in = weight.size(1), out = weight.size(0);
    Shape y_shape = x.shape();
    y_shape.back() = out;
    const std::int64_t rows = numel(Shape(y_shape.begin(), y_shape.end() - 1));
    Tensor y = Tensor::empty(y_shape, x.dtype());
    if (y.numel() == 0) return y;
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* b = bias.defined() ? bias.data<T>() : nullptr;
        if constexpr (std::is_same_v<T, double>)
            reference::linear(x.data<T>(), weight.data<T>(), b, rows, in, out, y.data<T>());
        else linear_rows(x.data<T>(), weight.data<T>(), b, rows, in, out, y.data<T>());
    });
    return y;
}

// Computes reference::linear_backward's dW and db, split between the threads one of two ways
// (chosen by the shapes):
// - dW at least as tall as x (out >= rows, as in GPT-2's layers and its head): by dW's rows,
//   each thread one BLAS call over all of x's rows and the sums of its columns of dy. Each
//   thread packs all of x, which is no larger than its part of dW, and nothing is summed after.
// - otherwise (many tokens through a narrow layer): by x's rows (parallel_sums), each part's dW
//   one BLAS call and its rows' sums of dy beside it, so each thread packs only its own rows of
//   x and dy; the parts are added in order after.
template <class T>
void weight_gradients(const T* dy, const T* x, std::int64_t rows, std::int64_t out, std::int64_t in, T* dw, T* db) {
    if (out >= rows && rows > 0) {
        parallel_for_aligned(out, rows * in / 8, detail::kGemmRowAlign, [&](std::int64_t j0, std::int64_t j1) {
            if (in > 0) detail::gemm_call(true, false, j1 - j0, in, rows, dy + j0, out, x, in, dw + j0 * in, in, T(0));
            // db[j] = sum over r of dy[r, j], summed in the order of r, a row of dy at a time.
            if (!db) return;
            std::fill(db + j0, db + j1, T(0));
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t j = j0; j < j1; ++j) db[j] += dy[r * out + j];
        });
        return;
    }
    const std::int64_t row_cost = out * in / 8;  // a multiply-add costs about an eighth of an element
    const std::array<PartSums<T>, 2> sums{{{dw, out * in}, {db, db ? out : 0}}};
    parallel_sums(rows, row_cost, sums, [&](const std::array<T*, 2>& part, std::int64_t r0, std::int64_t r1) {
        if (out * in > 0)
            detail::gemm_call(true, false, out, in, r1 - r0, dy + r0 * out, out, x + r0 * in, in, part[0], in, T(1));
        for (std::int64_t r = r0; db && r < r1; ++r)
            for (std::int64_t j = 0; j < out; ++j) part[1][j] += dy[r * out + j];
    });
}

std::vector<Tensor> linear_backward(const Tensor& dy, const Tensor& x, const Tensor& weight, const Tensor& bias) {
    const std::int64_t in = weight.size(1), out = weight.size(0), rows = out == 0 ? 0 : dy.numel() / out;
    const bool want_x = x.requires_grad(), want_w = weight.requires_grad(),
               want_b = bias.defined() && bias.requires_grad();
    Tensor dx;
    Tensor dw = want_w ? Tensor::empty(weight.shape(), weight.dtype()) : Tensor();
    Tensor db = want_b ? Tensor::empty(bias.shape(), bias.dtype()) : Tensor();
    dispatch_floating(dy.dtype(), [&](auto zero) {
        using T = decltype(zero);
        auto data = [](Tensor& t) { return t.defined() ? t.data<T>() : nullptr; };
        if constexpr (std::is_same_v<T, double>) {
            if (want_x) dx = Tensor::empty(x.shape(), x.dtype());
            reference::linear_backward(dy.data<T>(), x.data<T>(), weight.data<T>(), rows, in, out, data(dx), data(dw),
                                       data(db));
        } else {
            if (want_x) dx = matmul(dy, weight);  // dx = dy W
            if (want_w) weight_gradients<T>(dy.data<T>(), x.data<T>(), rows, out, in, data(dw), data(db));
            else if (want_b) db = sum_to(dy, bias.shape());
        }
    });
    return {dx, dw, db};
}

void check_linear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    check_floating("linear", x);
    check_floating("linear", weight);
    check_same_dtype("linear", x, weight);
    if (weight.dim() != 2)
        throw ShapeError(fmt::format("linear: weight must be [out, in], got {}", shape_str(weight.shape())));
    if (x.dim() < 1 || x.size(-1) != weight.size(1))
        throw ShapeError(
            fmt::format("linear: input {} does not end in in_features = {}", shape_str(x.shape()), weight.size(1)));
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
