#include "lectern/run/figures/attention_figures.h"

#include <algorithm>

#include <fmt/format.h>

#include "lectern/run/figures/attention_pages.h"
#include "lectern/data/repair_utf8.h"
#include "lectern/run/figures/figure_files.h"
#include "lectern/nn/attention_mask.h"

namespace run {

using namespace autograd;

std::string visible_token(const std::string& token) {
    if (token == " ") return "␣";
    if (token == "\n") return "↵";
    if (token == "\t") return "⇥";
    return token;
}

std::string subword_label(const std::string& token) {
    std::string out;
    for (char ch : data::repair_utf8(token, [](unsigned char b) { return fmt::format("\\x{:02X}", b); }))
        out += ch == ' ' ? std::string("␣") : ch == '\n' ? std::string("↵") : std::string(1, ch);
    return out;
}

plot::Figure attention_grid(const std::string& title, const std::vector<Tensor>& layers,
                            const std::vector<std::string>& queries, const std::vector<std::string>& keys,
                            bool causal) {
    plot::Figure figure{title, 1, 0, 0, {}};
    const std::int64_t heads = layers.empty() ? 1 : layers[0].size(1);
    // A panel is as wide as its keys and as tall as its queries need, with
    // square cells of at least 20 pixels (cross-attention has a row per output
    // token and a column per source token, often many more of one). A page is
    // at most kMaxWidth pixels wide: a layer's heads wrap onto as many rows of
    // panels as that takes (a divisor of H per row, so no row mixes layers).
    constexpr double kMaxWidth = 1600;
    const auto rows = static_cast<double>(queries.size()), cols = static_cast<double>(keys.size());
    const double cell = std::max(20.0, 240 / std::max(rows, cols)), panel_width = cell * cols + 160;
    std::int64_t across = heads;
    while (across > 1 && (panel_width * static_cast<double>(across) > kMaxWidth || heads % across != 0)) --across;
    for (std::size_t l = 0; l < layers.size(); ++l) {
        const Tensor& a = layers[l];  // [1, H, Tq, Tk]
        for (std::int64_t h = 0; h < heads; ++h) {
            plot::HeatMap m;
            m.title = fmt::format("layer {}, head {}", l, h);
            m.x_label = "key token";
            m.y_label = "query token";
            m.rows = a.size(2), m.cols = a.size(3);
            m.values = select(select(a, 0, 0), 0, h).to_vector();
            for (const std::string& q : queries) m.row_labels.push_back(visible_token(q));
            for (const std::string& k : keys) m.col_labels.push_back(visible_token(k));
            m.scale = {0, 1, "attention weight", plot::Palette::sequential};
            m.colour_bar = (h + 1) % across == 0;  // one scale per row of panels, 0 to 1 for all
            if (causal)  // a key after its query is masked out (004 §15.5.1): grey, not a weight of 0
                for (std::int64_t q = 0; q < m.rows; ++q)
                    for (std::int64_t k = 0; k < m.cols; ++k) m.masked.push_back(k > q);
            figure.panels.push_back(std::move(m));
        }
    }
    figure.columns = static_cast<int>(across);
    // PLplot scales text with the page's mean side, so the text is set back by
    // it: a token's label keeps to the height of its cell.
    const double width = panel_width * static_cast<double>(across);
    const double height =
        (cell * rows + 110) * static_cast<double>(layers.size() * static_cast<std::size_t>(heads / across)) + 50;
    figure.width = static_cast<int>(width), figure.height = static_cast<int>(height);
    figure.text_size = std::min(0.7, 38 * cell / ((width + height) / 2));
    return figure;
}

std::vector<std::string> write_attention_figures(models::Transformer& model, const Tensor& src, const Tensor& tgt,
                                                 std::int64_t pad, const std::string& dir) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    model.forward(src, tgt, nn::padding_mask(src, pad), models::target_mask(tgt, pad));  // fills each layer's weights
    auto tokens = [](const Tensor& seq) {
        std::vector<std::string> out;
        for (std::int64_t t = 0; t < seq.size(1); ++t)
            out.push_back(t == 0 ? "<s>" : fmt::format("{}", static_cast<std::int64_t>(seq.at({0, t}))));
        return out;
    };
    const std::vector<std::string> source = tokens(src), target = tokens(tgt);
    std::vector<Tensor> encoder_self, decoder_self, cross;
    for (std::size_t l = 0; l < model.encoder->layers->size(); ++l)
        encoder_self.push_back((*model.encoder->layers)[l].self_attn->last_attention());
    for (std::size_t l = 0; l < model.decoder->layers->size(); ++l) {
        const models::DecoderLayer& layer = (*model.decoder->layers)[l];
        decoder_self.push_back(layer.self_attn->last_attention());
        cross.push_back(layer.src_attn->last_attention());
    }
    std::vector<std::string> written;
    auto write = [&](const std::string& name, const plot::Figure& figure) {
        for (std::string& path : write_figure(dir + "/" + name, figure)) written.push_back(std::move(path));
    };
    write("encoder_self_attention",
          attention_grid("Copy task: encoder self-attention (source tokens attend to source tokens)", encoder_self,
                         source, source));
    write("decoder_self_attention",
          attention_grid("Copy task: decoder self-attention (masked: each output token sees only earlier ones)",
                         decoder_self, target, target, true));
    write("cross_attention",
          attention_grid("Copy task: cross-attention (output tokens attend to source tokens)", cross, target, source));
    written.push_back(write_attention_page(
        dir + "/attention.html",
        {"Copy task: the attention of one held-out sequence",
         {attention_kind("encoder self-attention (source tokens attend to source tokens)", encoder_self, source,
                         source),
          attention_kind("decoder self-attention (masked: each output token sees only earlier ones)", decoder_self,
                         target, target),
          attention_kind("cross-attention (output tokens attend to source tokens)", cross, target, source)}}));
    return written;
}

}  // namespace run
