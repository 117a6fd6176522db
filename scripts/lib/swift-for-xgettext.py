#!/usr/bin/python3
"""Rewrites a Swift file so that xgettext's C parser reads its marked strings as Swift means them.

xgettext 0.21 has no Swift parser; its C one reads a one-line Swift literal ("…" without \\( ) the
same. Swift's multi-line literals (\"\"\" … \"\"\") are what C lacks: each becomes one C literal with
the value Swift gives it — the closing delimiter's indentation taken off every line, the newline
before the closing delimiter dropped, a line ending in a backslash joined to the next, \\u{…} written
out — on its opening line, and its other lines blank, so line numbers stay. Unmarked ones are
rewritten alike: left as they are, their apostrophes would read to C as broken character literals.

Usage: swift-for-xgettext.py SOURCE > COPY      (make pot runs it on every file it reads)
"""
import re
import sys

DELIMITER = '"""'
UNICODE_ESCAPE = re.compile(r'\\u\{([0-9A-Fa-f]{1,8})\}')


def c_literal(lines, indentation):
    """The C literal for a multi-line literal's content lines, closed at `indentation`."""
    value = ""
    for number, line in enumerate(lines):
        text = line[len(indentation):] if line.startswith(indentation) else line.lstrip(" \t")
        trailing_backslashes = len(text) - len(text.rstrip("\\"))
        if trailing_backslashes % 2 == 1:
            value += text[:-1]
        else:
            value += text + ("\\n" if number < len(lines) - 1 else "")
    value = UNICODE_ESCAPE.sub(lambda match: chr(int(match.group(1), 16)), value)
    # An unescaped quote is allowed inside Swift's multi-line literal, not inside C's.
    value = re.sub(r'(?<!\\)((?:\\\\)*)"', r'\1\\"', value)
    return '"' + value + '"'


def rewritten(source_lines):
    out = []
    index = 0
    while index < len(source_lines):
        line = source_lines[index]
        start = line.find(DELIMITER)
        if start < 0 or line.count(DELIMITER) != 1:
            out.append(line)
            index += 1
            continue
        closing = index + 1
        while closing < len(source_lines) and not source_lines[closing].lstrip().startswith(DELIMITER):
            closing += 1
        if closing == len(source_lines):
            sys.exit(f"swift-for-xgettext: line {index + 1}: a multi-line literal that never closes")
        closing_line = source_lines[closing]
        indentation = closing_line[:len(closing_line) - len(closing_line.lstrip())]
        content = source_lines[index + 1:closing]
        after = closing_line.lstrip()[len(DELIMITER):]
        out.append(line[:start] + c_literal(content, indentation) + after)
        out.extend([""] * (closing - index))
        index = closing + 1
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1], encoding="utf-8") as source:
        lines = source.read().split("\n")
    sys.stdout.write("\n".join(rewritten(lines)))


if __name__ == "__main__":
    main()
