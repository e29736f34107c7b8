#pragma once
// The attention a program draws as heat maps (attention_figures.h), also as a
// page a student explores in a browser (plot/attention_page.h): built from the
// same tensors and token labels as the heat maps, so the page's weights are the
// numbers the PNG colours.
#include <string>
#include <vector>

#include "lectern/autograd/autograd.h"
#include "lectern/plot/attention_page.h"

namespace run {

// One kind of attention for the page. layers: each [1, H, Tq, Tk] (one
// sequence, as attention_grid takes them), queries[Tq] and keys[Tk] their
// tokens, shown as attention_grid shows them (visible_token). Throws plot::Error
// when the shapes disagree with each other or with the tokens.
plot::AttentionKind attention_kind(const std::string& name, const std::vector<autograd::Tensor>& layers,
                                   const std::vector<std::string>& queries, const std::vector<std::string>& keys);

// Writes the page to `path` (an .html file) as every output is written
// (output_files.h); returns the path. A page that cannot be drawn writes
// nothing and throws plot::Error.
std::string write_attention_page(const std::string& path, const plot::AttentionPage& page);

}  // namespace run
