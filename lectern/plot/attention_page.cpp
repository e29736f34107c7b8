#include "lectern/plot/attention_page.h"

#include <cmath>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lectern/plot/figure.h"  // plot::Error

namespace plot {

namespace {

[[noreturn]] void fail(const AttentionPage& page, const std::string& why) {
    throw Error(fmt::format("cannot draw \"{}\": {}", page.title, why));
}

void check_kind(const AttentionPage& page, const AttentionKind& k) {
    if (k.queries.empty() || k.keys.empty())
        fail(page, fmt::format("{}: {} query tokens and {} key tokens, nothing to show", k.name, k.queries.size(),
                               k.keys.size()));
    if (k.layers <= 0 || k.heads <= 0) fail(page, fmt::format("{}: {} layers of {} heads", k.name, k.layers, k.heads));
    const auto Tq = static_cast<std::int64_t>(k.queries.size()), Tk = static_cast<std::int64_t>(k.keys.size());
    if (static_cast<std::int64_t>(k.weights.size()) != k.layers * k.heads * Tq * Tk)
        fail(page, fmt::format("{}: {} weights for {} layers x {} heads x {} queries x {} keys", k.name, k.weights.size(),
                               k.layers, k.heads, Tq, Tk));
    for (std::size_t i = 0; i < k.weights.size(); ++i) {
        const double w = k.weights[i];
        if (std::isfinite(w) && w >= -1e-6 && w <= 1 + 1e-6) continue;  // a softmax's rounding may pass 1 by an ulp
        const auto at = static_cast<std::int64_t>(i);
        fail(page, fmt::format("{}: layer {}, head {}, query {}, key {} holds {}, not an attention weight in [0, 1]", k.name,
                               at / (k.heads * Tq * Tk), at / (Tq * Tk) % k.heads, at / Tk % Tq, at % Tk, w));
    }
}

// Text for the browser, never markup.
std::string html_escape(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

// A JSON string (bytes that are not UTF-8 become U+FFFD) whose '<', '>' and '&'
// are \u escapes, so that no token can close the <script> element holding it.
std::string json_string(const std::string& text) {
    const std::string json = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    for (char c : json) {
        if (c == '<') out += "\\u003c";
        else if (c == '>') out += "\\u003e";
        else if (c == '&') out += "\\u0026";
        else out += c;
    }
    return out;
}

std::string json_strings(const std::vector<std::string>& texts) {
    std::string out = "[";
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (i) out += ',';
        out += json_string(texts[i]);
    }
    return out + "]";
}

// Each weight as the shortest decimal that reads back as itself: a float32
// tensor's weight to float32's precision, a double's to a double's.
std::string json_numbers(const std::vector<double>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) out += ',';
        const auto f = static_cast<float>(values[i]);
        out += static_cast<double>(f) == values[i] ? fmt::format("{}", f) : fmt::format("{}", values[i]);
    }
    return out + "]";
}

std::string page_data(const AttentionPage& page) {
    std::string out = "{\"title\":" + json_string(page.title) + ",\"kinds\":[";
    for (std::size_t i = 0; i < page.kinds.size(); ++i) {
        const AttentionKind& k = page.kinds[i];
        out += fmt::format("{}{{\"name\":{},\"layers\":{},\"heads\":{},\"queries\":{},\"keys\":{},\"weights\":{}}}",
                           i ? "," : "", json_string(k.name), k.layers, k.heads, json_strings(k.queries),
                           json_strings(k.keys), json_numbers(k.weights));
    }
    return out + "]}";
}

// The explorer: the head view (tokens in two columns, lines for the weights), the
// weights of the token pointed at as a table, and the model view (a thumbnail per
// layer and head). Its script draws with the DOM's SVG and canvas only; tokens reach
// the page as textContent, never as markup.
constexpr std::string_view kStyle = R"css(body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.3em; margin: 0 0 .3em; }
h2 { font-size: 1.05em; margin: 1.2em 0 .3em; }
p.how { margin: 0 0 .8em; color: #555; max-width: 62em; }
#controls { display: flex; flex-wrap: wrap; gap: .4em 1.2em; align-items: center; margin-bottom: .6em; }
#controls label { font-weight: 600; }
#swatches span { display: inline-block; padding: 1px 6px; margin: 0 2px; border-radius: 3px; color: #fff;
                 cursor: pointer; font-size: .85em; border: 2px solid transparent; }
