"""Differential tests: what the prover reasons about must be what the simulator runs.

Four semantics of every generated design (tests/gen_designs.py) must agree cycle by cycle:

1. the concrete evaluator (`sysr.evaluate`), the reference;
2. the z3 encoding (`sysr.smt.encode`), the meaning the proofs use: each cycle's comb values,
   property values and next state, with the evaluator's state and inputs substituted in, must
   simplify to the evaluator's numbers; and the constraints of the prover's own unrolling
   (`Unrolling.init` and `.transition`) must hold on the evaluator's run;
3. the lowered Verilog (`sysr.lower`) simulated by Icarus: many designs are batched into one
   testbench (one compile and one run for 50-100 designs), each driven by its own inputs, and
   every output (and every wire, register and memory the lowering kept by name, through
   hierarchical references) is compared with the evaluator's each cycle. An asynchronous reset
   changes between clock edges (at the falling edge, or for every other design at a time that
   is neither edge), and the values are sampled before the next rising edge, so that a
   register the reset clears must already read as its reset value.
4. the design built as an Amaranth component (`sysr.amaranth`) and run by Amaranth's
   simulator (tests/amaranth_sim.py), in both reset mappings: every output, register, wire
   and memory word compared with the evaluator's each cycle.

Any disagreement is a soundness bug: the report prints the design (and its seed), the cycle,
the signal, both values, the inputs and the lowered Verilog. Open and fixed bugs, each with a
minimal reproducer, are listed in tests/test_differential_bugs.py. The tests below corrupt the
lowered Verilog and the encoder on purpose, to show that the harness notices (those of the
Amaranth back end are in tests/test_differential_amaranth.py).

This file holds the z3 and Icarus tests; the harnesses are tests/diff_prepare.py (design,
stimulus, reference run), tests/z3_harness.py, tests/icarus_harness.py and tests/amaranth_sim.py.

`SYSR_DIFF_DESIGNS` sets how many designs the Icarus test runs (default 300, in batches of
`SYSR_DIFF_BATCH`), `SYSR_Z3_DESIGNS` how many the z3 test runs (default 200),
`SYSR_AMARANTH_DESIGNS` how many the Amaranth test runs (default 40, in
tests/test_differential_amaranth.py);
benchmarks/differential_long.py runs thousands, prints figures and shrinks failing designs.
"""


from __future__ import annotations

import os
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import icarus_harness
from diff_prepare import Prepared, prepare, report
from gen_designs import Generated, designs
from icarus_harness import (SIM_BATCH, SIM_CYCLES, SIM_DESIGNS, SIM_SEED, compare, gated_clock, harness_problems,
                            lower_case, mid_cycle_reset, needs_icarus, run_differential, simulate)
from sysr import elab as E
from sysr.evaluate import Evaluator
from sysr.smt.encode import CycleEncoder
from sysr.smt.prove import Unrolling
from test_differential_bugs import known_bug
from z3_harness import Z3_CYCLES, unrolling_disagreements, z3_disagreements

Z3_DESIGNS = int(os.environ.get("SYSR_Z3_DESIGNS", "200"))



# ---- z3 vs evaluator ----------------------------------------------------------------------

Z3_SETTINGS = settings(max_examples=Z3_DESIGNS, deadline=None, derandomize=True, database=None,
                       suppress_health_check=list(HealthCheck))


@Z3_SETTINGS
@given(gen=designs(), seed=st.integers(0, 2**32 - 1))
def test_z3_matches_evaluator(gen, seed):
    prep = prepare(gen, seed, Z3_CYCLES)
    problems = z3_disagreements(prep) or unrolling_disagreements(prep)
    assert not problems, report(prep, problems)


# ---- Icarus vs evaluator (the harness: tests/icarus_harness.py) --------------------------

@needs_icarus
def test_icarus_matches_evaluator():
    figures = run_differential(SIM_DESIGNS, SIM_BATCH, SIM_CYCLES, SIM_SEED)
    assert figures.designs == SIM_DESIGNS
    known = [(known_bug(f), f) for f in figures.failures]
    for bug in sorted({k for k, _ in known if k}):
        warnings.warn(f"{sum(k == bug for k, _ in known)} designs hit the known bug `{bug}`")
    new = [f for k, f in known if k is None]
    assert not new, f"{len(new)} designs disagree:\n\n" + "\n\n".join(new[:5])


