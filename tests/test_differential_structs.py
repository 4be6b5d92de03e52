"""Differential tests of packed structs: random designs with structs (tests/gen_designs.py with
`structs=True`: one or two structs a file, nested now and then, with bool, integer and enum
fields, as ports, registers, register arrays, memories, wires, consts and fn parameters and
results; read by field, built by literal, by `S { f: e, ..base }` and by a cast from bits,
compared whole, and written by field, `r.f <= e` and `w.f.g = e`) mean the same to the
evaluator, to z3, to Icarus running the lowered Verilog and to Amaranth's simulator, as the
other designs of tests/test_differential.py do.

`SYSR_STRUCT_DESIGNS` sets how many designs the Icarus test runs (default 60), and
`SYSR_STRUCT_Z3_DESIGNS` how many the z3 and Amaranth tests run (default 12); the first seed
is 7000 (`design_from_seed(seed, structs=True)` reproduces one).
"""

from __future__ import annotations

import os
import re

import pytest

from amaranth_sim import run_amaranth
from diff_prepare import prepare, report
from gen_designs import design_from_seed
from icarus_harness import SIM_CYCLES, needs_icarus, run_differential
from z3_harness import Z3_CYCLES, unrolling_disagreements, z3_disagreements

STRUCT_DESIGNS = int(os.environ.get("SYSR_STRUCT_DESIGNS", "60"))
STRUCT_Z3_DESIGNS = int(os.environ.get("SYSR_STRUCT_Z3_DESIGNS", "12"))
SEED = 7000


def test_the_generator_writes_every_struct_construct():
    """The designs below exercise what structs add (a generator that stopped writing one would
    leave it untested)."""
    texts = "\n".join(design_from_seed(s, structs=True).text for s in range(SEED, SEED + STRUCT_DESIGNS))
    found = {
        "declaration": r"^struct St\d+ \{",
        "nested": r"^struct St\d+ \{[^}]*: St\d+",
        "enum field": r"^struct St\d+ \{[^}]*: E\d+",
        "field read": r"[\w)]\.f\d",
        "literal": r"St\d+ \{ f\d+: ",
        "update": r"\.\.[^}]*\}",
        "cast from bits": r" as St\d+\)",
        "port": r": (in|out) St\d+",
        "register": r"reg \w+: St\d+",
        "field write": r"\w+\.f\d+(\.f\d+)? <?= ",
    }
    missing = [k for k, pat in found.items() if not re.search(pat, texts, re.M)]
    assert not missing, f"no generated design has: {', '.join(missing)}"


@needs_icarus
def test_icarus_matches_evaluator_on_structs():
    figures = run_differential(STRUCT_DESIGNS, 30, SIM_CYCLES, SEED, structs=True)
    assert figures.designs == STRUCT_DESIGNS
    assert not figures.failures, f"{len(figures.failures)} designs disagree:\n\n" + "\n\n".join(figures.failures[:3])


@pytest.mark.parametrize("seed", range(SEED, SEED + STRUCT_Z3_DESIGNS))
def test_z3_matches_evaluator_on_structs(seed):
    prep = prepare(design_from_seed(seed, structs=True), seed, Z3_CYCLES)
    problems = z3_disagreements(prep) or unrolling_disagreements(prep)
    assert not problems, report(prep, problems)


def test_amaranth_matches_evaluator_on_structs():
    figures = run_amaranth(STRUCT_Z3_DESIGNS, STRUCT_Z3_DESIGNS, SIM_CYCLES, SEED, structs=True)
    assert figures.designs == STRUCT_Z3_DESIGNS
    if STRUCT_Z3_DESIGNS >= 12:  # structs with the clock domains of §4.10 too
        assert {"struct", "falling edge", "clock read as a level"} <= set(figures.features), figures.features
    assert not figures.failures, f"{len(figures.failures)} designs disagree:\n\n" + "\n\n".join(figures.failures[:3])
