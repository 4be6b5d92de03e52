"""Preparing a generated design for the differential tests, and reporting a disagreement.

`prepare` checks and elaborates a design, draws its stimulus (inputs biased towards edge values,
the reset at random cycles) and the initial values of its registers without a reset value, and
runs the evaluator (`sysr.evaluate`), the reference every other semantics is compared with
(tests/z3_harness.py, tests/icarus_harness.py, tests/amaranth_sim.py). `report` prints a
design, its disagreements and its inputs; `Figures` counts what a run of many designs did.
"""

from __future__ import annotations

import collections
import random
from dataclasses import dataclass, field

from gen_designs import Generated
from sysr import elab as E
from sysr.evaluate import Cycle, Evaluator
from sysr.pipeline import analyze
from sysr.types import mask

RESET_RATE = 0.08


@dataclass
class Prepared:
    gen: Generated
    system: E.System
    inputs: list[dict[str, int]]  # per cycle, every input including the reset
    cycles: list[Cycle]  # the evaluator's run from the reset state
    final: dict = field(default_factory=dict)  # the state after the last cycle
    # the initial values chosen for the registers without a reset value (any value is one the
    # proofs cover; the simulators are given the same); one left out starts at 0
    initial: dict = field(default_factory=dict)
    hierarchy: object = None  # the file's modules (`sysr.model.Hierarchy`), when it has instances


def reset_less(system: E.System) -> list[E.StateVar]:
    """The registers without a reset value or power-up value, which start with any value
    (scalars: register arrays without a reset value are memories). One with a power-up value
    starts with it: the lowered Verilog must give it, the testbench does not."""
    return [sv for sv in system.state if sv.kind in ("reg", "out_reg") and sv.init is None and sv.size is None
            and sv.powerup is None]


def random_bits(rng: random.Random, width: int) -> int:
    """A bit pattern biased towards edge values (0, 1, all ones, sign bit) half of the time."""
    k = rng.randrange(8)
    edges = [0, 1, mask(width), 1 << (width - 1)]
    return edges[k] & mask(width) if k < 4 else rng.getrandbits(width)


def stimulus(system: E.System, rng: random.Random, n: int, reset_rate: float = RESET_RATE):
    """n cycles of inputs: valid enum variants, the reset active at random cycles."""
    d = system.design
    rows = []
    for _ in range(n):
        row = {}
        for name, ty in system.inputs:
            if name in d.resets:  # (§4.10: each reset at random, on its own)
                row[name] = int((rng.random() < reset_rate) != d.resets[name].endswith("_n"))
            elif ty.kind == "enum":
                row[name] = rng.choice(sorted(d.enums[ty.enum].variants.values()))
            else:
                row[name] = random_bits(rng, ty.width)
        rows.append(row)
    return rows


def prepare(gen: Generated, seed: int, n_cycles: int) -> Prepared:
    """Check the design (a generator bug if it is rejected), elaborate it and run the evaluator."""
    outcome = analyze(gen.text)
    errors = [f"{d.code} {d.message} at {d.span}" for d in outcome.diagnostics if d.severity.name == "ERROR"]
    assert outcome.accepted, "generator bug: design rejected:\n" + "\n".join(errors) + "\n" + gen.text
    system = E.elaborate(outcome.design)
    inputs = stimulus(system, random.Random(seed), n_cycles)
    rng = random.Random(f"initial {seed}")  # not the stimulus' generator: the stimulus stays as it was
    initial = {sv.name: random_bits(rng, sv.ty.width) for sv in reset_less(system)}
    ev = Evaluator(system)
    state = ev.initial_state(memory=lambda name, i: 0, free=lambda name: initial.get(name, 0))
    cycles = []
    for row in inputs:
        cyc, state = ev.step(state, row)
        cycles.append(cyc)
    hierarchy = outcome.hierarchy if outcome.design.instances else None
    return Prepared(gen, system, inputs, cycles, state, initial, hierarchy)


def report(prep: Prepared, problems: list[str], seed=None) -> str:
    lines = ["design" + (f" (seed {seed})" if seed is not None else "") + ":", prep.gen.text]
    lines += ["disagreements:"] + problems[:20]
    lines.append("inputs per cycle:")
    lines += [f"  {t}: " + ", ".join(f"{k}={hex(v)}" for k, v in row.items()) for t, row in enumerate(prep.inputs)]
    return "\n".join(lines)


@dataclass
class Figures:
    designs: int = 0
    cycles: int = 0
    failures: list = field(default_factory=list)  # reports
    python_s: float = 0.0
    compile_s: float = 0.0
    run_s: float = 0.0
    features: collections.Counter = field(default_factory=collections.Counter)  # designs per feature
