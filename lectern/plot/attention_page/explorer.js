"use strict";
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
