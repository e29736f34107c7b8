#include "lectern/run/figures/attention_pages.h"

#include <fmt/format.h>

#include "lectern/autograd/shape.h"
#include "lectern/plot/figure.h"  // plot::Error
#include "lectern/run/figures/attention_figures.h"
#include "lectern/run/shell/output_files.h"

namespace run {

using namespace autograd;

plot::AttentionKind attention_kind(const std::string& name, const std::vector<Tensor>& layers,
                                   const std::vector<std::string>& queries, const std::vector<std::string>& keys) {
    plot::AttentionKind kind{name, {}, {}, static_cast<std::int64_t>(layers.size()), 0, {}};
    for (const std::string& q : queries) kind.queries.push_back(visible_token(q));
    for (const std::string& k : keys) kind.keys.push_back(visible_token(k));
    const auto Tq = static_cast<std::int64_t>(queries.size()), Tk = static_cast<std::int64_t>(keys.size());
    for (std::size_t l = 0; l < layers.size(); ++l) {
        const Tensor& a = layers[l];  // [1, H, Tq, Tk]
        if (l == 0 && a.dim() == 4) kind.heads = a.size(1);
        if (a.dim() != 4 || a.size(0) != 1 || a.size(1) != kind.heads || a.size(2) != Tq || a.size(3) != Tk)
            throw plot::Error(fmt::format("cannot draw \"{}\": layer {}'s weights are {}, not [1, {}, {}, {}]", name, l,
                                          shape_str(a.shape()), kind.heads, Tq, Tk));
        const std::vector<double> w = select(a, 0, 0).to_vector();  // [H, Tq, Tk], as attention_grid's panels
        kind.weights.insert(kind.weights.end(), w.begin(), w.end());
    }
    return kind;
}

std::string write_attention_page(const std::string& path, const plot::AttentionPage& page) {
    write_output(path, plot::render_page(page));  // drawn whole before anything is written
    return path;
}

}  // namespace run
