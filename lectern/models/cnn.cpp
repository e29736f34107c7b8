#include "lectern/models/cnn.h"

#include <fmt/format.h>

namespace models {

using namespace autograd;

CNN::CNN(const CNNConfig& c) : config(c) {
    const auto blocks = static_cast<std::int64_t>(c.channels.size());
    if (blocks < 1 || blocks > 16 || c.image <= 0 || c.image % (std::int64_t{1} << blocks) != 0 || c.in_channels <= 0 ||
        c.classes <= 0)
        throw ValueError(
            fmt::format("CNN: needs 1 to 16 blocks, an image side that divides by 2^blocks and positive "
                        "channels and classes, got image {}, {} blocks, {} channels in, {} classes",
                        c.image, blocks, c.in_channels, c.classes));
    Generator gen(c.seed);
    convs = register_module("convs", std::make_shared<nn::ModuleList<nn::Conv2d>>());
    std::int64_t in = c.in_channels;
    for (std::int64_t out : c.channels) {
        convs->push_back(std::make_shared<nn::Conv2d>(in, out, 3, 1, 1, gen));
        in = out;
    }
    pool = register_module("pool", std::make_shared<nn::MaxPool2d>(2));
    const std::int64_t side = c.image >> blocks;
    head = register_module("head", std::make_shared<nn::Linear>(in * side * side, c.classes, true, gen));
}

//   h_0 = x;  h_l = maxpool_2(relu(conv_l(h_{l-1})))       [B, C_l, H / 2^l, W / 2^l]
//   logits = flatten(h_L) W_head + b_head
Tensor CNN::forward(const Tensor& images) const {
    Tensor h = images;
    for (const auto& conv : *convs) h = (*pool)(relu((*conv)(h)));
    return (*head)(reshape(h, {h.size(0), -1}));
}

}  // namespace models
