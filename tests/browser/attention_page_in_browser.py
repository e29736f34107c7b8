#!/usr/bin/env python3
"""attention_page_in_browser.py CHROMIUM COPY_TASK

The copy task's attention page as a student sees it, in a real headless
browser: a tiny run writes DIR/attention.html; Chromium opens it at a layer,
head and token chosen in the URL's fragment (the page reads it as it reads its
own selectors), and the weights the page's script writes into the DOM are the
model's, the numbers the program wrote into the page's data, each to three
decimals as printed. A screenshot of the page is not blank.
"""
import html.parser
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib


def fail(why):
    print("FAIL:", why)
    sys.exit(1)


def chromium(binary, profile, *args):
    # --no-sandbox: a container's root cannot use Chromium's sandbox; no GPU here.
    cmd = [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           f"--user-data-dir={profile}", *args]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail(f"{' '.join(cmd)} exited {run.returncode}: {run.stderr[-2000:]}")
    return run.stdout


def page_data(path):
    """The data the program wrote into the page, read from the file (not the DOM)."""
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="attention-data">(.*?)</script>', text, re.S)
    if not m:
        fail(f"{path} holds no attention data")
    return json.loads(m.group(1))


def weight(kind, layer, head, query, key):
    tq, tk = len(kind["queries"]), len(kind["keys"])
    return kind["weights"][((layer * kind["heads"] + head) * tq + query) * tk + key]


class Readout(html.parser.HTMLParser):
    """The rendered DOM's weights table, its readout title and the selectors' chosen options."""

    def __init__(self):
        super().__init__()
        self.table, self.cells, self.chosen, self.title = None, [], {}, ""
        self._select, self._cell, self._in_title = None, None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "weights":
            self.table = a
        elif tag == "td" and "data-weight" in a:
            self._cell = {**a, "text": ""}
            self.cells.append(self._cell)
        elif tag == "span" and a.get("class") == "value" and self._cell is not None:
            self._cell["in_value"] = True
        elif tag == "select":
            self._select = a.get("id")
        elif tag == "option" and "selected" in a:
            self.chosen[self._select] = a.get("value")
        elif tag == "p" and a.get("id") == "readout-title":
            self._in_title = True

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = None
        elif tag == "span" and self._cell is not None:
            self._cell["in_value"] = False
        elif tag == "p":
            self._in_title = False

    def handle_data(self, data):
        if self._cell is not None and self._cell.get("in_value"):
            self._cell["text"] += data
        if self._in_title:
            self.title += data


def check_readout(dom, kind, k, layer, heads, token, label):
    r = Readout()
    r.feed(dom)
    if r.table is None:
        fail(f"{label}: the page shows no weights table")
    head_value = str(heads[0]) if len(heads) == 1 else "all"
    if r.chosen != {"kind": str(k), "layer": str(layer), "head": head_value}:
        fail(f"{label}: the selectors show {r.chosen}, not kind {k}, layer {layer}, head {head_value}")
    if (r.table.get("data-layer"), r.table.get("data-query")) != (str(layer), str(token)):
        fail(f"{label}: the table is of layer {r.table.get('data-layer')}, query {r.table.get('data-query')}")
    if f"\u201c{kind['queries'][token]}\u201d" not in r.title:
        fail(f"{label}: the readout \"{r.title}\" does not name query token {kind['queries'][token]!r}")
    want = [(h, s) for s in range(len(kind["keys"])) for h in heads]
    got = [(int(c["data-head"]), int(c["data-key"])) for c in r.cells]
    if got != want:
        fail(f"{label}: the table's cells are (head, key) {got}, expected {want}")
    for c in r.cells:
        h, s = int(c["data-head"]), int(c["data-key"])
        w = weight(kind, layer, h, token, s)
        if float(c["data-weight"]) != w:
            fail(f"{label}: head {h}, key {s} carries {c['data-weight']}, the model's weight is {w}")
        shown = float(c["text"])
        if c["text"] != f"{shown:.3f}" or abs(shown - w) > 0.0005 + 1e-12:
            fail(f"{label}: head {h}, key {s} shows \"{c['text']}\", the model's weight is {w:.6f}")
    return len(r.cells)