# ---- the harness can fail -----------------------------------------------------------------

CORRUPTIBLE = """module m(clk: clock, rst: reset, a: in u8, b: in u8, y: out u8, q: out reg u8 = 7) {
  y = a + b;
  seq { q <= q ^ a; }
}
"""
CORRUPTIONS = {
    "plus-to-minus": (lambda v: v.replace("a + b", "a - b"), "y: Icarus"),
    "reset-value": (lambda v: v.replace("8'd7", "8'd6"), "q: Icarus"),
    "reset-ignored": (lambda v: v.replace("if (rst)", "if (1'b0)"), "q: Icarus x/z"),
    "port-width": (lambda v: v.replace("input wire [7:0] b", "input wire [6:0] b"), "iverilog warning"),
    "port-order": (lambda v: v.replace("[7:0] a,", "[7:0] TMP,").replace("[7:0] b,", "[7:0] a,")
                   .replace("[7:0] TMP,", "[7:0] b,"), "q: Icarus"),
}


@needs_icarus
@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_harness_reports_corrupted_verilog(name):
    corrupt, expected = CORRUPTIONS[name]
    prep = prepare(Generated(CORRUPTIBLE, "m"), 5, 12)
    clean, bad = lower_case(prep, 0, None), lower_case(prep, 1, None, corrupt=corrupt)
    assert bad.verilog != clean.verilog.replace("m_d0", "m_d1"), "the corruption did not apply"
    result = simulate([clean, bad], 12)
    assert compare(clean, result) == []
    problems = compare(bad, result)
    assert any(expected in p for p in problems), problems


SIGNED_OVERFLOW = "module m({ports}) {{\n{body}}}\n"


@needs_icarus
def test_signed_division_overflow_agrees_at_every_width():
    """`MIN / -1` (MIN) and `MIN % -1` (0), with the dividend MIN in about half the cycles and the
    divisor -1 in all of them (`b | -1` is not a constant), at widths where Icarus uses machine
    words and where it does not; plus `-7 / 2` style truncation on the other cycles."""
    widths = (8, 64, 65, 128, 256)
    ports = ", ".join(f"a{w}: in s{w}, b{w}: in s{w}, q{w}: out s{w}, r{w}: out s{w}, t{w}: out s{w}"
                      for w in widths)
    body = "".join(f"  q{w} = (a{w} & (-{1 << (w - 1)})) / (b{w} | -1);\n"
                   f"  r{w} = (a{w} & (-{1 << (w - 1)})) % (b{w} | -1);\n"
                   f"  t{w} = if b{w} != 0 then a{w} / b{w} + a{w} % b{w} else 0;\n" for w in widths)
    problems = harness_problems(SIGNED_OVERFLOW.format(ports=ports, body=body), 24)
    assert not problems, problems


ASYNC_COUNTER = """module m(clk: clock, arst_n: areset_n, en: in bool, c: out reg u4 = 3) {
  seq { if en { c <= c + 1; } }
}
"""


@needs_icarus
def test_harness_reports_a_reset_that_waits_for_the_clock():
    """Lowered with the reset out of the sensitivity list (a synchronous reset), the counter
    clears only at the next edge: the harness must see it, whether the reset falls with the
    clock (key 0) or between the edges (key 1), and must accept the real lowering."""
    prep = prepare(Generated(ASYNC_COUNTER, "m"), 7, 40)
    assert any(not row["arst_n"] for row in prep.inputs[1:]), "the stimulus never resets"
    sync = lambda v: v.replace(" or negedge arst_n", "")
    cases = [lower_case(prep, 0, None), lower_case(prep, 1, None), lower_case(prep, 2, None, corrupt=sync),
             lower_case(prep, 3, None, corrupt=sync)]
    assert mid_cycle_reset(cases[1]) == 1 and mid_cycle_reset(cases[0]) is None
    result = simulate(cases, 40)
    assert compare(cases[0], result) == [] and compare(cases[1], result) == []
    for bad in cases[2:]:
        assert any("c: Icarus" in p for p in compare(bad, result)), bad.key


