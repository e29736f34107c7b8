#!/usr/bin/env python3
"""page_in_browser.py CHROMIUM PAGE [SCREENSHOT]

The page that trains the copy task (build-web/lectern.html, docs/web.md) in a real
headless Chromium, driven through its DevTools protocol (tests/browser's Browser):

1. Opened with ?run&steps=300 it trains by itself in its worker: progress arrives,
   Stop halts the steps and Resume carries on, the loss falls (the last 30 steps'
   mean below half the first 30's), the attention explorer is redrawn as training
   goes (its last data differs from its first, and the head view draws the last
   data's weights), and the exact-match line arrives in copy_task's words.
2. Opened with a knob out of range (?run&heads=3) it says so in one line, within
   seconds, and trains nothing.
A worker that posts nothing fails the test within NO_WORD seconds, naming what it
waited for; a screenshot of the trained page is not blank.
"""
import json
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "browser"))
from attention_page_in_browser import Browser, check_lines, fail, png_pixels  # noqa: E402

NO_WORD = 60  # seconds without a word from the worker: it is not working
STATE = """JSON.stringify({state: lectern.state, steps: lectern.losses.length, views: lectern.attentionViews.length,
  error: document.getElementById('error').textContent, exact: document.getElementById('exact-match').textContent})"""


def wait(browser, until, what, limit=600):
    """Polls the page until until(state) holds; fails when the worker falls silent or errs."""
    began = last_change = time.time()
    seen = None
    while True:
        s = json.loads(browser.value(STATE))
        if s["error"]:
            fail(f"while waiting for {what}, the page says: {s['error']}")
        if until(s):
            return s
        progress = (s["state"], s["steps"], s["views"])
        if progress != seen:
            seen, last_change = progress, time.time()
        if time.time() - last_change > NO_WORD:
            fail(f"no word from the worker for {NO_WORD} s while waiting for {what} "
                 f"(state {s['state']}, {s['steps']} steps, {s['views']} attention views)")
        if time.time() - began > limit:
            fail(f"{what} took over {limit} s")
        time.sleep(0.25)


def train_short_run(binary, profile, page, shot):
    browser = Browser(binary, profile)
    try:
        browser.open(f"file://{page}?run&steps=300", 1280, 900)
        wait(browser, lambda s: s["steps"] >= 60, "the first 60 steps")
        browser.click("#stop")
        time.sleep(0.5)  # a chunk of steps under way when Stop was pressed still reports
        held = json.loads(browser.value(STATE))["steps"]
        time.sleep(2)
        after = json.loads(browser.value(STATE))
        if after["steps"] != held or after["state"] != "stopped":
            fail(f"Stop: {held} steps, then {after['steps']} two seconds later (state {after['state']})")
        browser.click("#resume")
        wait(browser, lambda s: s["steps"] > held, "training to resume")
        s = wait(browser, lambda s: s["state"] == "done", "the run of 300 steps and its evaluation")

        losses = browser.value("lectern.losses")
        if len(losses) != 300:
            fail(f"the page holds {len(losses)} losses for 300 steps")
        first, last = sum(losses[:30]) / 30, sum(losses[-30:]) / 30
        if not last < 0.5 * first:
            fail(f"the loss did not fall: the first 30 steps' mean {first:.4f}, the last 30's {last:.4f}")

        views = browser.value("lectern.attentionViews")
        steps_shown = [v["step"] for v in views]
        if steps_shown[0] != 0 or steps_shown[-1] != 300 or len(views) < 4:
            fail(f"the attention was shown after steps {steps_shown}: expected 0, every 50, and 300")
        a, b = views[0]["data"]["kinds"][0], views[-1]["data"]["kinds"][0]
        change = max(abs(x - y) for x, y in zip(a["weights"], b["weights"]))
        if change < 0.05:
            fail(f"the cross-attention's weights moved at most {change:.4f} over training: the view did not change")
        kind = views[-1]["data"]["kinds"][0]
        lines = check_lines(browser, kind, 0, list(range(kind["heads"])), range(len(kind["queries"])),
                            "the explorer after training")
        thumbnails = browser.value("document.querySelectorAll('#grid canvas').length")
        if thumbnails != kind["layers"] * kind["heads"]:
            fail(f"the model view has {thumbnails} thumbnails for {kind['layers']} layers of {kind['heads']} heads")

        line = s["exact"]
        if not re.fullmatch(r"exact-match accuracy: \d+/1000 = \d+\.\d% of held-out sequences copied exactly", line):
            fail(f"the exact-match line reads \"{line}\"")
        browser.screenshot(shot)
        return first, last, change, lines, line
    finally:
        browser.close()


def refuse_bad_knob(binary, profile, page):
    browser = Browser(binary, profile)
    try:
        browser.open(f"file://{page}?run&heads=3", 1280, 900)
        began = time.time()
        while time.time() - began < 30:
            s = json.loads(browser.value(STATE))
            if s["error"]:
                if "heads: 3 does not divide d_model = 64" not in s["error"] or s["state"] != "failed" or s["steps"]:
                    fail(f"heads=3: the page says \"{s['error']}\" in state {s['state']} after {s['steps']} steps")
                return s["error"]
            time.sleep(0.25)
        fail("heads=3: no message in 30 s")
    finally:
        browser.close()


def main():
    if len(sys.argv) not in (3, 4) or not sys.argv[1]:
        fail("usage: page_in_browser.py CHROMIUM PAGE [SCREENSHOT] (Chromium: apt-get install chromium)")
    binary, page = sys.argv[1], os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        shot = sys.argv[3] if len(sys.argv) == 4 else os.path.join(tmp, "page.png")
        began = time.time()
        first, last, change, lines, line = train_short_run(binary, os.path.join(tmp, "profile"), page, shot)
        seconds = time.time() - began
        message = refuse_bad_knob(binary, os.path.join(tmp, "profile-bad"), page)
        width, height, bpp, rows = png_pixels(shot)
        ink = sum(min(row[x], row[x + 1], row[x + 2]) < 235 for row in rows for x in range(0, width * bpp, bpp))
        if ink < 0.01 * width * height:
            fail(f"the screenshot is blank: {ink} of {width * height} pixels not white")
    print(f"ok: 300 steps in {seconds:.0f} s with a stop and a resume; loss {first:.3f} -> {last:.3f} (means of the "
          f"first and last 30 steps); cross-attention moved by up to {change:.3f}, {lines} lines drawn after training; "
          f"\"{line}\"; heads=3 refused: \"{message}\"; screenshot {ink} inked pixels")


if __name__ == "__main__":
    main()
