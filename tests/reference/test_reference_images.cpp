// Lectern's image ops and layers and BatchNorm1d against PyTorch (make_image_reference.py):
// conv2d, max and average pooling, the CNN (004 §15.5.6), and batch normalisation in training
// and evaluation with its running statistics (003).
#include <string>

#include "lectern/models/cnn.h"
#include "lectern/nn/batch_norm.h"
#include "reference_case.h"

using namespace autograd;

TEST_CASE("conv2d matches PyTorch's conv2d: stride 1, and stride 2 with padding 1", "[reference]") {
    for (auto [name, stride, padding] : {std::tuple{"conv2d", 1, 0}, {"conv2d_stride2_pad1", 2, 1}}) {
        reference::Case ref(name);
        Tensor x = ref.input("x"), w = ref.input("weight"), b = ref.input("bias");
        Tensor y = conv2d(x, w, b, stride, padding);
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}, {"weight", w}, {"bias", b}});
    }
}

TEST_CASE("max and average pooling match PyTorch's, with windows apart and overlapping", "[reference]") {
    for (auto [name, kernel, stride] : {std::tuple{"max_pool2d", 2, 2},
                                        {"max_pool2d_overlapping", 3, 2},
                                        {"avg_pool2d", 2, 2},
                                        {"avg_pool2d_overlapping", 3, 1}}) {
        reference::Case ref(name);
        Tensor x = ref.input("x");
        Tensor y = std::string(name).starts_with("max") ? max_pool2d(x, kernel, stride) : avg_pool2d(x, kernel, stride);
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}});
    }
}

TEST_CASE("the CNN (two conv-ReLU-maxpool blocks, a linear head) matches PyTorch", "[reference]") {
    reference::Case ref("cnn");
    models::CNN cnn({.image = 8, .channels = {3, 4}, .classes = 5});
    cnn.to(Dtype::float64);
    ref.load_parameters(cnn);
    Tensor x = ref.input("x");
    Tensor logits = cnn(x);
    ref.compare("out.logits", logits);
    ref.compare_gradients(logits, {{"x", x}}, &cnn);
}

TEST_CASE("BatchNorm1d in training over [B, T, D] matches torch.nn.BatchNorm1d, with and without a mask",
          "[reference]") {
    for (const char* name : {"batch_norm_train", "batch_norm_masked"}) {
        reference::Case ref(name);
        nn::BatchNorm1d bn(5);
        bn.to(Dtype::float64);
        ref.load_parameters(bn);
        Tensor x = ref.input("x");
        Tensor y = bn(x, ref.has("mask") ? ref["mask"] : Tensor());
        ref.compare("out.y", y);
        ref.compare_gradients(y, {{"x", x}}, &bn);
    }
}

TEST_CASE("BatchNorm1d's running statistics over three steps, and its evaluation, match PyTorch's", "[reference]") {
    reference::Case ref("batch_norm_running");
    nn::BatchNorm1d bn(3);
    bn.to(Dtype::float64);
    ref.load_parameters(bn);
    for (int step = 0; step < 3; ++step) {
        ref.compare(fmt::format("out.y.{}", step), bn(ref[fmt::format("x.{}", step)]));
        ref.compare(fmt::format("running_mean.{}", step), bn.running_mean);
        ref.compare(fmt::format("running_var.{}", step), bn.running_var);
    }
    bn.eval();
    ref.compare("out.y.eval", bn(ref["x.eval"]));
}