def test_z3_check_reports_a_wrong_encoding(monkeypatch):
    original = CycleEncoder.binary

    def plus_as_minus(self, n):
        return original(self, E.Bin("-", n.a, n.b, n.ty) if n.op == "+" else n)

    monkeypatch.setattr(CycleEncoder, "binary", plus_as_minus)
    prep = prepare(Generated(CORRUPTIBLE, "m"), 5, 6)
    assert any(": y: z3" in p for p in z3_disagreements(prep))


def test_unrolling_check_reports_a_wrong_transition(monkeypatch):
    def hold(self, t):  # every register keeps its value: not the design's transition
        cur, nxt = self.cycle(t), self.cycle(t + 1)
        return [nxt.vars[sv.name] == cur.vars[sv.name] for sv in self.sys.state]

    monkeypatch.setattr(Unrolling, "transition", hold)
    prep = prepare(Generated(CORRUPTIBLE, "m"), 5, 6)
    assert any("transition of q" in p for p in unrolling_disagreements(prep))


# Registers without a reset value: `h` is held through a reset (the reset is its write enable),
# `d` is a D flip-flop of a design without reset port. The harness starts both at the values the
# evaluator starts from, so it must see a lowering that resets `h`, that writes it during the
# reset, or that clocks the D flip-flop once more.
HELD = """module m(clk: clock, rst: reset, a: in u8, en: in bool, h: out reg u8, y: out u8) {
  y = h ^ a;
  seq { if en { h <= h + a; } }
}
"""
DFF = """module m(clk: clock, a: in u8, q: out reg u8, y: out u8) {
  reg p: u8;
  y = p;
  seq { q <= a; p <= q; }
}
"""
HELD_CORRUPTIONS = {
    "reset-clears-it": (HELD, lambda v: v.replace("if (rst) begin", "if (rst) begin\n      h <= 8'd0;")
                        if "if (rst) begin" in v else v.replace("if (!rst) begin", "if (rst) begin\n      h <= 8'd0;\n    end else begin"), "h: Icarus"),
    "written-in-reset": (HELD, lambda v: v.replace("if (!rst) begin", "if (1'b1) begin"), "h: Icarus"),
    "written-before-cycle-0": (DFF, None, "y: Icarus"),  # the harness's clock not held in step 0
}


@needs_icarus
@pytest.mark.parametrize("name", list(HELD_CORRUPTIONS))
def test_harness_reports_a_register_without_reset_value_done_wrong(monkeypatch, name):
    source, corrupt, expected = HELD_CORRUPTIONS[name]
    prep = prepare(Generated(source, "m"), 11, 30)
    if "rst" in prep.inputs[0]:
        for t in (3, 4, 9):
            prep.inputs[t]["rst"], prep.inputs[t]["en"] = 1, 1  # resets that the register must outlast
        prep = Prepared(prep.gen, prep.system, prep.inputs,
                        Evaluator(prep.system).run(prep.inputs, Evaluator(prep.system).initial_state(
                            free=lambda n: prep.initial.get(n, 0))), initial=prep.initial)
    assert any(v != 0 for v in prep.initial.values()) or name == "written-in-reset"
    clean = lower_case(prep, 0, None)
    if corrupt is None:
        assert gated_clock(clean)
        assert compare(clean, simulate([clean], 30)) == []
        monkeypatch.setattr(icarus_harness, "gated_clock", lambda case: False)
        bad = lower_case(prep, 1, None)
        assert any(expected in p for p in compare(bad, simulate([bad], 30))), compare(bad, simulate([bad], 30))
        return
    bad = lower_case(prep, 1, None, corrupt=corrupt)
    assert bad.verilog != clean.verilog.replace("m_d0", "m_d1"), "the corruption did not apply"
    result = simulate([clean, bad], 30)
    assert compare(clean, result) == []
