// Lectern against PyTorch: the conformer's ops, its convolution module and its block (004
// §15.5.7), values and every gradient in float64. make_conformer_reference.py writes the files,
// holding each by-hand equation equal to torch's conv1d (groups = channels), F.glu, F.silu, and
// the module and block equal to the same layout built from torch.nn's layers.
#include "lectern/models/conformer_block.h"
#include "lectern/nn/conformer_convolution.h"
#include "lectern/nn/depthwise_conv1d.h"
#include "reference_case.h"

using namespace autograd;

TEST_CASE("depthwise conv1d matches torch's conv1d with groups = channels: same k 5, causal k 4", "[reference]") {
    for (auto [name, k, channels, padding] : {std::tuple{"depthwise_conv1d_same", 5, 3, ConvPadding::same},
                                              {"depthwise_conv1d_causal_even", 4, 2, ConvPadding::causal}}) {
        reference::Case ref(name);
        nn::DepthwiseConv1d conv(channels, k, padding);
        conv.to(Dtype::float64);
        ref.load_parameters(conv);
        Tensor x = ref.input("x");
        Tensor y = conv(x);
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}}, &conv);
    }
}

TEST_CASE("glu and Swish match F.glu and F.silu, values and gradients", "[reference]") {
    for (const char* name : {"glu", "swish"}) {
        reference::Case ref(name);
        Tensor x = ref.input("x");
        Tensor y = std::string(name) == "glu" ? glu(x) : silu(x);
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}});
    }
}

TEST_CASE("the conformer's convolution module matches torch.nn's layers: D 4, k 3", "[reference]") {
    reference::Case ref("conformer_convolution");
    nn::ConformerConvolution conv(4, 3);
    conv.to(Dtype::float64);
    ref.load_parameters(conv);
    Tensor x = ref.input("x");
    Tensor y = conv(x);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &conv);
}

TEST_CASE("the conformer block matches torch.nn's layers in the paper's order: D 4, 2 heads, d_ff 6, k 3",
          "[reference]") {
    reference::Case ref("conformer_block");
    models::ConformerBlock block({4, 2, 6, 0.0}, 3, default_generator());
    block.to(Dtype::float64);
    ref.load_parameters(block);
    Tensor x = ref.input("x");
    Tensor y = block(x);
    ref.compare("out.y", y);
    ref.compare_gradients(y, {{"x", x}}, &block);
}
