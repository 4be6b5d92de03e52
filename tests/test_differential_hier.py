"""Differential tests of hierarchies: a module with instances means the same to the evaluator,
to z3, to Icarus running the lowered Verilog, which keeps the hierarchy, and to the system its
proofs use, where each instance is its contract.

The designs come from tests/gen_hier.py (a top with instances of generated children, each with
outputs whose contract holds by construction). The evaluator runs the flattened hierarchy
(`sysr.elab.flat`: every instance's logic inlined under its name), the reference:

- Icarus runs `sysr lower`'s modules, one per sysr module, the instances as instances, through
  the harness of tests/icarus_harness.py: every output, and every wire, register and memory
  the lowering kept by name, in the top and inside the instances through hierarchical names
  (`u0.u1.g2.r9`), and the wires of instance outputs in their parents, compared each cycle;
- z3 gets the flattened system's encoding, cycle by cycle and unrolled;
- the top's system for its proofs (`sysr.elab.contract`: each instance's outputs free, its
  contract assumed, its requirements owed) is run on the real run's values: with the parent's
  state and inputs and each instance's outputs as the real child gave them, the parent's comb
  values, properties and next state must be the real ones, every contract assumption (the
  children's `ensures`, their valid enum outputs) must hold, and z3's encoding of that system
  must agree with it. A wrong contract would let the proofs assume what the hierarchy does not do.

A child declared `extern` (its ports and its `ensures`, tests/gen_hier.py's `extern_text`) is
taken by its parent exactly as the child: the top's proof system with the externs runs on the
real hierarchy's run like the one with the children, their contracts hold there, and the lowering
is the real hierarchy's less the extern modules (whose Verilog the children's lowering is).

The Amaranth back end builds a hierarchy flattened; its simulation (tests/amaranth_sim.py) is
compared too, registers and wires inside the instances included.

`SYSR_HIER_DESIGNS` and `SYSR_HIER_Z3_DESIGNS` set how many designs the Icarus test and the z3,
contract and Amaranth tests run (default 16 and 8, a few seconds; `SYSR_HIER_DESIGNS=300
SYSR_HIER_Z3_DESIGNS=200` is the long run), `SYSR_HIER_SEED` the first seed.
"""

from __future__ import annotations

import os
import re
from dataclasses import fields

import pytest

from gen_hier import hierarchy_from_seed
from sysr import elab as E
from sysr.evaluate import Evaluator
from sysr.lower import lower_text
from sysr.pipeline import analyze
import amaranth_sim
from amaranth_sim import amaranth_reset_mode
from diff_prepare import Figures, Prepared, prepare, report
from icarus_harness import SIM_CYCLES, check_cases, lower_case, needs_icarus
from z3_harness import Z3_CYCLES, unrolling_disagreements, z3_disagreements

HIER_DESIGNS = int(os.environ.get("SYSR_HIER_DESIGNS", "16"))
HIER_Z3_DESIGNS = int(os.environ.get("SYSR_HIER_Z3_DESIGNS", "8"))
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


def _plain(value) -> object:
    """A state value to compare: an int, or an array's elements."""
    return value if isinstance(value, int) else value.snapshot()


def state_names(sc: E.System, flat: E.System) -> dict[str, str]:
    """Each state variable of the contract system -> the real one it stands for: the same name
    (the parent is elaborated alike in both), but for a `prev` history register of an instance
    (`u.prev#0`), numbered in each system by the `prev`s it elaborates (the real child has those
    of its asserts too): the one of the same instance that keeps the same expression (the
    generated contracts' `prev` read inputs, which both systems read alike)."""
    out = {}
    for sv in sc.state:
        if "prev#" not in sv.name or sv.kind == "pv" or "." not in sv.name:  # (validity flags keep their names)
            out[sv.name] = sv.name
            continue
        prefix = sv.name.rsplit("prev#", 1)[0]
        out[sv.name] = next(f.name for f in flat.state if f.name.startswith(prefix) and "prev#" in f.name
                            and "." not in f.name[len(prefix):] and shape(f.next) == shape(sv.next))
    return out


def shape(root) -> int:
    """A hash of an IR expression's structure (its DAG walked once: `==` on the dataclasses
    would walk every path, exponentially many in unrolled designs)."""
    memo: dict[int, int] = {}
    for node in E.postorder(root, memo):
        kids = E.children(node)
        own = tuple((f.name, getattr(node, f.name)) for f in fields(node)
                    if not any(getattr(node, f.name) is k for k in kids) and f.name != "parts")
        memo[id(node)] = hash((type(node).__name__, own, tuple(memo[id(k)] for k in kids)))
    return memo[id(root)]


def _key(p: E.Prop) -> tuple:
    return p.kind, p.span, p.text_span, p.what, p.inst


