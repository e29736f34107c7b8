#include "lectern/nn/conformer_convolution.h"

namespace nn {

ConformerConvolution::ConformerConvolution(std::int64_t d_model, std::int64_t kernel, autograd::Generator& gen) {
    pointwise_in = register_module("pointwise_in", std::make_shared<Linear>(d_model, 2 * d_model, true, gen));
    depthwise = register_module("depthwise",
                                std::make_shared<DepthwiseConv1d>(d_model, kernel, autograd::ConvPadding::same, gen));
    norm = register_module("norm", std::make_shared<LayerNorm>(d_model));
    pointwise_out = register_module("pointwise_out", std::make_shared<Linear>(d_model, d_model, true, gen));
}

// pointwise -> GLU -> depthwise -> LN -> Swish -> pointwise, the equations of the header.
Tensor ConformerConvolution::forward(const Tensor& x) const {
    Tensor h = autograd::glu((*pointwise_in)(x));  // [B, T, 2D] -> [B, T, D]
    h = autograd::silu((*norm)((*depthwise)(h)));
    return (*pointwise_out)(h);
}

double conformer_convolution_parameter_count(std::int64_t d_model, std::int64_t kernel) {
    const auto D = static_cast<double>(d_model), k = static_cast<double>(kernel);
    return (2 * D * D + 2 * D) + (k * D + D) + 2 * D + (D * D + D);
}

}  // namespace nn
