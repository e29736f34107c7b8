#pragma once
// What attention looks at, drawn as the Annotated Transformer draws it: one
// figure per kind of attention, a grid of panels, layers down and heads
// across; in each panel the query tokens run down and the key tokens across,
// and a cell's colour is the weight p_{t,s} (002's p_{i,j} of "The Weighting Coefficients P", query t, key s) from 0 to 1.
#include <string>
#include <vector>

#include "lectern/autograd/autograd.h"
#include "lectern/models/transformer.h"
#include "lectern/plot/figure.h"

namespace run {

// A token as a tick label: a space, a newline and a tab made visible.
std::string visible_token(const std::string& token);

// A subword as a tick label: every space shown as ␣ (a leading space is seen on
// the axis), a newline as ↵, and a byte of a character the subword holds only
// part of (byte-level BPE may cut a ’ in two) as \xNN.
std::string subword_label(const std::string& token);

// layers: each [1, H, Tq, Tk] (one sequence), queries[Tq] and keys[Tk] their tokens.
// causal: the queries are the keys and each sees only itself and earlier ones;
// the cells of later keys are drawn grey (masked), apart from white (a weight of 0).
// At most 1600 pixels wide: a layer's heads wrap onto several rows when they must.
plot::Figure attention_grid(const std::string& title, const std::vector<autograd::Tensor>& layers,
                            const std::vector<std::string>& queries, const std::vector<std::string>& keys,
                            bool causal = false);

// The copy task: runs the model once on (src, tgt) and writes
// DIR/{encoder_self,decoder_self,cross}_attention.{png,svg} and the three as
// one page to explore, DIR/attention.html (attention_pages.h); returns the paths.
// Token 0 of each sequence is the start symbol, shown as <s>.
std::vector<std::string> write_attention_figures(models::Transformer& model, const autograd::Tensor& src,
                                                 const autograd::Tensor& tgt, std::int64_t pad, const std::string& dir);

}  // namespace run
