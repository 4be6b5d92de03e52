"""What a model or a person is shown of a tool's output: bounded, and nothing of the hidden files.

The hidden testbench (tb.v) and reference (ref.v) never reach a detail: Yosys only ever sees the
candidate; iverilog's messages are shown whole from the compile of the candidate alone, and of
the compile with the testbench only counted (`with_testbench`); of a simulation only the
testbench's verdict line is passed on, cut at `VERDICT_CHARS`. Every detail is cut at
`DETAIL_LINES` lines and `DETAIL_CHARS` characters.

`as_received` makes any text a model sent safe to store and to write to a file: a lone
surrogate (from a JSON escape such as "\\ud800") or other unencodable character becomes U+FFFD,
everything else is kept as it came.
"""

from __future__ import annotations

DETAIL_LINES = 40
DETAIL_CHARS = 4000
VERDICT_CHARS = 500
LINE_CHARS = 300
DESIGN = "design.v"  # the candidate's (preprocessed) file, in every stage

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


def with_testbench(output: str) -> str:
    """What is shown when the design compiled alone but not with the hidden testbench: not one of
    iverilog's lines (each may name the testbench's modules, tasks, their arguments, `tb.dut`),
    only how many there were."""
    lines = sum(1 for line in output.splitlines() if line.strip())
    return (f"the design compiles alone but not with the task's testbench ({lines} message line(s) not shown: "
            "they are about the hidden testbench). A module of the design may be named like one of the "
            "testbench's (only the task's top module and its submodules belong in a design)")


def yosys_errors(log: str) -> str:
    """Yosys's error lines, or the start of its log when it has none (Yosys only sees the candidate)."""
    lines = [line for line in log.splitlines() if "error" in line.lower()]
    return short("\n".join(lines) if lines else log)


def sim_output(output: str, lines: int = 10) -> str:
    """What vvp said besides a verdict (its own warnings), without lines that name the testbench
    (its file, tb.v, or a scope of it: `tb.dut`, `tb.stim1`)."""
    kept = [line for line in output.strip().splitlines() if line.strip() and "tb." not in line]
    return short("\n".join(kept), lines)


def verdict_line(line: str) -> str:
    return _cut(line, VERDICT_CHARS)
