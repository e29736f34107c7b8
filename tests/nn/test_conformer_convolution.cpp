// The conformer's convolution module and its depthwise layer (nn/conformer_convolution.h,
// nn/depthwise_conv1d.h; 004 §15.5.7).
#include <cmath>

#include "check.h"
#include "lectern/nn/conformer_convolution.h"

using namespace autograd;

namespace {

void set(Tensor& t, const std::vector<double>& v) {
    NoGradGuard no_grad;
    t.copy_(tensor(v, t.shape(), t.dtype()));
}

}  // namespace

TEST_CASE("the conformer's convolution module by hand: GLU, depthwise taps, LayerNorm, Swish", "[module]") {
    // D = 2, k = 3. pointwise_in passes x to the GLU's first half and 0 to its gate: h = x sigmoid(0) = x / 2.
    // Depthwise, same: channel 0 taps (0, 1, 0) keeps h_t, channel 1 taps (0, 0, 1) reads h_{t+1}
    // (0 past the end). x = ((2, 0), (4, 2), (6, 4)): h = ((1, 0), (2, 1), (3, 2)) -> ((1, 1), (2, 2), (3, 0)).
    // LayerNorm of (u, v) is (n, -n), n = (u - v)/2 / sqrt(((u - v)/2)^2 + 1e-5): 0, 0 and 1.5 / sqrt(2.25 + 1e-5).
    // pointwise_out = (Swish(n) - Swish(-n) + 0.5, 0) = (n + 0.5, 0), since z sigmoid(z) + z sigmoid(-z) = z.
    nn::ConformerConvolution conv(2, 3);
    conv.to(Dtype::float64);
    set(conv.pointwise_in->weight, {1, 0, 0, 1, 0, 0, 0, 0});
    set(conv.pointwise_in->bias, {0, 0, 0, 0});
    set(conv.depthwise->weight, {0, 0, 1, 0, 0, 1});
    set(conv.depthwise->bias, {0, 0});
    set(conv.pointwise_out->weight, {1, -1, 0, 0});
    set(conv.pointwise_out->bias, {0.5, 0});
    Tensor x = tensor({2, 0, 4, 2, 6, 4}, {1, 3, 2}, Dtype::float64);
    const double n = 1.5 / std::sqrt(2.25 + 1e-5);
    require_values(conv(x), {0.5, 0, 0.5, 0, n + 0.5, 0}, 1e-12);
}

TEST_CASE("the convolution module's parameters: pointwise D -> 2D and D -> D, k D + D depthwise, the norm",
          "[module]") {
    nn::ConformerConvolution conv(6, 5);
    CHECK(conv.depthwise->weight.shape() == Shape{5, 6});
    CHECK(conv.pointwise_in->weight.shape() == Shape{12, 6});
    CHECK(static_cast<double>(conv.parameter_count()) == nn::conformer_convolution_parameter_count(6, 5));
    // A depthwise layer has k C + C parameters where a full convolution of C channels has k C^2 + C.
    CHECK(nn::DepthwiseConv1d(6, 5).parameter_count() == 5 * 6 + 6);
    REQUIRE_THROWS_AS(nn::DepthwiseConv1d(0, 3), ValueError);
}
