// 2-D convolution over images, NCHW (autograd/ops/conv2d.h; reference/conv2d.h; 004 §15.5.6).
#include <vector>

#include "check.h"
#include "lectern/autograd/reference/conv2d.h"

using namespace autograd;

TEST_CASE("conv2d by hand: a 2x2 kernel over a 3x3 image, with its gradients", "[forward]") {
    // x = 1..9 row by row, w = ((1, 2), (3, 4)), b = 0.5, stride 1, no padding:
    //   y[i, j] = x[i, j] + 2 x[i, j+1] + 3 x[i+1, j] + 4 x[i+1, j+1] + 0.5
    //   y[0, 0] = 1 + 4 + 12 + 20 + 0.5 = 37.5, and so on: (37.5, 47.5, 67.5, 77.5)
    Tensor x = tensor({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3}, Dtype::float64).requires_grad_();
    Tensor w = tensor({1, 2, 3, 4}, {1, 1, 2, 2}, Dtype::float64).requires_grad_();
    Tensor b = tensor({0.5}, {1}, Dtype::float64).requires_grad_();
    Tensor y = conv2d(x, w, b);
    CHECK(y.shape() == Shape{1, 1, 2, 2});
    require_values(y, {37.5, 47.5, 67.5, 77.5}, 1e-13);
    // d sum(y): each pixel gets the taps whose windows read it; the centre is read by all four
    // (1 + 2 + 3 + 4 = 10), a corner by one. dw[u, v] = the sum of the 2x2 block of x at (u, v):
    // (1+2+4+5, 2+3+5+6, 4+5+7+8, 5+6+8+9) = (12, 16, 24, 28). db = 4 outputs.
    sum(y).backward();
    require_values(x.grad(), {1, 3, 2, 4, 10, 6, 3, 7, 4}, 1e-13);
    require_values(w.grad(), {12, 16, 24, 28}, 1e-13);
    require_values(b.grad(), {4}, 1e-13);
}

TEST_CASE("conv2d by hand: stride 2 and padding 1 read zeros outside the image", "[forward]") {
    // Ho = (3 + 2 - 2) / 2 + 1 = 2; output (i, j) reads rows 2i - 1, 2i and columns 2j - 1, 2j.
    //   (0, 0): only x[0, 0] under w[1, 1]: 1 * 4 = 4
    //   (0, 1): x[0, 1] w[1, 0] + x[0, 2] w[1, 1] = 2*3 + 3*4 = 18
    //   (1, 0): x[1, 0] w[0, 1] + x[2, 0] w[1, 1] = 4*2 + 7*4 = 36
    //   (1, 1): 5*1 + 6*2 + 8*3 + 9*4 = 77
    Tensor x = tensor({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3}, Dtype::float64);
    Tensor w = tensor({1, 2, 3, 4}, {1, 1, 2, 2}, Dtype::float64);
    require_values(conv2d(x, w, Tensor(), 2, 1), {4, 18, 36, 77}, 1e-13);
}

TEST_CASE("conv2d mixes channels: w[o, c] weighs input channel c in output channel o", "[forward]") {
    // A 1x1 kernel, two channels in, two out: y[o] = sum_c w[o, c] x[c], pixel by pixel.
    // x[0] = (1, 2), x[1] = (10, 20); w = ((1, 1), (2, -1)): y[0] = (11, 22), y[1] = (-8, -16).
    Tensor x = tensor({1, 2, 10, 20}, {1, 2, 1, 2}, Dtype::float64);
    Tensor w = tensor({1, 1, 2, -1}, {2, 2, 1, 1}, Dtype::float64);
    require_values(conv2d(x, w), {11, 22, -8, -16}, 1e-13);
}

TEST_CASE("conv2d in float32 (im2col and a GEMM per image) equals the reference loops", "[forward]") {
    const reference::Conv2dShape s{3, 2, 7, 6, 4, 3, 2, 2, 1};
    Generator gen(5);
    Tensor x = randn({s.B, s.C, s.H, s.W}, gen).requires_grad_();
    Tensor w = randn({s.O, s.C, s.kh, s.kw}, gen).requires_grad_();
    Tensor b = randn({s.O}, gen).requires_grad_();
    Tensor y = conv2d(x, w, b, s.stride, s.padding);
    std::vector<float> want(static_cast<std::size_t>(y.numel()));
    reference::conv2d(x.data<float>(), w.data<float>(), b.data<float>(), s, want.data());
    require_values(y, std::vector<double>(want.begin(), want.end()), 1e-5);

    Tensor dy = randn(y.shape(), gen);
    sum(y * dy).backward();
    std::vector<float> dx(static_cast<std::size_t>(x.numel())), dw(static_cast<std::size_t>(w.numel())), db(4);
    reference::conv2d_backward(dy.data<float>(), x.data<float>(), w.data<float>(), s, dx.data(), dw.data(), db.data());
    require_values(x.grad(), std::vector<double>(dx.begin(), dx.end()), 1e-5);
    require_values(w.grad(), std::vector<double>(dw.begin(), dw.end()), 1e-4);
    require_values(b.grad(), std::vector<double>(db.begin(), db.end()), 1e-4);
}

TEST_CASE("conv2d in float32 gives the same bits on one thread as on two", "[threads]") {
    Generator gen(6);
    Tensor x = randn({64, 3, 12, 12}, gen), w = randn({8, 3, 3, 3}, gen), b = randn({8}, gen);
    auto run = [&](int threads) {
        const int before = num_threads();
        set_num_threads(threads);
        Tensor xg = x.detach().requires_grad_(), wg = w.detach().requires_grad_(), bg = b.detach().requires_grad_();
        Tensor y = conv2d(xg, wg, bg, 1, 1);
        sum(y * y).backward();
        set_num_threads(before);
        return std::vector{y.to_vector(), xg.grad().to_vector(), wg.grad().to_vector(), bg.grad().to_vector()};
    };
    CHECK(run(1) == run(2));
}

TEST_CASE("conv2d refuses mismatched channels, a bad stride or padding and a kernel past the image", "[errors]") {
    Tensor x = zeros({1, 2, 4, 4}, Dtype::float64);
    CHECK_THROWS_WITH(conv2d(x, zeros({3, 1, 2, 2}, Dtype::float64)),
                      Catch::Contains("conv2d: needs x [B, C, H, W], weight [O, C, kh, kw]") &&
                          Catch::Contains("got x [1, 2, 4, 4], weight [3, 1, 2, 2]"));
    CHECK_THROWS_AS(conv2d(x, zeros({3, 2, 2, 2}, Dtype::float64), zeros({2}, Dtype::float64)), ShapeError);
    CHECK_THROWS_AS(conv2d(x, zeros({3, 2, 2, 2}, Dtype::float64), Tensor(), 0), ValueError);
    CHECK_THROWS_AS(conv2d(x, zeros({3, 2, 2, 2}, Dtype::float64), Tensor(), 1, 2), ValueError);
    CHECK_THROWS_WITH(conv2d(x, zeros({3, 2, 5, 2}, Dtype::float64)),
                      Catch::Contains("conv2d: the kernel 5x2 is larger than the padded image 4x4"));
    CHECK_THROWS_AS(conv2d(zeros({2, 4, 4}, Dtype::float64), zeros({3, 2, 2, 2}, Dtype::float64)), ShapeError);
    CHECK_THROWS_AS(conv2d(x, zeros({3, 2, 2, 2})), DtypeError);
}
