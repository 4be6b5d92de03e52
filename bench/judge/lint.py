"""The lint stage: Verilator's `--lint-only` on the text every other stage reads, and what it found.

Verilator catches what elaborates fine in Yosys and Icarus yet is usually a bug: operands of
different widths (`WIDTH`, `WIDTHEXPAND`, `WIDTHTRUNC`), inferred latches (`LATCH`), signals
driven from several blocks or both blocking and non-blocking (`MULTIDRIVEN`, `BLKANDNBLK`),
a delayed assignment in combinational logic (`COMBDLY`), an implicit net (`IMPLICIT`), an
incomplete or overlapping case (`CASEINCOMPLETE`, `CASEOVERLAP`), a select out of range
(`SELRANGE`), an unconnected port (`PINMISSING`). It runs with `-Wall`, so every warning is
recorded (its code, in the stage's `codes`, and the first lines in its detail), and the text
it reads has its comments blanked, so that a `/* verilator lint_off */` in a candidate cannot
silence it.

Whether a finding fails the candidate is the scorer's `lint` option, off by default, so that
verdicts stay comparable with the upstream harnesses (which have no lint stage): when on, a
Verilator error or a warning of `FAILING` fails the candidate with the result `lint`, unless
the task's own reference has one too (checked once per task), in which case the finding is
recorded and the candidate goes on: a rule the reference breaks is not one a candidate is held
to. Without Verilator (not installed, VERILATOR unset) the stage is left out while the option is
off, and is a tool failure when it is on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..verilog.lex import tokens

FAILING = frozenset({"ERROR", "WIDTH", "WIDTHEXPAND", "WIDTHTRUNC", "WIDTHXZEXPAND", "WIDTHCONCAT", "LATCH",
                     "MULTIDRIVEN", "BLKANDNBLK", "COMBDLY", "IMPLICIT", "CASEINCOMPLETE", "CASEOVERLAP",
                     "SELRANGE", "PINMISSING"})
SHOWN = 8  # findings quoted in the stage's detail
_FINDING = re.compile(r"^%(Warning|Error)(?:-([A-Z0-9_]+))?: (?:[^:\n]*?:(\d+):(?:\d+):)?\s*(.*)$")
LANGUAGES = {"verilog-2005": "1364-2005", "systemverilog": "1800-2017"}


@dataclass(frozen=True)
class Finding:
    code: str  # the warning's code, or ERROR
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{self.code}: {where}{self.message}"


def args(top: str, dialect: str, design: str) -> list[str]:
    return ["--lint-only", "-Wall", "-Wno-fatal", "-Wno-DECLFILENAME", "--no-timing", "--bbox-sys",
            "--default-language", LANGUAGES.get(dialect, "1800-2017"), "--top-module", top, design]


def blank_comments(text: str) -> str:
    """The text with every comment replaced by spaces (its newlines kept, so lines still match)."""
    return "".join(re.sub(r"[^\n]", " ", t.text) if t.kind == "comment" else t.text for t in tokens(text))


def findings(output: str) -> list[Finding]:
    out = []
    for line in output.splitlines():
        m = _FINDING.match(line)
        if not m:
            continue
        kind, code, where, message = m.groups()
        if kind == "Error" and message.startswith("Exiting due to"):
            continue
        code = code if code and kind == "Warning" else ("ERROR" if kind == "Error" else code or "WARNING")
        out.append(Finding(code, int(where) if where else None, message.strip()))
    return out


def failing(found: list[Finding]) -> list[Finding]:
    return [f for f in found if f.code in FAILING]


def codes(found: list[Finding]) -> set[str]:
    return {f.code for f in found}


def detail(found: list[Finding], failed: bool) -> str:
    if not found:
        return "no findings"
    head = ("Verilator's lint found (the `lint` option fails a design on these):" if failed
            else f"Verilator's lint: {len(found)} finding(s) (recorded; they do not fail the design):")
    shown = [f"  {f}" for f in found[:SHOWN]]
    more = [f"  ... and {len(found) - SHOWN} more"] if len(found) > SHOWN else []
    return "\n".join([head, *shown, *more])