def on_contracts(prep: Prepared, top=None) -> tuple[Prepared, list[str]]:
    """The top's contract system run on the real run (see the module docstring): that run as a
    `Prepared` of the contract system, and where it differs from the real one. `top`: the top's
    design to take the contracts from (default the real one; one whose children are externs)."""
    flat = prep.system
    sc = E.elaborate(top or flat.design, "contract")
    ev = Evaluator(sc)
    own = {i: next(j for j, p in enumerate(flat.props) if _key(p) == _key(q)) for i, q in enumerate(sc.props)
           if q.kind != "instance"}
    real_name = state_names(sc, flat)
    nexts = [c.state for c in prep.cycles[1:]] + [prep.final]
    cycles, rows, out = [], [], []
    for t, (real, nxt) in enumerate(zip(prep.cycles, nexts)):
        seen = {**real.shown, **real.values, **real.inputs}  # an instance's output: comb or register
        row = {n: seen[n] for n, _ in sc.inputs}
        cyc, got = ev.step({sv.name: real.state[real_name[sv.name]] for sv in sc.state}, row)
        cycles.append(cyc)
        rows.append(row)
        out += [f"cycle {t}: `{n}` is {v} with contracts, {real.values[n]} in the real run"
                for n, v in cyc.values.items() if n in real.values and real.values[n] != v]
        out += [f"cycle {t}: property `{sc.props[i].text}` is {cyc.props[i]} with contracts, {real.props[j]} "
                "in the real run" for i, j in own.items() if cyc.props[i] != real.props[j]]
        out += [f"cycle {t}: the contract `{a.text}` of instance `{a.inst}` is false in the real run"
                for a, holds in zip(sc.assumes, cyc.assumes) if not holds]
        out += [f"cycle {t}: next `{n}` is {_plain(v)} with contracts, {_plain(nxt[real_name[n]])} in the real run"
                for n, v in got.items() if _plain(nxt[real_name[n]]) != _plain(v)][:5]
        if out:
            break
    final = got if prep.cycles else {}
    return Prepared(prep.gen, sc, rows, cycles, final, prep.initial), out


@pytest.mark.parametrize("seed", range(HIER_SEED, HIER_SEED + HIER_Z3_DESIGNS))
def test_the_proofs_system_agrees_with_the_real_hierarchy(seed):
    prep = prepare(hierarchy_from_seed(seed), seed, Z3_CYCLES)
    contracts, problems = on_contracts(prep)
    assert prep.system.design.instances and contracts.system.assumes  # the children's ensures crossed
    problems = problems or z3_disagreements(contracts) or unrolling_disagreements(contracts)
    assert not problems, report(prep, problems, seed)


def _without_modules(verilog: str, names: list[str]) -> str:
    """A lowered file less the modules `names`, with the header comment that names them."""
    for name in names:
        verilog = re.sub(rf"\nmodule {re.escape(name)} \(.*?^endmodule\n", "", verilog, count=1, flags=re.M | re.S)
    head, rest = verilog.split("\n", 1)
    return (f"{head}\n// Instantiates extern modules that sysr does not write: {', '.join(names)} "
            f"(compile their Verilog with this file).\n{rest}")


@pytest.mark.parametrize("seed", [s for s in range(HIER_SEED, HIER_SEED + 3 * HIER_Z3_DESIGNS)
                                  if "extern module" in hierarchy_from_seed(s).extern_text][:HIER_Z3_DESIGNS])
def test_an_extern_is_taken_as_the_child_it_stands_for(seed):
    """The same file with some children declared extern (their ports and `ensures`): the top's
    proof system, run on the real hierarchy's run, agrees with it and the externs' contracts hold
    there; the lowering is the real hierarchy's (which the Icarus test runs) less the extern
    modules, whose Verilog is the children's."""
    gen = hierarchy_from_seed(seed)
    outcome = analyze(gen.extern_text)
    assert outcome.accepted, [f"{d.code} {d.message}" for d in outcome.diagnostics]
    externs = [d.module.name for d in outcome.hierarchy.externs()]
    assert externs
    prep = prepare(gen, seed, Z3_CYCLES)
    contracts, problems = on_contracts(prep, outcome.design)
    problems = problems or z3_disagreements(contracts)
    assert not problems, report(prep, problems, seed) + "\n" + gen.extern_text
    real, _ = lower_text(gen.text, "h.sysr")
    lowered, _ = lower_text(gen.extern_text, "h.sysr")
    order = [m for m in re.findall(r"^module (\w+) \(", real, re.M) if m in externs]
    assert lowered == _without_modules(real, order)


def test_amaranth_matches_evaluator_on_hierarchies():
    seeds = range(HIER_SEED, HIER_SEED + HIER_Z3_DESIGNS)
    preps = [(s, prepare(hierarchy_from_seed(s), s, SIM_CYCLES)) for s in seeds]
    cases = [amaranth_sim.make_case(p, s, amaranth_reset_mode(s, p.system)) for s, p in preps]
    observed = amaranth_sim.simulate(cases, SIM_CYCLES)
    inside = [p for c in cases for p in c.probes if "." in p[0]]
    assert inside, "no probe inside an instance"
    failures = [report(c.prep, problems, c.key) for c in cases if (problems := amaranth_sim.disagreements(c, observed))]
    assert not failures, f"{len(failures)} designs disagree:\n\n" + "\n\n".join(failures[:3])
