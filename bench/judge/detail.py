"""What a model or a person is shown of a tool's output: bounded, and nothing of the hidden files.

The hidden testbench (tb.v) and reference (ref.v) never reach a detail: Yosys only ever sees the
candidate; of iverilog's messages only those about the candidate's file (`design.v`) and its
summary lines are kept (a message about tb.v is counted, not shown); of a simulation only the
testbench's verdict line is passed on, cut at `VERDICT_CHARS`. Every detail is cut at
`DETAIL_LINES` lines and `DETAIL_CHARS` characters.

`as_received` makes any text a model sent safe to store and to write to a file: a lone
surrogate (from a JSON escape such as "\\ud800") or other unencodable character becomes U+FFFD,
everything else is kept as it came.
"""

from __future__ import annotations

import re

DETAIL_LINES = 40
DETAIL_CHARS = 4000
VERDICT_CHARS = 500
LINE_CHARS = 300
DESIGN = "design.v"  # the candidate's (preprocessed) file, in every stage

# iverilog's summary lines, which name no file.
_SUMMARY = re.compile(r"^(\d+ error\(s\) during elaboration\.|Elaboration failed|I give up\.|"
                      r"\d+ error\(s\) in post-elaboration processing\.)$")


def as_received(text: str) -> str:
    """The text with what UTF-8 cannot encode (lone surrogates) replaced by U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def short(text: str, lines: int = DETAIL_LINES) -> str:
    """The first lines of a text, each and all cut to size."""
    kept = [_cut(line, LINE_CHARS) for line in text.strip().splitlines()[:lines]]
    return _cut("\n".join(kept), DETAIL_CHARS)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + " [...]"


def about_design(output: str) -> str:
    """iverilog's messages about the candidate's file only, with a count of the others."""
    kept, hidden = [], 0
    for line in output.strip().splitlines():
        line = line.rstrip()
        if line.startswith(DESIGN + ":") or _SUMMARY.match(line):
            kept.append(line)
        elif line:
            hidden += 1
    if hidden:
        kept.append(f"({hidden} message line(s) about the hidden testbench not shown)")
    return short("\n".join(kept))


def yosys_errors(log: str) -> str:
    """Yosys's error lines, or the start of its log when it has none (Yosys only sees the candidate)."""
    lines = [line for line in log.splitlines() if "error" in line.lower()]
    return short("\n".join(lines) if lines else log)


def sim_output(output: str, lines: int = 10) -> str:
    """What vvp said besides a verdict (its own warnings), without lines that name the testbench."""
    kept = [line for line in output.strip().splitlines() if line.strip() and "tb.v" not in line]
    return short("\n".join(kept), lines)


def verdict_line(line: str) -> str:
    return _cut(line, VERDICT_CHARS)
