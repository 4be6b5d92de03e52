"""Differential tests of hierarchies: a module with instances means the same to the evaluator,
to z3 and to Icarus running the lowered Verilog, which keeps the hierarchy.

The designs come from tests/gen_hier.py (a top with instances of generated children). The
evaluator runs the flattened hierarchy (`sysr.hier.flat`: every instance's logic inlined under
its name); Icarus runs `sysr lower`'s modules, one per sysr module, the instances as instances,
through the harness of tests/test_differential.py (every output, every register and instance
output the lowering kept by name compared each cycle, also inside the instances through
hierarchical names); z3 gets the flattened system's encoding, cycle by cycle and unrolled.
`SYSR_HIER_DESIGNS` sets how many designs each test runs (default 60 for Icarus, 40 for z3).
"""

from __future__ import annotations

import os

import pytest

from gen_hier import hierarchy_from_seed
from test_differential import (SIM_CYCLES, Z3_CYCLES, check_cases, lower_case, needs_icarus, prepare, report,
                               unrolling_disagreements, z3_disagreements, Figures)

HIER_DESIGNS = int(os.environ.get("SYSR_HIER_DESIGNS", "60"))
HIER_Z3_DESIGNS = int(os.environ.get("SYSR_HIER_Z3_DESIGNS", "40"))
HIER_SEED = int(os.environ.get("SYSR_HIER_SEED", "5000"))


def hier_cases(seeds: list[int], n_cycles: int, start: int = 0):
    cases = []
    for i, seed in enumerate(seeds):
        prep = prepare(hierarchy_from_seed(seed), seed, n_cycles)
        assert prep.hierarchy is not None, "the generator wrote no instance"
        cases.append(lower_case(prep, start + i, seed))
    return cases


@needs_icarus
def test_icarus_matches_evaluator_on_hierarchies():
    figures = Figures()
    seeds = list(range(HIER_SEED, HIER_SEED + HIER_DESIGNS))
    for start in range(0, len(seeds), 30):
        check_cases(hier_cases(seeds[start:start + 30], SIM_CYCLES, start), SIM_CYCLES, figures)
    assert figures.designs == HIER_DESIGNS
    assert not figures.failures, f"{len(figures.failures)} designs disagree:\n\n" + "\n\n".join(figures.failures[:3])


@pytest.mark.parametrize("seed", range(HIER_SEED, HIER_SEED + HIER_Z3_DESIGNS))
def test_z3_matches_evaluator_on_hierarchies(seed):
    prep = prepare(hierarchy_from_seed(seed), seed, Z3_CYCLES)
    problems = z3_disagreements(prep) or unrolling_disagreements(prep)
    assert not problems, report(prep, problems, seed)