def png_pixels(path):
    """(width, height, RGBA rows) of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if ctype == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        fail(f"{path}: a PNG of depth {depth}, colour type {colour}, interlace {interlace} is not read here")
    bpp = 4 if colour == 6 else 3
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):  # undo the row's filter (PNG spec, 9.2)
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if kind == 1: line[x] = (line[x] + a) & 255
            elif kind == 2: line[x] = (line[x] + b) & 255
            elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    if len(sys.argv) != 3:
        fail("usage: attention_page_in_browser.py CHROMIUM COPY_TASK")
    binary, copy_task = sys.argv[1:]
    if not binary or not os.path.exists(binary):
        fail("chromium is not installed: scripts/setup.sh installs it (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        figures = os.path.join(tmp, "figures")
        subprocess.run([copy_task, "--epochs", "1", "--batches-per-epoch", "3", "--eval-sequences", "4",
                        "--d-model", "32", "--figures", figures], check=True, stdout=subprocess.DEVNULL)
        page = os.path.join(figures, "attention.html")
        data = page_data(page)
        # The data are attention weights laid out [layer][head][query][key]: each query's row adds up to 1,
        # and the decoder's masked self-attention (kind 1) puts nothing on a later key.
        for kind in data["kinds"]:
            tq, tk = len(kind["queries"]), len(kind["keys"])
            for row in range(kind["layers"] * kind["heads"] * tq):
                total = math.fsum(kind["weights"][row * tk:(row + 1) * tk])
                if abs(total - 1) > 1e-4:
                    fail(f"{kind['name']}: row {row} adds up to {total}, not 1")
        masked = data["kinds"][1]
        for layer in range(masked["layers"]):
            for head in range(masked["heads"]):
                for q in range(len(masked["queries"])):
                    for s in range(q + 1, len(masked["keys"])):
                        if weight(masked, layer, head, q, s) != 0:
                            fail(f"{masked['name']}: query {q} puts {weight(masked, layer, head, q, s)} on later key {s}")

        # Cross-attention, the last layer, head 1, the fourth output token: first one head, then all heads.
        k, kind = 2, data["kinds"][2]
        layer, head, token = kind["layers"] - 1, 1, 3
        mine = [weight(kind, layer, head, token, s) for s in range(len(kind["keys"]))]
        for other_layer in range(kind["layers"]):
            for other_head in range(kind["heads"]):
                other = [weight(kind, other_layer, other_head, token, s) for s in range(len(kind["keys"]))]
                if (other_layer, other_head) != (layer, head) and max(abs(a - b) for a, b in zip(mine, other)) < 0.002:
                    fail(f"layer {other_layer}, head {other_head} has the chosen head's weights: the check would not tell them apart")
        profile = os.path.join(tmp, "profile")
        url = f"file://{page}#kind={k}&layer={layer}&head={head}&token={token}"
        cells = check_readout(chromium(binary, profile, "--dump-dom", url), kind, k, layer, [head], token, "one head")
        url_all = f"file://{page}#kind={k}&layer={layer}&head=all&token={token}"
        cells_all = check_readout(chromium(binary, profile, "--dump-dom", url_all), kind, k, layer,
                                  list(range(kind["heads"])), token, "all heads")

        shot = os.path.join(tmp, "page.png")
        chromium(binary, profile, f"--screenshot={shot}", "--window-size=1000,800", url)
        width, height, bpp, rows = png_pixels(shot)
        ink = coloured = 0
        for row in rows:
            for x in range(0, width * bpp, bpp):
                r, g, b = row[x], row[x + 1], row[x + 2]
                ink += min(r, g, b) < 235
                coloured += max(r, g, b) - min(r, g, b) > 60  # a head's colour, not grey text
        if ink < 0.01 * width * height or coloured < 2000:
            fail(f"the screenshot is blank: {ink} of {width * height} pixels not white, {coloured} in a head's colour")
        print(f"ok: layer {layer}, head {head}, query {token} ({kind['queries'][token]!r}): {cells} weights shown as "
              f"the model's, {cells_all} with all heads; the screenshot has {ink} inked pixels, {coloured} coloured")


if __name__ == "__main__":
    main()
