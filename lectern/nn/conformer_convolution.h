#pragma once
// The conformer's convolution module (004 §15.5.7, "add convolutional layers inside the
// transformer"; its layout is the cited paper's, Gulati et al. 2020, fig. 2), x [B, T, D] -> [B, T, D]:
//   h = GLU(x W_1^T + b_1)            pointwise convolution to 2D channels, gated back to D
//   h = DepthwiseConv_k(h)            each channel along time, k taps, same padding
//   h = Swish(LN(h))                  Swish(z) = z sigmoid(z) (autograd::silu)
//   out = h W_2^T + b_2               pointwise convolution, D -> D
// The pointwise convolutions (kernel 1) are Linears over the channels. The block puts it in a
// pre-norm residual sublayer, x + Dropout(out(LN(x))) (models/conformer_block.h).
//
// The norm is LayerNorm, where the paper has BatchNorm: each position is normalised by its own
// D features, so a sequence's output depends neither on the rest of its batch (nor its pads)
// nor on train() against eval() (BatchNorm's running statistics); experiments batch-norm
// measures both for BatchNorm1d. The convolution reads whatever sits next to a position, pads
// included: the module takes sequences of one length.
#include <memory>

#include "lectern/nn/depthwise_conv1d.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/linear.h"

namespace nn {

class ConformerConvolution : public Module {
public:
    ConformerConvolution(std::int64_t d_model, std::int64_t kernel,
                         autograd::Generator& gen = autograd::default_generator());
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    std::shared_ptr<Linear> pointwise_in;  // D -> 2D, halved by the GLU
    std::shared_ptr<DepthwiseConv1d> depthwise;
    std::shared_ptr<LayerNorm> norm;
    std::shared_ptr<Linear> pointwise_out;  // D -> D
};

// A ConformerConvolution's parameters: (2 D^2 + 2 D) + (D^2 + D) for the pointwise convolutions,
// k D + D for the depthwise one, 2 D for the norm.
double conformer_convolution_parameter_count(std::int64_t d_model, std::int64_t kernel);

}  // namespace nn
