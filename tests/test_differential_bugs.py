"""Known bugs found by the differential tests, each kept with a minimal reproducer.

Open bugs of the lowering (`KNOWN_BUGS`) run as xfail(strict=True) tests and carry a signature
by which the random Icarus test (tests/test_differential.py) counts their failures as
warnings; fixed ones (`FIXED_BUGS`) keep their reproducer as a regression test. A reproducer
passes when `sysr check` rejects the design or the Verilog agrees (the project's soundness
rule). The Amaranth back end's fixed bugs are `AMARANTH_FIXED_BUGS` (none is open).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

import amaranth_sim
from diff_prepare import Prepared, prepare
from gen_designs import Generated
from icarus_harness import harness_problems, needs_icarus
from sysr.evaluate import Evaluator
from sysr.pipeline import check


# ---- known bugs ---------------------------------------------------------------------------
#
# Each open bug these tests found: a minimal reproducer, run through the same harness and
# marked xfail(strict=True) (so the suite fails as soon as the bug is fixed: then move the
# entry to FIXED_BUGS), and a signature by which the random test sets aside, counts and reports
# (as warnings) the failures it causes instead of failing on every batch. Fixed bugs keep their
# reproducer as a regression test.

@dataclass(frozen=True)
class KnownBug:
    id: str
    reason: str  # file, construct, expected vs actual
    source: str  # the minimal reproducer
    signature: object = None  # failure report -> bool (open bugs only)


def comb_never_runs(report: str) -> bool:
    """Icarus says an always @* block has no sensitivities, or in the first cycle with an x a
    signal assigned in such a block is x."""
    if "found no sensitivities" in report:
        return True
    blocks = "\n".join(re.findall(r"^  always @\*.*?^  end$", report, re.M | re.S))
    first = re.search(r"^cycle (\d+): \S+: Icarus x/z", report, re.M)
    if first is None:
        return False
    xs = re.findall(rf"^cycle {first.group(1)}: ([\w\[\]]+): Icarus x/z", report, re.M)
    return any(re.search(rf"^\s*{re.escape(x)}(\[[^]]*\])? = ", blocks, re.M) for x in xs)


KNOWN_BUGS: list[KnownBug] = []  # none open; fixed ones are in FIXED_BUGS

FIXED_BUGS = [
    KnownBug(
        "shift-by-memory-word",
        "sysr/lower: `y = a >> m[3];` (m a memory) became `assign y = a >> m[3];`, which Icarus 11 "
        "compiles into a vvp file it cannot load (syntax error): no output at all",
        "module m(clk: clock, rst: reset, a: in u8, w: in u3, y: out u8) {\n  reg m: u3[8];\n"
        "  seq { m[w] <= w; }\n  y = a >> m[3];\n}\n"),
    KnownBug(
        "comb-never-runs",
        "sysr/lower: a comb block is lowered to `always @*`, which runs only when a signal it reads "
        "changes; when Icarus folds every read away (`comb { y = false; y = if false then a else "
        "false; }` becomes `always @* begin y = 1'b0; y = 1'b0 ? a : 1'b0; end`: 'found no "
        "sensitivities'), the block never runs and y stays x in simulation, 0 in sysr. Folding more "
        "constants in the lowering fixed the earlier reproducers (`FIXED_BUGS` comb-*), but Icarus "
        "folds more (constant `?:` and `==` conditions, matches on constants); expected a lowering "
        "that is evaluated at time 0 whatever it reads (e.g. a function called from a continuous "
        "assignment)",
        "module m(a: in bool, y: out bool) {\n  comb { y = false; y = if false then a else false; }\n}\n"),
    KnownBug(
        "signed-shift-fold",
        "sysr/lower/expr.py (e_Binary, sign_fill): a signed `>>` of a constant by the width or more "
        "is folded wrongly: `((-1s7) >> 13u7) as u8` is 255 in sysr (the sign fills), but the "
        "lowering emits `assign y = 8'dNone;` (a syntax error; an earlier version folded it to 0, "
        "taking the other branch of an `if`); expected 8'd255",
        "module m(a: in bool, y: out u8) {\n  comb { y = 1; y = ((-1s7) >> 13u7) as u8; }\n}\n"),
    KnownBug(
        "logic-name",
        "sysr/lower/names.py: a signal named `logic` was emitted unescaped; iverilog -g2005 "
        "reserves `logic` and rejected the module",
        "module m(logic: in bool, y: out bool) { y = logic; }\n"),
    KnownBug(
        "comb-reads-own-output",
        "sysr/lower: `comb { y = match a { _ => 8 }; y = y; }` became `always @* begin y = 8'd8; "
        "y = y; end`, which never runs in Icarus (it reads only what it assigns): y was x, not 8",
        "module m(a: in u4, y: out u8) {\n  comb { y = match a { _ => 8 }; y = y; }\n}\n"),
    KnownBug(
        "comb-folded-reads",
        "sysr/lower: `comb { z = x >> 3; }` (x: bool) became `always @* z = x >> 3;`, which Icarus "
        "folds to a block with no sensitivities that never runs: z was x, not 0",
        "module m(x: in bool, z: out bool) {\n  comb { z = x >> 3; }\n}\n"),
    KnownBug(
        "case-signedness",
        "sysr/lower: a match statement on `a >> k` (a: s8) became `case ($signed(a) >>> k)` with "
        "unsigned items, so Verilog shifted in zeros: a = -128, k = 8 matched 0",
        "module m(a: in s8, k: in u4, y: out bool) {\n"
        "  comb { match a >> k { 0 => { y = true; }, _ => { y = false; } } }\n}\n"),
    KnownBug(
        "unsized-localparam",
        "sysr/lower: `const C: bool = -(true * true);` became `localparam C = -(1'b1 * 1'b1);`, "
        "which Icarus sizes as 2 bits, so `x - C` was true for x = 1",
        "const C: bool = -(true * true);\n"
        "module m(x: in bool, y: out bool) {\n  y = if x - C then true else false;\n}\n"),
    KnownBug(
        "const-popcount-crash",
        "sysr/lower/ir.py: `const C: u3 = popcount(12s6);` made `lower` raise KeyError",
        "const C: u3 = popcount(12s6);\nmodule m(a: in bool, y: out bool) {\n  y = a;\n}\n"),
    KnownBug(
        "negated-signed-division-condition",
        "sysr/lower/stmt.py (if_): an `if` whose condition is a signed `/`, `%` or `>>` (here through "
        "`popcount` of one bit) and whose `then` is empty became `if (!$signed(a[0]) % $signed(...))`: "
        "the condition's text without its braces was taken as atomic, so `!` bound to the left operand "
        "alone; `ensures !y` was proven and the Verilog gave y = 1 for an even a (seed 35018 of a 2,000-design differential run)",
        "module m(a: in u4, b: in u4, y: out bool) {\n"
        "  comb { y = true; if popcount((a as s1) % ((b | 1) as s1)) { } else { y = false; } }\n  ensures !y;\n}\n"),
]


def known_bug(report: str) -> str | None:
    return next((b.id for b in KNOWN_BUGS if b.signature(report)), None)


@needs_icarus
@pytest.mark.parametrize("bug", [pytest.param(b, id=b.id, marks=pytest.mark.xfail(strict=True, reason=b.reason))
                                 for b in KNOWN_BUGS] + [pytest.param(b, id=b.id) for b in FIXED_BUGS])
def test_bug_reproducer(bug):
    problems = soundness_problems(bug.source, 24)
    assert not problems, bug.reason + "\n" + "\n".join(problems)


def soundness_problems(source: str, n_cycles: int) -> list[str]:
    """The project's rule for one design: if `sysr check` accepts it (its properties proven),
    the lowered Verilog must agree with the evaluator; a rejected design promises nothing."""
    if not check(source).accepted:
        return []
    return harness_problems(source, n_cycles)


# Bugs of the Amaranth back end that the random designs found, each kept as a regression test
# (its reproducer through the same harness, in both reset modes).
@dataclass(frozen=True)
class AmaranthBug:
    id: str
    reason: str
    source: str  # the minimal reproducer
    inputs: tuple = ()  # cycles of inputs that show it (after these, random ones)


AMARANTH_FIXED_BUGS = [
    AmaranthBug(
        "match-on-a-narrowed-value",
        "sysr/amaranth/exprs.py (bit_write): the chain of a `match` on `a as u2` with a bool result "
        "(`if a as u2 == 0 then false else ...`) was taken for a one-bit dynamic write, index `a` "
        "(the cast dropped): y was 0 where sysr says a9",
        "module m(a8: in u51, a9: in u27, a10: in bool, w18: out u31) {\n"
        "  w18 = if (match (a8 as u2) { 0 => false, 2 => false, 3 => false, _ => a10 }) then 0 else (a9 as u31);\n}\n",
        ({"a8": 4, "a9": 0x1300cf, "a10": 1}, {"a8": 5, "a9": 7, "a10": 1})),
    AmaranthBug(
        "held-register-steps-at-an-asynchronous-reset",
        "sysr/amaranth/component.py: Amaranth's simulator (0.5) runs an asynchronous domain's "
        "process at its reset's rising edge too, reset-less signals included, with comb signals "
        "not yet settled; a register without a reset value held by a mux on a comb signal of the "
        "reset took its next value there (its RTLIL `$dff` does not). Its hold now reads "
        "ResetSignal(domain) itself, so that step leaves it alone",
        "module m(clk: clock, arst_n: areset_n, a: in u8, q: out reg u8, p: out reg u8 initial 9) {\n"
        "  seq { q <= a; p <= a + 1; }\n}\n",
        ({"arst_n": 0, "a": 5}, {"arst_n": 1, "a": 6}, {"arst_n": 0, "a": 7})),
]


@pytest.mark.parametrize("reset", ["domain", "port"])
@pytest.mark.parametrize("bug", AMARANTH_FIXED_BUGS, ids=lambda b: b.id)
def test_amaranth_bug_reproducer(bug, reset):
    amaranth_reproduces(bug, reset)


def amaranth_reproduces(bug: "AmaranthBug", reset: str) -> None:
    """The bug's inputs, then random ones, through the Amaranth component against the evaluator."""
    prep = prepare(Generated(bug.source, "m"), 5, 24)
    inputs = [dict(row) for row in bug.inputs] + prep.inputs[len(bug.inputs):]
    prep = Prepared(prep.gen, prep.system, inputs, Evaluator(prep.system).run(inputs))
    case = amaranth_sim.make_case(prep, 0, reset)
    problems = amaranth_sim.disagreements(case, amaranth_sim.simulate([case], 24))
    assert not problems, bug.reason + "\n" + "\n".join(problems)
