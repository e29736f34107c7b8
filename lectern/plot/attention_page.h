#pragma once
// Attention a student explores in a browser, as bertviz's head and model views
// show it: one self-contained HTML page (inline CSS, script and data; no
// network, no external script or font). The head view puts the query tokens in
// a column on the left and the key tokens on the right; pointing at a query
// token draws its weights p_{t,s} (002's p_{i,j}, query t, key s) as lines to the keys, as
// opaque and as wide as the weight, one colour per head, and lists them to
// three decimals. A layer and a head (or all heads) are chosen by selectors,
// and the model view below is a grid of thumbnails, layers down and heads
// across; clicking one selects it. Like a Figure, a page is numbers and labels
// only: the caller turns its tensors into them.
//
// The page reads its selection from the URL's fragment and writes it back, so a
// view can be linked and a test can open one: #kind=1&layer=0&head=2&token=3
// (head=all for every head; kind counts the page's kinds of attention from 0).
#include <cstdint>
#include <string>
#include <vector>

namespace plot {

// One kind of attention of one sequence (an encoder's self-attention, a
// decoder's cross-attention): every layer's and head's weights.
struct AttentionKind {
    std::string name;                        // "cross-attention (output tokens attend to source tokens)"
    std::vector<std::string> queries, keys;  // the tokens, as the heat maps' tick labels show them
    std::int64_t layers = 0, heads = 0;
    std::vector<double> weights;  // [layers][heads][queries][keys], row-major, each in [0, 1]
};

struct AttentionPage {
    std::string title;
    std::vector<AttentionKind> kinds;  // chosen by a selector when there are several
};

// Throws plot::Error (one line naming the page and the reason) when the page
// cannot be drawn: no kinds, no tokens, weights of the wrong count, a NaN or
// infinity, or a weight outside [0, 1].
void check(const AttentionPage& page);

// The page as an HTML file's bytes; checks it first. Tokens and titles are text
// to the browser, never markup: a token "</script>" shows as itself.
std::string render_page(const AttentionPage& page);

// The explorer's pieces, for a page that holds it among other things (web/: the page
// that trains the copy task live) and for render_page, so both run the one script:
// its CSS rules, its markup (controls, head view, readout, model view), its script
// (JavaScript without the <script> tags), and a page's data as the script reads it.
// The script defines showAttention(data), data being explorer_data's JSON parsed:
// the first call draws with the selection of the URL's fragment; later calls (the
// same sequence, a model trained further) redraw, keeping the reader's selection.
std::string_view explorer_style();
std::string_view explorer_markup();
std::string_view explorer_script();
// Checks the page as render_page does; the JSON has no '<', '>' or '&' outside \u
// escapes, so it may stand inside a <script> element.
std::string explorer_data(const AttentionPage& page);

}  // namespace plot
