#!/usr/bin/env python3
"""Every number docs/start-here.md quotes as a result comes from the generated block it cites.

An answer is a <details> element. Its prose (outside code) may quote a number only if the number
appears in a block the answer cites: a run of the page itself, between
`<!-- route_doc.sh NAME -->` and `<!-- end NAME -->` (written by scripts/route_doc.sh), inside the
answer or named in it as `the run "NAME"`, or an experiment's block of docs/experiments.md
(written by scripts/experiments_doc.sh), named as `docs/experiments.md, "NAME"`. Outside the
answers, the prose quotes no result at all: no decimal number and no percentage. Citations of
the notes (`004 §15.5.3 eq. 15.57`, table 15.1, Fig. 15.25), code spans (formulas worked by hand)
and whole numbers below 100 (4 epochs, 16 heads: what was run) are not quotations.
Each step (`## N. ...`) holds at least three answers.
Usage: quoted_numbers.py SOURCE_ROOT; prints each number that fails and exits 1.
"""
import re
import sys

root = sys.argv[1]
page_path = "docs/start-here.md"
page = open(f"{root}/{page_path}").read()
experiments = open(f"{root}/docs/experiments.md").read()


def blocks(text, script):
    return {m.group(1): m.group(2) for m in re.finditer(
        rf"<!-- {script} ([a-z0-9-]+) -->\n(.*?)<!-- end \1 -->", text, re.S)}


route_blocks = blocks(page, "route_doc.sh")
experiment_blocks = blocks(experiments, "experiments_doc.sh")

# What is not a quotation: fenced blocks, code spans, and citations of the notes.
NOT_QUOTED = [
    r"```.*?```",
    r"<!--.*?-->",
    r"`[^`]+`",
    r"(?<![\d.])\b00[0-4]\b(?!\.\d)",  # the notes' codes, 000 to 004
    r"§[\d.]+",
    r"\beqs?\.\s+[\d.]+(?:(?:-|,\s+|\s+and\s+|\s+to\s+)[\d.]+)*",
    r"\b[Tt]able\s+[\d.]+",
    r"\bFig\.\s+[\d.]+",
]
# A number, or a mean and its standard error (`2.183 +- 0.003`), which must appear together.
NUMBER = re.compile(r"(?<![\w.^/-])\d+(?:\.\d+)?%?(?:\s+\+-\s+\d+(?:\.\d+)?)?(?![\w])")


def prose(text):
    for pattern in NOT_QUOTED:
        text = re.sub(pattern, " ", text, flags=re.S)
    return text


def appears(number, source):
    parts = [re.escape(p.rstrip("%")) for p in re.split(r"\s+\+-\s+", number)]
    return re.search(r"(?<![\d.])" + r"%?\s+\+-\s+".join(parts) + r"(?![\d])", source) is not None


def is_small_count(number):
    """A whole number below 100 (4 epochs, 2 layers, 16 heads) says what was run, not what it gave."""
    return number.isdigit() and int(number) < 100


def line_of(offset):
    return page.count("\n", 0, offset) + 1


failures = []
answers = list(re.finditer(r"<details>.*?</details>", page, re.S))
steps = re.split(r"\n(?=## \d+\. )", page)[1:]
for step in steps:
    if step.count("<details>") < 3:
        failures.append(f"{page_path}: \"{step.splitlines()[0]}\" has {step.count('<details>')} exercises "
                        f"with a folded answer; the route asks at least three a step")
for answer in answers:
    text = answer.group(0)
    cited = {name: source for name, source in route_blocks.items()
             if f"<!-- route_doc.sh {name} -->" in text or re.search(rf'the run\s+"{name}"', text)}
    for name in re.findall(r'docs/experiments.md`?,\s+"([a-z0-9-]+)"', text):
        if name not in experiment_blocks:
            failures.append(f"{page_path}:{line_of(answer.start())}: cites docs/experiments.md, \"{name}\", which has no block")
        else:
            cited[name] = experiment_blocks[name]
    for name in re.findall(r'the run\s+"([a-z0-9-]+)"', text):
        if name not in route_blocks:
            failures.append(f"{page_path}:{line_of(answer.start())}: cites the run \"{name}\", which the page does not hold")
    source = "\n".join(cited.values())
    for number in NUMBER.findall(prose(text)):
        number = " ".join(number.split())
        if is_small_count(number):
            continue
        if not appears(number, source):
            where = ", ".join(sorted(cited)) or "no block"
            failures.append(f"{page_path}:{line_of(answer.start())}: the answer quotes {number}, which is not in "
                            f"the block it cites ({where})")

outside = re.sub(r"<details>.*?</details>", " ", page, flags=re.S)
for m in re.finditer(r"(?<![\w.^/-])\d+(?:\.\d+|%)(?![\w])", prose(outside)):
    failures.append(f"{page_path}: a result ({m.group(0)}) quoted outside an answer: move it into one, with its block")

for f in failures:
    print(f)
print(f"{len(steps)} steps, {len(answers)} answers, {len(route_blocks)} runs of the page, "
      f"{len(experiment_blocks)} experiment blocks; {len(failures)} failures")
sys.exit(1 if failures else 0)
