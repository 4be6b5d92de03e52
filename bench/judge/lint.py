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
import threading
from dataclasses import dataclass
from pathlib import Path

from ..verilog.lex import blank
from . import dialect
from .detail import DESIGN, short
from .results import StageResult
from .tasks import Task
from .tools import ToolMissing, find_tool

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


def stage(scorer, task: Task, work: Path) -> StageResult | None:
    """The lint stage of `scorer` (a `bench.judge.score.Scorer`) on the design in `work`; None when
    Verilator is missing and the lint option is off (then nothing depends on it)."""
    if not scorer.lint:
        try:
            find_tool("verilator")
        except ToolMissing:
            return None
    (work / "lint.v").write_text(blank((work / DESIGN).read_text(errors="replace")))
    res = scorer._run(task, "lint", "verilator", args(task.top, dialect.of(task).name, "lint.v"), work,
                      scorer.limits.tool_s)
    found = findings(res.output)
    if res.returncode != 0 and not any(f.code == "ERROR" for f in found):
        raise scorer._fail("lint", "verilator", res, "tool-failure",
                           f"verilator exited with status {res.returncode} without a finding:\n{short(res.output)}")
    failed = [f for f in failing(found) if f.code not in reference_codes(scorer, task)] if scorer.lint else []
    if failed:
        stopped = scorer._fail("lint", "verilator", res, "lint", detail(failed, True))
        stopped.stage.codes = [f.code for f in found]
        raise stopped
    record = scorer._record("lint", "verilator", res, "ok", detail(found, False))
    record.codes = [f.code for f in found]
    return record


def reference_codes(scorer, task: Task) -> set[str]:
    """The lint codes the task's reference has (a rule it breaks fails no candidate), once per task
    and scorer (the reference scored by a fresh scorer of the same class and limits)."""
    with scorer._lock:
        lock = scorer._locks.setdefault(f"{task.name} lint", threading.Lock())
    with lock:
        if task.name not in scorer._reference_lint:
            ref = type(scorer)(scorer.limits, check_reference=False, shadow=False)
            r = ref.score(task, "verilog", task.text("ref.v"))
            scorer._reference_lint[task.name] = {c for st in r.stages if st.stage == "lint" for c in st.codes}
    return scorer._reference_lint[task.name]
