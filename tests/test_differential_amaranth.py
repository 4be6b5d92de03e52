"""Differential test of the Amaranth back end: each generated design built as an Amaranth
component (`sysr.amaranth`) and run by Amaranth's simulator (tests/amaranth_sim.py), in both
reset mappings, against the evaluator; and tests that this harness notices a wrong circuit.

The designs include several clocks, falling edges and clocks read as a level (tests/gen_clocks.py),
each clock driven as the evaluator steps it (tests/test_amaranth_domains.py for the hand-written
ones). `SYSR_AMARANTH_DESIGNS` sets how many designs the random test runs (default 40, in batches of
`SYSR_AMARANTH_BATCH`, from seed `SYSR_AMARANTH_SEED`); benchmarks/differential_long.py
--amaranth N runs many more.
"""

from __future__ import annotations

import os

import pytest

import amaranth_sim
from amaranth_sim import run_amaranth
from diff_prepare import Prepared, prepare
from gen_designs import Generated
from icarus_harness import SIM_CYCLES
from sysr import elab as E
from sysr.amaranth import component as sysr_amaranth_component
from sysr.amaranth import ops as sysr_amaranth_ops
from sysr.evaluate import Evaluator
from test_differential import CORRUPTIBLE, HELD

AM_DESIGNS = int(os.environ.get("SYSR_AMARANTH_DESIGNS", "40"))
AM_BATCH = int(os.environ.get("SYSR_AMARANTH_BATCH", "20"))
AM_SEED = int(os.environ.get("SYSR_AMARANTH_SEED", "3000"))


def test_amaranth_matches_evaluator():
    figures = run_amaranth(AM_DESIGNS, AM_BATCH, SIM_CYCLES, AM_SEED)
    assert figures.designs == AM_DESIGNS and figures.cycles == AM_DESIGNS * SIM_CYCLES
    if (AM_DESIGNS, AM_SEED) == (40, 3000):  # the default sample has the clock domains of §4.10
        assert {"several clocks", "falling edge", "clock read as a level", "wide bus"} <= set(figures.features), \
            figures.features
    assert not figures.failures, f"{len(figures.failures)} designs disagree:\n\n" + "\n\n".join(figures.failures[:5])


def _drop_register_inits(mp):
    real = sysr_amaranth_component.Signal
    mp.setattr(sysr_amaranth_component, "Signal", lambda *a, init=None, **k: real(*a, **k))


AM_CORRUPTIONS = {  # name -> (how, what the report must say, the reset modes it applies to)
    "plus-to-minus": (lambda mp: mp.setitem(sysr_amaranth_ops.BINARY, "+", sysr_amaranth_ops.BINARY["-"]),
                      ": y: Amaranth", ("domain", "port")),
    "signed-compare-unsigned": (lambda mp: mp.setitem(sysr_amaranth_ops.BINARY, "<",
                                                      lambda a, b, n: a.as_unsigned() < b.as_unsigned()),
                                ": lt: Amaranth", ("domain", "port")),
    "reset-value": (_drop_register_inits, ": q: Amaranth", ("domain", "port")),
    "reset-ignored": (lambda mp: mp.setattr(sysr_amaranth_component.SysrComponent, "_next_of",
                                            lambda self, sv, system: sv.next.b if isinstance(sv.next, E.Ite) else sv.next),
                      ": q: Amaranth", ("port",)),
}


@pytest.mark.parametrize("name,reset", [(n, r) for n, (_, _, modes) in AM_CORRUPTIONS.items() for r in modes])
def test_amaranth_harness_reports_a_wrong_circuit(monkeypatch, name, reset):
    corrupt, expected, _ = AM_CORRUPTIONS[name]
    source = CORRUPTIBLE.replace("y: out u8,", "y: out u8, s: in s8, lt: out bool,").replace(
        "  y = a + b;", "  y = a + b;\n  lt = s < -1;")
    prep = prepare(Generated(source, "m"), 5, 12)
    prep.inputs[3][prep.system.design.reset] = 1  # a reset in the middle, not only at the start
    prep = Prepared(prep.gen, prep.system, prep.inputs, Evaluator(prep.system).run(prep.inputs))
    clean = amaranth_sim.make_case(prep, 0, reset)
    assert amaranth_sim.disagreements(clean, amaranth_sim.simulate([clean], 12)) == []
    corrupt(monkeypatch)
    bad = amaranth_sim.make_case(prep, 1, reset)
    problems = amaranth_sim.disagreements(bad, amaranth_sim.simulate([bad], 12))
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize("reset", ["domain", "port"])
def test_amaranth_harness_sees_registers_without_reset_value(monkeypatch, reset):
    """Amaranth's reset-less registers start where the evaluator's do and the reset leaves them
    alone; a component whose register is reset by the domain (not reset-less) is noticed."""
    prep = prepare(Generated(HELD, "m"), 11, 30)
    for t in (3, 4, 9):
        prep.inputs[t]["rst"], prep.inputs[t]["en"] = 1, 1
    prep = Prepared(prep.gen, prep.system, prep.inputs,
                    Evaluator(prep.system).run(prep.inputs, Evaluator(prep.system).initial_state(
                        free=lambda n: prep.initial.get(n, 0))), initial=prep.initial)
    clean = amaranth_sim.make_case(prep, 0, reset)
    assert amaranth_sim.disagreements(clean, amaranth_sim.simulate([clean], 30)) == []
    real = sysr_amaranth_component.Signal
    monkeypatch.setattr(sysr_amaranth_component, "Signal",
                        lambda *a, reset_less=False, **k: real(*a, reset_less=reset_less and reset == "port", **k))
    monkeypatch.setattr(sysr_amaranth_component.SysrComponent, "_next_of",
                        lambda self, sv, system: sv.next.b if isinstance(sv.next, E.Ite) else sv.next)
    bad = amaranth_sim.make_case(prep, 0, reset)
    assert any("h" in p for p in amaranth_sim.disagreements(bad, amaranth_sim.simulate([bad], 30)))
