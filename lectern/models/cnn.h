#pragma once
// A small convolutional network for images, the model whose inductive bias 004 §15.5.6 (and
// 000, 002) sets against the ViT's: locality (each output sees a 3x3 window), weight tying (one
// kernel slid over every position) and pooling (a small shift moves the output little). The
// ViT has none of these built in and must learn them from data.
#include <cstdint>
#include <memory>
#include <vector>

#include "lectern/nn/conv2d.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/module.h"
#include "lectern/nn/pool2d.h"

namespace models {

using autograd::Tensor;

struct CNNConfig {
    std::int64_t image = 28;  // H = W
    std::int64_t in_channels = 1;
    std::vector<std::int64_t> channels = {16, 32};  // one block per entry: its conv's output channels
    std::int64_t classes = 10;
    std::uint64_t seed = 0;
};

// blocks: h <- MaxPool2d(2)(ReLU(Conv2d 3x3, padding 1 (h))), each halving H and W;
// then logits = flatten(h) W_head + b_head. The image side must divide by 2^blocks.
class CNN : public nn::Module {
public:
    explicit CNN(const CNNConfig& config);
    Tensor forward(const Tensor& images) const;  // [B, in_channels, H, W] -> logits [B, classes]
    Tensor operator()(const Tensor& images) const { return forward(images); }

    CNNConfig config;
    std::shared_ptr<nn::ModuleList<nn::Conv2d>> convs;
    std::shared_ptr<nn::MaxPool2d> pool;
    std::shared_ptr<nn::Linear> head;
};

}  // namespace models
