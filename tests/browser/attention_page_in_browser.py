#!/usr/bin/env python3
"""attention_page_in_browser.py CHROMIUM COPY_TASK

The copy task's attention page as a student sees it, in a real headless
browser: a tiny run writes DIR/attention.html; Chromium opens it at a layer,
head and token chosen in the URL's fragment (the page reads it as it reads its
own selectors), and the weights the page's script writes into the DOM are the
model's, the numbers the program wrote into the page's data, each to three
decimals as printed. Then Chromium, driven through its DevTools protocol, moves
and clicks a real mouse over the page's own controls (a query token, a head's
swatch, a thumbnail of another layer): after each, the lines the head view
draws are the chosen token's, layer's and heads', each as opaque as the model's
weight and joining the right tokens. A screenshot of the page is not blank.
"""
import base64
import html.parser
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
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



class Browser:
    """Headless Chromium driven through its DevTools protocol over a pipe (--remote-debugging-pipe:
    the browser reads JSON commands, each ended by a NUL, from its fd 3 and answers on its fd 4)."""

    def __init__(self, binary, profile):
        to_browser, self._commands = os.pipe()
        self._answers, from_browser = os.pipe()

        def as_fds_3_and_4():  # through copies: a pipe's end may already be fd 3 or 4, and close on exec
            ends = os.dup(to_browser), os.dup(from_browser)
            os.dup2(ends[0], 3)
            os.dup2(ends[1], 4)

        self.proc = subprocess.Popen([binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                      "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"],
                                     preexec_fn=as_fds_3_and_4, close_fds=False,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self._next, self._buffer, self.session = 0, b"", None

    def send(self, method, **params):
        self._next += 1
        message = {"id": self._next, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:  # events arrive between the answers; only the answer is wanted
            while b"\0" not in self._buffer:
                chunk = os.read(self._answers, 1 << 20)
                if not chunk:
                    fail(f"Chromium closed its DevTools pipe while answering {method}")
                self._buffer += chunk
            text, self._buffer = self._buffer.split(b"\0", 1)
            answer = json.loads(text)
            if answer.get("id") == self._next:
                if "error" in answer:
                    fail(f"Chromium refused {method}: {answer['error']}")
                return answer["result"]

    def open(self, url, width, height):
        target = self.send("Target.createTarget", url=url)["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        for _ in range(200):
            if self.value("location.protocol + document.readyState") == "file:complete":
                return
            time.sleep(0.05)
        fail(f"{url} did not load in 10 s")

    def value(self, expression):
        answer = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in answer:
            fail(f"the page could not evaluate {expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def centre(self, selector):
        """The middle of the element, in the page's pixels, where a person would point."""
        box = self.value(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                         f" return [r.x + r.width / 2, r.y + r.height / 2]; }})()")
        if box is None:
            fail(f"the page has no {selector}")
        return box

    def point(self, selector):
        x, y = self.centre(selector)
        self.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)

    def click(self, selector):
        x, y = self.centre(selector)
        self.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        self.send("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1)
        self.send("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left", clickCount=1)

    def screenshot(self, path):
        open(path, "wb").write(base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"]))

    def close(self):
        try:
            if self.proc.poll() is None:
                self.send("Browser.close")
            self.proc.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


# What the head view draws, read from the rendered DOM: each line's head, query and key, its opacity,
# width, colour and ends, and the rows of the query and key tokens it joins.
HEAD_VIEW = """JSON.stringify({
  lines: [...document.querySelectorAll('#headview #lines line')].map(l => ({
    head: +l.dataset.head, query: +l.dataset.query, key: +l.dataset.key, stroke: l.getAttribute('stroke'),
    opacity: l.getAttribute('stroke-opacity'), width: +l.getAttribute('stroke-width'),
    y1: +l.getAttribute('y1'), y2: +l.getAttribute('y2')})),
  queries: [...document.querySelectorAll('#headview text.query')].map(t => +t.getAttribute('y')),
  keys: [...document.querySelectorAll('#headview text.key')].map(t => +t.getAttribute('y')),
  swatches: [...document.querySelectorAll('#swatches span')].map(s => getComputedStyle(s).backgroundColor)})"""


def rgb(colour):
    """'#1f77b4' or 'rgb(31, 119, 180)' as (31, 119, 180)."""
    if colour.startswith("#"):
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(int(v) for v in re.findall(r"[0-9]+", colour)[:3])


def check_lines(browser, kind, layer, heads, queries, label):
    """The head view draws a line for each shown head, query and key whose weight is visible (>= 0.005),
    as opaque as the weight and 1 + 4 w wide, in its head's colour, from the query's row to the key's."""
    view = json.loads(browser.value(HEAD_VIEW))
    drawn = {(l["head"], l["query"], l["key"]): l for l in view["lines"]}
    if len(drawn) != len(view["lines"]):
        fail(f"{label}: a line is drawn twice")
    want = {(h, q, s) for q in queries for h in heads for s in range(len(kind["keys"]))
            if weight(kind, layer, h, q, s) >= 0.005}
    if set(drawn) != want:
        fail(f"{label}: lines drawn for (head, query, key) {sorted(set(drawn) - want)[:5]} not shown, "
             f"missing {sorted(want - set(drawn))[:5]}")
    for (h, q, s), line in drawn.items():
        w = weight(kind, layer, h, q, s)
        if float(line["opacity"]) != w or abs(line["width"] - (1 + 4 * w)) > 1e-9:
            fail(f"{label}: the line of head {h}, query {q}, key {s} has opacity {line['opacity']} and width "
                 f"{line['width']}; the model's weight is {w}")
        if abs(line["y1"] - view["queries"][q]) > 4 or abs(line["y2"] - view["keys"][s]) > 4:
            fail(f"{label}: the line of head {h}, query {q}, key {s} runs from y {line['y1']} to {line['y2']}, "
                 f"not from query row {view['queries'][q]} to key row {view['keys'][s]}")
        if rgb(line["stroke"]) != rgb(view["swatches"][h]):
            fail(f"{label}: head {h}'s line is {line['stroke']}, its swatch {view['swatches'][h]}")
    return len(drawn)


def explore(binary, profile, page, kind, k, shot):
    """A student at the page: points at a token, picks a head by its swatch, clicks the token to keep it,
    clicks another layer's thumbnail, then points at another token. Returns what each step showed."""
    browser = Browser(binary, profile)
    try:
        browser.open(f"file://{page}#kind={k}&layer=0&head=all", 1000, 900)
        heads, tq = list(range(kind["heads"])), len(kind["queries"])
        steps = [f"no token: {check_lines(browser, kind, 0, heads, range(tq), 'no token pointed at')} lines"]
        token, other = 3, tq - 1
        browser.point(f"#headview text.query[data-query='{token}']")
        steps.append(f"pointing at query {token}: {check_lines(browser, kind, 0, heads, [token], 'pointing')} lines")
        head = 1
        browser.click(f"#swatches span:nth-child({head + 1})")  # the pointer leaves the token: every query again
        chosen = browser.value("document.getElementById('head').value")
        if chosen != str(head):
            fail(f"clicking head {head}'s swatch left the head selector at {chosen}")
        steps.append(f"head {head}'s swatch: {check_lines(browser, kind, 0, [head], range(tq), 'one head')} lines")
        browser.click(f"#headview text.query[data-query='{token}']")
        steps.append(f"query {token} clicked: {check_lines(browser, kind, 0, [head], [token], 'kept')} lines")
        layer = kind["layers"] - 1
        browser.click(f"#grid canvas[data-layer='{layer}'][data-head='{head}']")
        if browser.value("location.hash") != f"#kind={k}&layer={layer}&head={head}&token={token}":
            fail(f"after clicking layer {layer}'s thumbnail the address is {browser.value('location.hash')}")
        steps.append(f"layer {layer}'s thumbnail: {check_lines(browser, kind, layer, [head], [token], 'other layer')} lines")
        browser.screenshot(shot)
        browser.point(f"#headview text.query[data-query='{other}']")
        steps.append(f"pointing at query {other}: "
                     f"{check_lines(browser, kind, layer, [head], [other], 'pointing past the kept token')} lines")
    finally:
        browser.close()
    return steps


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

        shot = os.environ.get("ATTENTION_PAGE_SCREENSHOT") or os.path.join(tmp, "page.png")
        steps = explore(binary, os.path.join(tmp, "profile-explore"), page, kind, k, shot)
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
              f"the model's, {cells_all} with all heads; then with the mouse: {'; '.join(steps)}; "
              f"the screenshot has {ink} inked pixels, {coloured} coloured")


if __name__ == "__main__":
    main()
