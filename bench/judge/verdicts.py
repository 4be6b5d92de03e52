"""How a testbench states its verdict, and how the scorer makes that verdict unforgeable.

Three styles (a task's `verdict.style`, `bench.judge.tasks.Verdict`):

- `pass-fail`, this project's testbenches: `PASS`, or `FAIL cycle N: ...` at the first mismatch
  (`bench.judge.simulate`);
- `mismatches`, VerilogEval v2's and most of ChipBench's: a `final` block prints
  `Mismatches: X in Y samples`; the design passes when X is 0 and Y is not;
- `hint`, ChipBench's CPU-IP testbenches: `Hint: No mismatched samples.`, or
  `Hint: Total mismatched samples is X out of Y samples.`, passing when X is 0;
- `rtllm`, RTLLM's self-checking testbenches: the design passes when the testbench prints its
  pass line (`Your Design Passed`), as upstream's script reads it; any other ending is a
  failure, shown with the testbench's lines that say what failed.

In the upstream styles the testbench also prints `Hint: Output 'o' has N mismatches...` lines,
passed on with a failing verdict (they name only the design's outputs), and `TIMEOUT` when its
own time limit ends the simulation before its stimulus does: a failure, as in the upstream
harness, unless the task says that its stimulus outlasts that limit for every design
(`timeout_fails: false`, set at import when the reference itself reaches it).

Every verdict string of the testbench is rewritten to carry the run's nonce (`Mismatches#<nonce>:`,
`Hint#<nonce>:`, `TIMEOUT#<nonce>`), and only lines with the nonce are read, so a design that
printed `Mismatches: 0 in 1 samples` (past the guard, which allows no printing) would not pass:
the same wall as `bench.judge.simulate`'s for `PASS`.

A passing verdict also says what it counts (`Reading.count`): the samples of `Mismatches: 0 in Y
samples` or `Total mismatched samples is 0 out of Y`, and for `Hint: No mismatched samples.`,
which has no count, the simulation time at which it was printed (the rewrite adds `$time` to
that line). The scorer compares it with the count of the task's reference's own run
(`Scorer._reference_count`): a design that ends the simulation early (a `$finish` that got past
every wall) prints a verdict with fewer samples, and fails (`wrong-output`). RTLLM's pass line
counts nothing: its testbench prints it only after all its own checks, so a simulation ended
early has none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import simulate
from .detail import short, verdict_line
from .tasks import Verdict

HINT_LINES = 12  # of an upstream testbench's per-output hints, passed on with a failure


@dataclass(frozen=True)
class Reading:
    passed: bool
    line: str  # the failing verdict and its hints, or what the passing verdict said
    count: str = ""  # what a passing upstream verdict counts: "N samples", or "time T"


def nonced(tb: str, nonce: str, verdict: Verdict) -> str:
    """The testbench with its verdict strings carrying the nonce."""
    if verdict.style == "pass-fail":
        return simulate.nonced(tb, nonce)
    if verdict.style == "rtllm":
        return tb.replace(RTLLM_PASS, f"{RTLLM_PASS}#{nonce}")
    return (tb.replace(f'"{NO_MISMATCH}"', f'"Hint#{nonce}: {NO_MISMATCH[6:]} (at %0t)", $time')
            .replace('"Mismatches: ', f'"Mismatches#{nonce}: ').replace('"Hint: ', f'"Hint#{nonce}: ')
            .replace('"TIMEOUT"', f'"TIMEOUT#{nonce}"'))


def read(stdout: str, nonce: str, verdict: Verdict) -> Reading | None:
    """What the testbench decided, from the lines with the nonce only; None without a verdict."""
    if verdict.style == "pass-fail":
        first = simulate.verdict(stdout, nonce)
        return None if first is None else Reading(first == "PASS", "" if first == "PASS" else first)
    if verdict.style == "rtllm":
        return _rtllm(stdout, nonce)
    mine = [line.replace(f"#{nonce}", "", 1) for line in stdout.splitlines() if f"#{nonce}" in line.split(" ", 1)[0]]
    hints = [line for line in mine if line.startswith("Hint: Output ") and "has no mismatches" not in line]
    found = _mismatches(mine) if verdict.style == "mismatches" else _hint(mine)
    if found is None:
        return None
    errors, samples, line, count = found
    if "TIMEOUT" in mine and verdict.timeout_fails:
        return Reading(False, _with(f"{TIMEOUT} the testbench's own time limit ended the simulation before its "
                                    f"stimulus did ({line})", hints))
    if errors:
        return Reading(False, _with(line, hints))
    if samples == 0:
        return Reading(False, f"{line}: the testbench compared no samples")
    return Reading(True, line, count)


NO_MISMATCH = "Hint: No mismatched samples."
TIMEOUT = "TIMEOUT:"
_CLEAN = re.compile(r"\((Mismatches: 0 in \d+ samples|Hint: No mismatched samples\.|"
                    r"Hint: Total mismatched samples is 0 out of \d+ samples\.?)\)$")


def timed_out_clean(detail: str) -> bool:
    """Whether a failure is the testbench's TIMEOUT alone, with no mismatch before it."""
    first = detail.splitlines()[0] if detail else ""
    return first.startswith(TIMEOUT) and _CLEAN.search(first) is not None


_MISMATCHES = re.compile(r"Mismatches: (\d+) in (\d+) samples")
_TOTAL = re.compile(r"Hint: Total mismatched samples is (\d+) out of (\d+) samples\.?")


_AT = re.compile(re.escape(NO_MISMATCH) + r"(?: \(at (\d+)\))?")


def _mismatches(lines: list[str]) -> tuple[int, int | None, str, str] | None:
    for line in lines:
        if m := _MISMATCHES.fullmatch(line.strip()):
            return int(m.group(1)), int(m.group(2)), m.group(0), f"{m.group(2)} samples"
    return None


def _hint(lines: list[str]) -> tuple[int, int | None, str, str] | None:
    for line in lines:
        text = line.strip()
        if m := _AT.fullmatch(text):
            return 0, None, NO_MISMATCH, f"time {m.group(1)}" if m.group(1) else "no count"
        if m := _TOTAL.fullmatch(text):
            return int(m.group(1)), int(m.group(2)), m.group(0), f"{m.group(2)} samples"
    return None


RTLLM_PASS = "Your Design Passed"
RTLLM_LINES = 8  # of the testbench's own lines about a failure, passed on with it


def _rtllm(stdout: str, nonce: str) -> Reading:
    if any(f"{RTLLM_PASS}#{nonce}" in line for line in stdout.splitlines()):
        return Reading(True, RTLLM_PASS)
    said = [line.strip() for line in stdout.splitlines()
            if any(w in line.lower() for w in ("fail", "error", "mismatch", "expected", "wrong"))]
    head = "the testbench did not print its pass line (`Your Design Passed`)"
    return Reading(False, verdict_line(head) + ("\n" + short("\n".join(said), RTLLM_LINES) if said else ""))


def _with(line: str, hints: list[str]) -> str:
    return verdict_line(line) + ("\n" + short("\n".join(hints), HINT_LINES) if hints else "")
