// 002 "Vision Transformer Architecture": self-attention is more general than convolution and can
// express it. A convolution of kernel k is k heads of fixed relative attention: head j puts its
// whole weight on the key j - (k-1)/2 positions from its query, p_{t,t+j-(k-1)/2} = 1, so its
// output at t is x_{t+j-(k-1)/2}; where that key falls outside the sequence the row is fully
// masked, which Lectern defines as attending to nothing (P = 0): the convolution's zero padding.
// With V = X in every head and the kernel's taps stacked as W^O,
//   concat_j(head_j) W^O + b = sum_j x_{t+j-(k-1)/2} W_j + b = conv1d(x, W, b), same padding.
#include "check.h"
#include "lectern/autograd/ops/conv1d.h"
#include "lectern/nn/scaled_dot_product_attention.h"

using namespace autograd;

namespace {

// mask[j, t, s] = 1 when s = t + j - (k-1)/2 lies in [0, T): head j's one key for query t.
Tensor relative_masks(std::int64_t kernel, std::int64_t T) {
    Tensor mask = zeros({kernel, T, T}, Dtype::int64);
    for (std::int64_t j = 0; j < kernel; ++j)
        for (std::int64_t t = 0; t < T; ++t)
            if (const std::int64_t s = t + j - (kernel - 1) / 2; s >= 0 && s < T) mask.set({j, t, s}, 1);
    return mask;
}

}  // namespace

TEST_CASE("self-attention with fixed relative attention is a 1-D convolution (002)", "[module]") {
    const std::int64_t B = 2, T = 7, C = 3, O = 4, kernel = 3;
    Generator gen(54);
    Tensor x = randn({B, T, C}, gen, Dtype::float64).requires_grad_();
    Tensor weight = randn({O, kernel, C}, gen, Dtype::float64);  // tap-major, as conv1d takes it
    Tensor bias = randn({O}, gen, Dtype::float64);
    // Queries and keys at random: a row that keeps one key gives it weight 1 whatever its score.
    Tensor q = randn({B, kernel, T, 5}, gen, Dtype::float64);
    Tensor k = randn({B, kernel, T, 5}, gen, Dtype::float64);

    Tensor v = broadcast_to(unsqueeze(x, 1), {B, kernel, T, C});                          // V = X in every head
    Tensor heads = nn::scaled_dot_product_attention(q, k, v, relative_masks(kernel, T));  // [B, k, T, C]
    Tensor side_by_side = reshape(permute(heads, {0, 2, 1, 3}), {B, T, kernel * C});      // concat_j head_j
    Tensor by_attention = linear(side_by_side, reshape(weight, {O, kernel * C}), bias);   // W^O: the taps stacked
    Tensor by_convolution = conv1d(x, weight, bias, 1, ConvPadding::same);
    require_values(by_attention, by_convolution.to_vector(), 1e-12);

    // The two are one function of x: their gradients agree too.
    Tensor r = randn({B, T, O}, gen, Dtype::float64);
    sum(by_attention * r).backward();
    const std::vector<double> dx_attention = x.grad().to_vector();
    x.zero_grad();
    sum(by_convolution * r).backward();
    require_values(x.grad(), dx_attention, 1e-12);
}