#swatches span.chosen { border-color: #222; }
#views { display: flex; flex-wrap: wrap; gap: 2em; align-items: flex-start; }
#headview text { font-family: ui-monospace, monospace; font-size: 14px; dominant-baseline: middle; }
#headview text.query { cursor: pointer; }
#headview text.focus { font-weight: bold; }
#headview .column { font-family: system-ui, sans-serif; font-size: 12px; fill: #666; }
#readout { min-width: 16em; }
#readout p { margin: 0 0 .4em; }
#weights { border-collapse: collapse; font-size: .9em; }
#weights th, #weights td { padding: 1px 6px; text-align: left; }
#weights th.position { color: #888; font-weight: normal; text-align: right; }
#weights th.key { font-family: ui-monospace, monospace; font-weight: normal; }
#weights td { font-variant-numeric: tabular-nums; white-space: nowrap; }
#weights td.zero { color: #bbb; }
#weights .bar { display: inline-block; height: .7em; margin-left: 4px; vertical-align: middle; }
#grid { border-collapse: collapse; }
#grid th { font-weight: normal; font-size: .8em; color: #555; padding: 0 4px; }
#grid canvas { display: block; border: 2px solid #ddd; margin: 2px; cursor: pointer; background: #fff; }
#grid canvas.chosen { border-color: #222; }
)css";

constexpr std::string_view kMarkup = R"html(<p class="how">Each line joins a query token (left) to a key token (right); the more weight the query puts on
the key, the more opaque and wide its line (the weights of a query add up to 1). Point at a query token to see
only its lines; click it to keep it, and its weights are listed beside. Choose a layer and a head, or all heads,
each in its colour; below, every layer and head at once: click one to choose it.</p>
<noscript><p>This page draws with JavaScript, which is turned off.</p></noscript>
<div id="controls">
<span id="kind-control"><label for="kind">attention</label> <select id="kind"></select></span>
<span><label for="layer">layer</label> <select id="layer"></select></span>
<span><label for="head">head</label> <select id="head"></select></span>
<span id="swatches"></span>
</div>
<div id="views">
<svg id="headview" xmlns="http://www.w3.org/2000/svg"></svg>
<div id="readout"></div>
</div>
<h2>Every layer and head (layers down, heads across)</h2>
<table id="grid"></table>
)html";

constexpr std::string_view kScript = R"js("use strict";
let page = null;  // the attention shown: {title, kinds}, as page_data writes it
const state = {kind: 0, layer: 0, head: "all", token: null, hover: null};
const SVG = "http://www.w3.org/2000/svg";
const ROW = 22, LEFT = 170, GAP = 150;  // a token's row height; the query column's right edge; the gap to the keys
const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                 "#bcbd22", "#17becf"];

