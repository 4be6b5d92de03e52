"""Differential tests of several clocks and both edges (reference §4.10): the evaluator, the z3
encoding and the lowered Verilog under Icarus agree on designs with two clocks, falling edges and
a clock read as a value, and the Icarus harness notices a lowering that gets an edge wrong.

The random designs of tests/test_differential.py include such designs (tests/gen_clocks.py
rewrites about a third of the clocked ones); the tests here pin what the generator makes, run
the hand-written designs of tests/verify through the harness, and corrupt their Verilog.
Amaranth's simulator on the same designs, each clock driven as the evaluator steps it:
tests/test_amaranth_domains.py (and the random designs of tests/test_differential_amaranth.py).
Some two-clock designs have a reset per domain (`seq(clk2, rst2)`), and the harness notices a
block lowered on the wrong one; the Amaranth back end builds one reset and says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from diff_prepare import prepare
from gen_base import Generated
from gen_designs import design_from_seed
from icarus_harness import compare, lower_case, needs_icarus, simulate
from z3_harness import z3_disagreements

VERIFY = Path(__file__).parent / "verify"


def test_the_generator_makes_designs_with_several_clocks_and_edges():
    texts = [design_from_seed(s).text for s in range(1000, 1200)]
    assert sum("clk2: clock" in t for t in texts) >= 10
    assert sum("seq(falling clk)" in t and "seq(clk)" in t and "yck = clk != rck;" in t for t in texts) >= 5
    assert sum("seq(falling clk)" in t and "seq(clk)" not in t and "yck" not in t for t in texts) >= 5
    assert all("seq(" not in design_from_seed(s, clocks=False).text for s in range(1000, 1050))
    two = [t for t in texts if "rst2: " in t]
    assert len(two) >= 5 and sum(bool(re.search(r"seq\((falling )?clk2, rst2\)", t)) for t in two) >= 5


def design(name: str) -> Generated:
    text = (VERIFY / f"{name}.sysr").read_text()
    module = text.split("module ", 1)[1].split("(", 1)[0].strip()
    return Generated(text, module)


CLOCKED = ["dualedge", "falling_edge", "pulse_sync", "pulse_lost", "../seeded/async_fifo_resets",
           "../cases/good/resets_per_domain"]


@pytest.mark.parametrize("name", CLOCKED)
def test_z3_agrees_on_the_clocked_designs(name):
    prep = prepare(design(name), 3, 30)
    assert z3_disagreements(prep) == []


CORRUPTIONS = {  # design -> (the lowered Verilog made wrong, the probe that must disagree)
    "dualedge": (lambda v: v.replace("negedge clk", "posedge clk"), "q: Icarus"),
    "falling_edge": (lambda v: v.replace("negedge clk", "posedge clk"), "q: Icarus"),
    "pulse_sync": (lambda v: v.replace("posedge slow", "posedge fast"), "out: Icarus"),
    "../cases/good/resets_per_domain": (lambda v: v.replace("if (rrst)", "if (!wrst_n)"), "b: Icarus"),
}


@needs_icarus
@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_icarus_agrees_and_notices_a_wrong_edge(name):
    corrupt, expected = CORRUPTIONS[name]
    prep = prepare(design(name), 11, 40)
    clean, bad = lower_case(prep, 0, None), lower_case(prep, 1, None, corrupt=corrupt)
    assert bad.verilog != clean.verilog.replace("_d0", "_d1"), "the corruption did not apply"
    result = simulate([clean, bad], 40)
    assert compare(clean, result) == []
    problems = compare(bad, result)
    assert any(expected in p for p in problems), problems
