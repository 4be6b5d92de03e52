"""Take the design out of a model's reply: the fenced code block that holds the file.

The last block tagged with the condition's language wins (`sysr`; `verilog`, `v`, `sv` or
`systemverilog`); failing that, the longest fenced block of any tag. No block: None, which the
loop records as `no-code`.

A block opens on a line of three or more backticks (or tildes) and an optional tag, and closes at
the first later line holding only as many of the same character; an opening fence longer than
every later closing line may close at a shorter one (then it has no tag). Found in one pass over
the lines and one lookup per opening line, so the time is linear in the reply's size whatever it
holds (a regular expression doing the same took minutes on 75,000 fences that never close).

What a model sent is made safe to store by `bench.judge.detail.as_received`.
"""

from __future__ import annotations

import bisect
import re

_OPEN = re.compile(r"[ \t]*(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*")
_CLOSE = re.compile(r"[ \t]*(`{3,}|~{3,})[ \t]*")
TAGS = {"sysr": {"sysr"}, "verilog": {"verilog", "v", "sv", "systemverilog"}}


def extract_code(reply: str, lang: str) -> str | None:
    found = blocks(reply)
    tagged = [body for tag, body in found if tag in TAGS[lang]]
    if tagged:
        return tagged[-1]
    if found:
        return max((body for _, body in found), key=len)
    return None


def blocks(reply: str) -> list[tuple[str, str]]:
    """Every fenced block of the reply as (tag in lower case, body with its last newline), in order."""
    lines = reply.split("\n")
    starts, closers = [], {}  # where each line starts; each closing fence -> the lines that are it
    pos = 0
    for n, line in enumerate(lines):
        starts.append(pos)
        pos += len(line) + 1
        if m := _CLOSE.fullmatch(line):
            closers.setdefault(m.group(1), []).append(n)
    out = []
    i = 0
    while i < len(lines) - 1:
        close = None
        if m := _OPEN.fullmatch(lines[i]):
            fence = m.group(1)
            for width in range(len(fence), 2, -1):  # at most the opening line's length: linear
                at = closers.get(fence[:width], ())
                k = bisect.bisect_right(at, i)
                if k < len(at):
                    close = at[k]
                    break
        if close is None:
            i += 1
            continue
        tag = m.group(2).lower() if width == len(fence) else ""
        out.append((tag, reply[starts[i + 1]:starts[close]]))
        i = close + 1
    return out