const kind = () => page.kinds[state.kind];
const colour = h => kind().heads <= PALETTE.length ? PALETTE[h] : `hsl(${Math.round(h * 360 / kind().heads)},65%,42%)`;
const shownHeads = () => state.head === "all" ? [...Array(kind().heads).keys()] : [state.head];
const focus = () => state.hover !== null ? state.hover : state.token;
// alpha_{q,s} of layer l, head h: weights are [layer][head][query][key]
function weight(l, h, q, s) {
  const k = kind();
  return k.weights[((l * k.heads + h) * k.queries.length + q) * k.keys.length + s];
}
const SVG_TAGS = ["line", "text", "rect", "g", "title"];  // the head view's; "title" is a token's tooltip there
function element(tag, attributes, parent, text) {
  const e = SVG_TAGS.includes(tag) ? document.createElementNS(SVG, tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) e.setAttribute(name, value);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// The selection from the URL's fragment: #kind=0&layer=1&head=2&token=3 (head=all); what is out of range is ignored.
function readFragment() {
  const p = new URLSearchParams(location.hash.slice(1));
  const index = (name, n) => {
    const v = p.get(name);
    return v !== null && /^[0-9]+$/.test(v) && Number(v) < n ? Number(v) : null;
  };
  state.kind = index("kind", page.kinds.length) ?? 0;
  state.layer = index("layer", kind().layers) ?? 0;
  state.head = index("head", kind().heads) ?? "all";
  state.token = index("token", kind().queries.length);
}
function writeFragment() {
  let f = `kind=${state.kind}&layer=${state.layer}&head=${state.head}`;
  if (state.token !== null) f += `&token=${state.token}`;
  history.replaceState(null, "", "#" + f);
}

function fillControls() {
  const options = (select, labels, chosen) => {
    select.replaceChildren();
    // the chosen option carries the attribute too, so that a saved page (or --dump-dom) shows the choice
    labels.forEach(([value, label]) =>
      element("option", String(value) === String(chosen) ? {value, selected: ""} : {value}, select, label));
    select.value = String(chosen);
  };
  options(document.getElementById("kind"), page.kinds.map((k, i) => [i, k.name]), state.kind);
  document.getElementById("kind-control").style.display = page.kinds.length > 1 ? "" : "none";
  options(document.getElementById("layer"), [...Array(kind().layers).keys()].map(l => [l, `layer ${l}`]), state.layer);
  options(document.getElementById("head"),
          [["all", "all heads"], ...[...Array(kind().heads).keys()].map(h => [h, `head ${h}`])], state.head);
  const swatches = document.getElementById("swatches");
  swatches.replaceChildren();
  for (let h = 0; h < kind().heads; ++h) {
    const s = element("span", {title: `head ${h}: click to show it alone, again for all heads`}, swatches, `${h}`);
    s.style.background = colour(h);
    if (state.head === h) s.className = "chosen";
    s.onclick = () => choose({head: state.head === h ? "all" : h});
  }
}

// The head view: query tokens left, key tokens right (drawn when the kind
// changes), a line per weight (drawn again whenever the focus changes).
function drawTokens() {
  const k = kind(), svg = document.getElementById("headview");
  const rows = Math.max(k.queries.length, k.keys.length), y = i => (i + 1.5) * ROW;
  svg.replaceChildren();
  svg.setAttribute("width", 2 * LEFT + GAP);
  svg.setAttribute("height", (rows + 1) * ROW + 8);
  element("text", {x: LEFT - 8, y: ROW / 2, "text-anchor": "end", class: "column"}, svg, "query");
  element("text", {x: LEFT + GAP + 8, y: ROW / 2, class: "column"}, svg, "key");
  element("g", {id: "shading"}, svg);
  element("g", {id: "lines"}, svg);
  k.queries.forEach((token, q) => {
    const t = element("text", {x: LEFT - 8, y: y(q), "text-anchor": "end", class: "query", "data-query": q}, svg, token);
    element("title", {}, t, `query ${q}: click to keep it`);
    t.onmouseenter = () => { state.hover = q; drawFocus(); };
    t.onmouseleave = () => { state.hover = null; drawFocus(); };
    t.onclick = () => choose({token: state.token === q ? null : q});
  });
  k.keys.forEach((token, s) => element("text", {x: LEFT + GAP + 8, y: y(s), class: "key", "data-key": s}, svg, token));
}
function drawLines() {
  const k = kind(), f = focus(), heads = shownHeads(), y = i => (i + 1.5) * ROW;
  const lines = document.getElementById("lines"), shading = document.getElementById("shading");
  lines.replaceChildren();
  shading.replaceChildren();
  for (const q of f === null ? k.queries.keys() : [f])
    for (const h of heads)
      for (let s = 0; s < k.keys.length; ++s) {
        const w = weight(state.layer, h, q, s);
        if (w < 0.005) continue;  // a line of opacity 0.005 cannot be seen
        const dy = heads.length > 1 ? (h - (heads.length - 1) / 2) * 8 / heads.length : 0;  // heads side by side
        element("line", {x1: LEFT, y1: y(q) + dy, x2: LEFT + GAP, y2: y(s) + dy, stroke: colour(h),
                         "stroke-opacity": w, "stroke-width": 1 + 4 * w, "data-head": h, "data-query": q, "data-key": s},
                lines);
      }
  if (f !== null && heads.length === 1)  // the keys shaded by the weight the focused query gives them
    k.keys.forEach((_, s) => element("rect", {x: LEFT + GAP + 2, y: y(s) - ROW / 2 + 2, width: LEFT - 10, height: ROW - 4,
                                              fill: colour(heads[0]), "fill-opacity": weight(state.layer, heads[0], f, s)},
                                     shading));
  document.querySelectorAll("#headview text.query").forEach((t, q) => t.classList.toggle("focus", q === f));
}

// The weights of the focused query token, a column per shown head.
function drawReadout() {
  const k = kind(), readout = document.getElementById("readout"), f = focus(), heads = shownHeads();
  readout.replaceChildren();
  if (f === null) {
    element("p", {}, readout, "Point at a query token, or click it to keep it, to list its weights.");
    return;
  }
  element("p", {id: "readout-title"}, readout,
          `layer ${state.layer}, ${heads.length === 1 ? "head " + heads[0] : "all heads"}: query ${f} ` +
          `\u201c${k.queries[f]}\u201d puts on each key`);
  const table = element("table", {id: "weights", "data-layer": state.layer, "data-query": f}, readout);
  const top = element("tr", {}, table);
  element("th", {}, top, "#");
  element("th", {}, top, "key");
  for (const h of heads) element("th", {}, top, `head ${h}`).style.color = colour(h);
  k.keys.forEach((token, s) => {
    const row = element("tr", {}, table);
    element("th", {class: "position"}, row, s);
    element("th", {class: "key"}, row, token);
    for (const h of heads) {
      const w = weight(state.layer, h, f, s);
      const cell = element("td", {"data-head": h, "data-key": s, "data-weight": w}, row);
      if (w === 0) cell.className = "zero";  // a masked key: greyed, as nothing is drawn to it
      element("span", {class: "value"}, cell, w.toFixed(3));
      const bar = element("span", {class: "bar"}, cell);
      bar.style.width = `${Math.round(100 * w)}px`;
      bar.style.background = colour(h);
    }
  });
}

// The model view: per layer and head, a thumbnail of the head view's lines (of the focused query, else of all).
function drawGrid() {
  const k = kind(), grid = document.getElementById("grid"), f = focus();
  const rows = Math.max(k.queries.length, k.keys.length), w = 84, h = Math.min(120, Math.max(48, 4 * rows));
  grid.replaceChildren();
  const top = element("tr", {}, grid);
  element("th", {}, top);
  for (let head = 0; head < k.heads; ++head) element("th", {}, top, `head ${head}`).style.color = colour(head);
  for (let l = 0; l < k.layers; ++l) {
    const row = element("tr", {}, grid);
    element("th", {}, row, `layer ${l}`);
    for (let head = 0; head < k.heads; ++head) {
      const canvas = element("canvas", {width: w, height: h, title: `layer ${l}, head ${head}`,
                                        "data-layer": l, "data-head": head}, element("td", {}, row));
      if (l === state.layer && (state.head === "all" || state.head === head)) canvas.className = "chosen";
      canvas.onclick = () => choose({layer: l, head: head});
      const c = canvas.getContext("2d");
      const yq = q => 4 + (q + 0.5) * (h - 8) / k.queries.length, ys = s => 4 + (s + 0.5) * (h - 8) / k.keys.length;
      c.strokeStyle = colour(head);
      for (const q of f === null ? k.queries.keys() : [f])
        for (let s = 0; s < k.keys.length; ++s) {
          const a = weight(l, head, q, s);
          if (a < 0.005) continue;
          c.globalAlpha = a;
          c.lineWidth = 0.5 + 1.5 * a;
          c.beginPath();
          c.moveTo(6, yq(q));
          c.lineTo(w - 6, ys(s));
          c.stroke();
        }
    }
  }
}

function drawFocus() { drawLines(); drawReadout(); drawGrid(); }
function draw() { fillControls(); drawTokens(); drawFocus(); }
function choose(change) {
  const otherKind = "kind" in change && change.kind !== state.kind;
  if (otherKind) Object.assign(state, {layer: 0, head: "all", token: null});
  Object.assign(state, change);
  writeFragment();
  fillControls();
  if (otherKind) drawTokens();  // the token under the pointer stays while it points
  drawFocus();
}
document.getElementById("kind").onchange = e => choose({kind: Number(e.target.value)});
document.getElementById("layer").onchange = e => choose({layer: Number(e.target.value)});
document.getElementById("head").onchange = e => choose({head: e.target.value === "all" ? "all" : Number(e.target.value)});
window.addEventListener("hashchange", () => { if (page) { readFragment(); draw(); } });
// Shows `data` (page_data's JSON, parsed). The first data takes its selection from the URL's
// fragment; new data for the same sequence (a model that trained on) keeps the reader's
// selection, of what the new data has.
function showAttention(data) {
  const first = page === null;
  page = data;
  if (first) {
    readFragment();
  } else {
    const within = (v, n) => v !== null && v !== "all" && v < n ? v : null;
    state.kind = within(state.kind, page.kinds.length) ?? 0;
    state.layer = within(state.layer, kind().layers) ?? 0;
    state.head = within(state.head, kind().heads) ?? "all";
    state.token = within(state.token, kind().queries.length);
    state.hover = within(state.hover, kind().queries.length);
  }
  draw();
}
)js";

}  // namespace

void check(const AttentionPage& page) {
    if (page.kinds.empty()) fail(page, "no attention to show");
    for (const AttentionKind& k : page.kinds) check_kind(page, k);
}

std::string_view explorer_style() { return kStyle; }
std::string_view explorer_markup() { return kMarkup; }
std::string_view explorer_script() { return kScript; }

std::string explorer_data(const AttentionPage& page) {
    check(page);
    return page_data(page);
}

std::string render_page(const AttentionPage& page) {
    const std::string data = explorer_data(page);
    const std::string title = html_escape(page.title);
    return fmt::format(R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{0}</title>
<style>
{1}</style>
</head>
<body>
<h1>{0}</h1>
{2}<script type="application/json" id="attention-data">{3}</script>
<script>
{4}showAttention(JSON.parse(document.getElementById("attention-data").textContent));
</script>
</body>
</html>
)html",
                       title, kStyle, kMarkup, data, kScript);
}

}  // namespace plot
