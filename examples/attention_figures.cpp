#include "examples/attention_figures.h"

#include <fmt/format.h>

#include "examples/heatmap_png.h"
#include "nn/attention_mask.h"

namespace examples {

using namespace autograd;

namespace {

// [1, H, Tq, Tk] -> [Tq, H * Tk + H - 1]: the heads left to right, one blank column between.
Tensor heads_side_by_side(const Tensor& attention) {
    const std::int64_t H = attention.size(1), Tq = attention.size(2);
    std::vector<Tensor> parts;
    for (std::int64_t h = 0; h < H; ++h) {
        if (h > 0) parts.push_back(zeros({Tq, 1}, attention.dtype()));
        parts.push_back(select(select(attention, 0, 0), 0, h));  // [Tq, Tk]
    }
    return concat(parts, 1);
}

}  // namespace

std::vector<std::string> write_attention_figures(models::Transformer& model, const Tensor& src, const Tensor& tgt,
                                                 std::int64_t pad, const std::string& dir) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    model.forward(src, tgt, nn::padding_mask(src, pad), models::target_mask(tgt, pad));  // fills each layer's weights
    std::vector<std::string> written;
    auto write = [&](const std::string& name, const Tensor& attention) {
        std::string path = fmt::format("{}/{}.png", dir, name);
        write_heatmap_png(path, heads_side_by_side(attention), 16);
        written.push_back(path);
    };
    for (std::size_t l = 0; l < model.encoder->layers->size(); ++l)
        write(fmt::format("encoder_self_layer{}", l), (*model.encoder->layers)[l].self_attn->last_attention());
    for (std::size_t l = 0; l < model.decoder->layers->size(); ++l) {
        const models::DecoderLayer& layer = (*model.decoder->layers)[l];
        write(fmt::format("decoder_self_layer{}", l), layer.self_attn->last_attention());
        write(fmt::format("cross_layer{}", l), layer.src_attn->last_attention());
    }
    return written;
}

}  // namespace examples
