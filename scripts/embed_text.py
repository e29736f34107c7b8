#!/usr/bin/env python3
"""embed_text.py OUT NAMESPACE NAME=FILE...: text files as C++ constants, for a page kept in files
of its own (lectern/plot/attention_page/) that the library carries in its binary.

OUT becomes a header that defines in NAMESPACE, for each NAME=FILE, `inline constexpr
std::string_view NAME`, holding FILE's bytes exactly: one string literal a line, so that the header reads
as the file does, with '\\', '"' and control or non-ASCII bytes escaped (the latter as
three-digit octal, which, unlike \\x, cannot swallow a digit that follows)."""
import sys


def literal(line: bytes) -> str:
    out = []
    for b in line:
        c = chr(b)
        if c == "\\" or c == '"':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif 0x20 <= b < 0x7F:
            out.append(c)
        else:
            out.append("\\%03o" % b)
    return '"' + "".join(out) + '"'


def main(argv):
    if len(argv) < 4 or any("=" not in a for a in argv[3:]):
        sys.exit("usage: embed_text.py OUT NAMESPACE NAME=FILE...")
    out = ["// Written by scripts/embed_text.py at build time from the files named below; edit those.",
           "#pragma once", "#include <string_view>", "", "namespace " + argv[2] + " {", ""]
    for pair in argv[3:]:
        name, path = pair.split("=", 1)
        with open(path, "rb") as f:
            data = f.read()
        lines = data.splitlines(keepends=True) or [b""]
        out.append("// " + path)
        out.append("inline constexpr std::string_view " + name + " =")
        out.extend("    " + literal(line) for line in lines)
        out[-1] += ";"
        out.append("")
    out.append("}  // namespace " + argv[2])
    out.append("")
    with open(argv[1], "w", encoding="ascii") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main(sys.argv)
