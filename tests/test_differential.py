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
the signal, both values, the inputs and the lowered Verilog. Open bugs are listed in
`KNOWN_BUGS`, each with a minimal reproducer run as an xfail(strict=True) test and a signature
by which the random test counts its failures (as warnings) instead of failing on them; fixed
ones (`FIXED_BUGS`) keep their reproducer as a regression test. A reproducer passes when
`sysr check` rejects the design or the Verilog agrees (the project's soundness rule); the
Amaranth back end's fixed bugs are `AMARANTH_FIXED_BUGS`. Other tests corrupt the lowered
Verilog, the encoder and the Amaranth back end on purpose, to show that the harness notices.

`SYSR_DIFF_DESIGNS` sets how many designs the Icarus test runs (default 300, in batches of
`SYSR_DIFF_BATCH`), `SYSR_Z3_DESIGNS` how many the z3 test runs (default 200),
`SYSR_AMARANTH_DESIGNS` how many the Amaranth test runs (default 40);
benchmarks/differential_long.py runs thousands, prints figures and shrinks failing designs.
"""

from __future__ import annotations

import collections
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import amaranth_sim
from gen_designs import Generated, design_from_seed, designs
from sysr.amaranth import component as sysr_amaranth_component
from sysr.amaranth import ops as sysr_amaranth_ops
from sysr import elab as E
from sysr.evaluate import Cycle, Evaluator
from sysr.front.syntax import RESET_KINDS
from sysr.pipeline import analyze, check
from sysr.smt.encode import CycleEncoder, index_width, make_vars
from sysr.smt.prove import Unrolling
from sysr.types import mask

Z3_DESIGNS = int(os.environ.get("SYSR_Z3_DESIGNS", "200"))
Z3_CYCLES = 12
UNROLL_CYCLES = 3  # the unrolling repeats one encoding per cycle: a few cycles check its wiring
RESET_RATE = 0.08


# ---- preparing a design: check, elaborate, stimulus, reference run ------------------------

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
            if name == d.reset:
                row[name] = int((rng.random() < reset_rate) != d.reset_active_low)
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


# ---- z3 vs evaluator ----------------------------------------------------------------------

class SymbolicCycle:
    """One cycle's z3 terms over symbolic inputs and state, built once per design: each comb
    signal, property, requires, and next-state value (array elements one by one), with how to
    read the evaluator's value for it from (this cycle, next state)."""

    def __init__(self, system: E.System) -> None:
        self.sys = system
        self.ctx = z3.Context()
        self.vars = make_vars(system, "x", self.ctx)
        enc = CycleEncoder(system, self.vars, self.ctx)
        self.checks = [(name, enc.enc(expr), lambda c, n, k=name: c.values[k])
                       for name, expr in system.comb.items()]
        self.checks += [(f"property {k} ({p.kind})", enc.enc(p.expr), lambda c, n, k=k: c.props[k])
                        for k, p in enumerate(system.props)]
        self.checks += [(f"requires {k}", enc.enc(p.expr), lambda c, n, k=k: c.requires[k])
                        for k, p in enumerate(system.requires)]
        ev = Evaluator(system)  # covers are not in a cycle's record: evaluated on its state and inputs
        self.checks += [(f"cover {k}", enc.enc(p.expr),
                         lambda c, n, e=p.expr: ev.eval(e, {**c.state, **c.inputs}, {}))
                        for k, p in enumerate(system.covers)]
        for sv in system.state:
            term = enc.enc(sv.next)
            if sv.size is None:
                self.checks.append((f"next {sv.name}", term, lambda c, n, k=sv.name: n[k]))
                continue
            for i in range(sv.size):
                self.checks.append((f"next {sv.name}[{i}]", self.element(term, i, sv),
                                    lambda c, n, k=sv.name, i=i: n[k].get(i)))
        terms = [t for _, t, _ in self.checks]
        self.all = z3.Concat(*terms) if len(terms) > 1 else (terms[0] if terms else None)

    def element(self, term, i: int, sv: E.StateVar):
        if isinstance(term, tuple):  # a small array is encoded as one bit-vector per element
            return term[i]
        return z3.Select(term, z3.BitVecVal(i, index_width(sv.size), self.ctx))

    def values(self, cyc: Cycle) -> list[int | None]:
        """Every check's value with the cycle's inputs and state substituted: one substitution
        of all terms at once, or term by term when that does not simplify to a number."""
        if self.all is None:
            return []
        pairs = bind_vars(self.vars, self.sys, cyc.inputs, cyc.state, self.ctx)
        whole = number(self.all, pairs)
        if whole is None:
            return [number(t, pairs) for _, t, _ in self.checks]
        out = []
        for _, t, _ in reversed(self.checks):
            out.append(whole & mask(t.size()))
            whole >>= t.size()
        return out[::-1]


def number(term, pairs) -> int | None:
    got = z3.simplify(z3.substitute(term, *pairs))
    return got.as_long() if z3.is_bv_value(got) else None


def bind_vars(vars: dict, system: E.System, inputs: dict, state: dict, ctx) -> list:
    """Substitution pairs: every input and state variable of one cycle to its value."""
    pairs = []
    for name, ty in system.inputs:
        pairs.append((vars[name], z3.BitVecVal(inputs[name], ty.width, ctx)))
    for sv in system.state:
        var = vars[sv.name]
        value = state_constant(state[sv.name], var, sv, ctx)
        pairs += list(zip(var, value)) if isinstance(var, tuple) else [(var, value)]
    return pairs


def state_constant(value, var, sv: E.StateVar, ctx):
    """A state variable's value as a z3 term shaped like its variable `var`: a bit-vector, a
    tuple of bit-vectors (a small array) or a z3 array (a constant array with stores)."""
    if sv.size is None:
        return z3.BitVecVal(value, sv.ty.width, ctx)
    elements = [z3.BitVecVal(v, sv.ty.width, ctx) for v in value.snapshot()]
    if isinstance(var, tuple):
        return tuple(elements)
    arr = z3.K(z3.BitVecSort(index_width(sv.size), ctx), z3.BitVecVal(0, sv.ty.width, ctx))
    for i, v in enumerate(elements):
        arr = z3.Store(arr, z3.BitVecVal(i, index_width(sv.size), ctx), v)
    return arr


def z3_disagreements(prep: Prepared) -> list[str]:
    """Per cycle: comb values, properties, requires and next state from z3 vs the evaluator."""
    sym = SymbolicCycle(prep.system)
    out: list[str] = []
    states = [c.state for c in prep.cycles[1:]] + [prep.final]
    for t, (cyc, nxt) in enumerate(zip(prep.cycles, states)):
        for (what, _, want), got in zip(sym.checks, sym.values(cyc)):
            expect(out, t, what, got, want(cyc, nxt))
        if out:
            break  # the first cycle that disagrees is the one to look at
    return out


def expect(out: list[str], t: int, what: str, z3_value: int | None, ev_value: int) -> None:
    if z3_value != ev_value:
        shown = "no value (did not simplify)" if z3_value is None else hex(z3_value)
        out.append(f"cycle {t}: {what}: z3 {shown}, evaluator {hex(ev_value)}")


def unrolling_disagreements(prep: Prepared) -> list[str]:
    """The prover's unrolling (`Unrolling.init` and `.transition`, what BMC and induction assert)
    must hold on the evaluator's run: with cycle t's and t+1's inputs and states substituted,
    every constraint simplifies to true. Each constraint fixes one next-state variable as a
    function of the cycle before, so the evaluator's run is then the unrolling's only one; with
    `z3_disagreements` this makes the prover's traces the evaluator's."""
    ctx = z3.Context()
    un = Unrolling(prep.system, "d", ctx)
    runs = [c.state for c in prep.cycles] + [prep.final]
    out = []
    for t in range(min(len(prep.cycles), UNROLL_CYCLES)):
        named = [(f"transition of {sv.name}", c) for sv, c in zip(prep.system.state, un.transition(t))]
        if t == 0:
            named += [("init", c) for c in un.init()]
        pairs = bind_vars(un.cycle(t).vars, prep.system, prep.cycles[t].inputs, runs[t], ctx)
        pairs += bind_vars(un.cycle(t + 1).vars, prep.system, prep.cycles[t].inputs, runs[t + 1], ctx)
        named = [(what, in_range(c, prep.system)) for what, c in named]
        if not named or holds(z3.And([c for _, c in named]), pairs):
            continue
        out += [f"cycle {t}: {what} does not hold on the evaluator's run" for what, c in named if not holds(c, pairs)]
        break
    return out


def in_range(constraint, system: E.System):
    """An equality of z3 arrays (a large register array or memory), restated over the indexes in
    range: the other elements are never read, and simplification cannot decide array equality."""
    if not (z3.is_eq(constraint) and z3.is_array(constraint.arg(0))):
        return constraint
    a, b = constraint.arg(0), constraint.arg(1)
    var = a if z3.is_const(a) else b
    size = system.state_var(var.decl().name().split("@")[0]).size
    idx = [z3.BitVecVal(i, a.domain().size(), a.ctx) for i in range(size)]
    return z3.And([z3.Select(a, i) == z3.Select(b, i) for i in idx])


def holds(constraint, pairs) -> bool:
    return z3.is_true(z3.simplify(z3.substitute(constraint, *pairs)))


def report(prep: Prepared, problems: list[str], seed=None) -> str:
    lines = ["design" + (f" (seed {seed})" if seed is not None else "") + ":", prep.gen.text]
    lines += ["disagreements:"] + problems[:20]
    lines.append("inputs per cycle:")
    lines += [f"  {t}: " + ", ".join(f"{k}={hex(v)}" for k, v in row.items()) for t, row in enumerate(prep.inputs)]
    return "\n".join(lines)


Z3_SETTINGS = settings(max_examples=Z3_DESIGNS, deadline=None, derandomize=True, database=None,
                       suppress_health_check=list(HealthCheck))


@Z3_SETTINGS
@given(gen=designs(), seed=st.integers(0, 2**32 - 1))
def test_z3_matches_evaluator(gen, seed):
    prep = prepare(gen, seed, Z3_CYCLES)
    problems = z3_disagreements(prep) or unrolling_disagreements(prep)
    assert not problems, report(prep, problems)


# ---- Icarus vs evaluator ------------------------------------------------------------------
#
# Cycle alignment. The testbench runs n+1 steps of 10 time units; in each step it applies that
# step's inputs as the clock falls (time 0 of the step), waits for the combinational logic to
# settle, samples every output (and probe) at time 3, then raises the clock at time 5 (the
# edge that ends the step). Step 0 is a preliminary reset: the reset is active, so at its edge
# every register takes its reset value and the seq blocks do nothing (memories, set to 0 by
# the testbench at time 0, and registers without a reset value, set by it to the values the
# evaluator starts from, `Prepared.initial`, keep them). Its outputs are not compared. Step
# k >= 1 is the evaluator's cycle k-1: the evaluator starts in the reset state with memories 0
# (`initial_state(memory=lambda n, i: 0)`), which is what the registers hold after the edge of
# step 0. A clocked design without a reset port has no preliminary reset: its clock is held low
# in step 0 (`ck<key>`), so that step 1 starts from the values the testbench set at time 0.
# Later reset pulses are ordinary inputs of both. An asynchronous reset of a design
# with an odd key is applied at time 2 of the step instead (neither edge): registers it
# asserts must be cleared by the sample at time 3, what the evaluator shows for that cycle.

SIM_DESIGNS = int(os.environ.get("SYSR_DIFF_DESIGNS", "300"))
SIM_BATCH = int(os.environ.get("SYSR_DIFF_BATCH", "75"))
SIM_CYCLES = int(os.environ.get("SYSR_DIFF_CYCLES", "24"))
SIM_SEED = int(os.environ.get("SYSR_DIFF_SEED", "1000"))
HAVE_ICARUS = shutil.which("iverilog") is not None and shutil.which("vvp") is not None


@dataclass
class Probe:
    """A value the testbench prints each cycle and what the evaluator says it should be."""
    label: str
    verilog: str  # expression in the testbench, e.g. `u3.r9` or `o3_2`
    expected: object  # Cycle -> int


@dataclass
class SimCase:
    key: int
    seed: int | None
    prep: Prepared
    prelim: dict[str, int]  # inputs of the preliminary reset step
    ports: list[tuple[str, str, int]]  # (name, kind, width) in source order
    verilog: str  # the lowered module, renamed `<name>_d<key>`
    probes: list[Probe] = field(default_factory=list)
    mem_inits: list[str] = field(default_factory=list)  # testbench statements at time 0
    names: dict = field(default_factory=dict)  # source name (flat) -> `Placed`: where it is in the Verilog
    crash: str | None = None  # why there is no Verilog

    @property
    def module(self) -> str:
        return f"{self.prep.system.design.module.name}_d{self.key}"


def lower_case(prep: Prepared, key: int, seed: int | None, corrupt=None) -> SimCase:
    """Lower a prepared design and work out its ports, probes and memory initialisation."""
    from sysr.lower.module import ModuleLowering, lowerings
    d = prep.system.design
    try:
        # what `sysr.lower.lower` and `lower_hierarchy` run
        parts = lowerings(prep.hierarchy, f"d{key}.sysr") if prep.hierarchy else [ModuleLowering(d, f"d{key}.sysr")]
        verilog = "\n".join(m.run() for m in parts)
    except Exception as exc:  # a crash of the lowering: reported for this design, not fatal
        return SimCase(key, seed, prep, {}, [], "", crash=f"lower() raised {type(exc).__name__}: {exc}")
    names = verilog_paths(parts)
    if corrupt is not None:
        verilog = corrupt(verilog)
    verilog, n = re.subn(rf"\bmodule\s+{re.escape(d.module.name)}\b", f"module {d.module.name}_d{key}", verilog, 1)
    assert n == 1, "no module header in the lowered Verilog:\n" + verilog
    from sysr.lower.instances import module_names
    vnames = module_names(prep.hierarchy) if prep.hierarchy else {}
    for child in (prep.hierarchy.reachable()[1:] if prep.hierarchy else ()):  # one copy of each per case
        vname = vnames[child.name]  # a binding of a module with parameters: `pk__W12_K4` (§8)
        verilog = re.sub(rf"^(module\s+|\s+){re.escape(vname)}(?= )", rf"\g<1>{vname}_d{key}", verilog, flags=re.M)
    ports = [(p.name, p.kind, 1 if p.kind == "clock" else d.signals[p.name].ty.width) for p in d.module.ports]
    prelim = dict(prep.inputs[0])
    if d.reset is not None:
        prelim[d.reset] = 0 if d.reset_active_low else 1
    case = SimCase(key, seed, prep, prelim, ports, verilog, names=names)
    case.probes = port_probes(case) + internal_probes(case)
    case.mem_inits = memory_inits(case) + reset_less_inits(case)
    return case


@dataclass(frozen=True)
class Placed:
    """Where a source signal is in the lowered Verilog: its path below the top (`u1.count`,
    `u1.g1.acc`), and the module that declares it (its Verilog name: a binding's, §8)."""
    path: str
    module: str
    sig: object  # its `sysr.model.Signal` in that module
    wire: "Placed | None" = None  # an instance's output: the wire it drives in the parent (`u1.g1_y`)

    @property
    def leaf(self) -> str:
        return self.path.rsplit(".", 1)[-1]


def verilog_paths(parts: list) -> dict[str, Placed]:
    """Every lowered signal of the top and, through the instances, of every module below it,
    under its name in the flat system (`u1.g1.acc`), from each module's lowering."""
    by_module = {m.d.name: m for m in parts}  # a binding of a module with parameters is a module of its own

    def vname(m) -> str:
        return m.verilog_modules[m.d.name]
    out = {}

    def walk(m, prefix: str, path: str) -> None:
        out.update({prefix + s.name: Placed(path + m.name(s), vname(m), s) for s in m.signals})
        for inst in m.d.instances.values():
            walk(by_module[inst.key], f"{prefix}{inst.name}.", f"{path}{m.names[('inst', inst.name)]}.")
            for port in m.output_ports(inst):
                key = f"{inst.name}.{port.name}"
                wire = Placed(path + m.names[("sig", key)], vname(m), out[prefix + key].sig)
                out[prefix + key] = replace(out[prefix + key], wire=wire)
    walk(parts[0], "", "")
    return out


def module_text(case: "SimCase", module: str) -> str:
    """The lowered text of one module of the case (the whole text for a single module)."""
    if not case.prep.hierarchy:
        return case.verilog
    m = re.search(rf"^module {re.escape(module)}_d{case.key} \(.*?^endmodule$", case.verilog, re.M | re.S)
    return m.group(0) if m else ""


def port_probes(case: SimCase) -> list[Probe]:
    out = []
    for j, (name, kind, _) in enumerate(case.ports):
        if kind == "out":
            out.append(Probe(name, f"o{case.key}_{j}", lambda c, n=name: c.values[n]))
        elif kind == "out_reg":
            out.append(Probe(name, f"o{case.key}_{j}", lambda c, n=name: c.shown[n]))
    return out


def declaration(verilog: str, name: str) -> tuple[int, int | None] | None:
    """(width, entries) of `reg [W-1:0] name;` or `reg [W-1:0] name [0:N-1];` in the lowered text."""
    m = re.search(rf"^\s*(?:reg|wire)\s+(?:signed\s+)?(?:\[(\d+):0\]\s*)?{re.escape(name)}\s*(?:\[0:(\d+)\])?\s*[;=]",
                  verilog, re.M)
    if m is None:
        return None
    return int(m.group(1) or 0) + 1, (int(m.group(2)) + 1 if m.group(2) else None)


def internal_probes(case: SimCase) -> list[Probe]:
    """Wires, registers, register arrays and memories, where the lowering kept the source name
    (a flattened array is compared as one vector, element i at bits i*W), in the top and inside
    its instances (through hierarchical names, with the outputs of the instances' modules): not
    needed for the verdict (the top's outputs are), but they show where a disagreement starts."""
    out = []
    for name, at in case.names.items():
        sig = at.sig
        if sig.kind == "wire" and not sig.ghost and placed_declaration(case, at) == (sig.ty.width, None):
            out.append(Probe(name, f"u{case.key}.{at.path}", lambda c, n=name: c.values[n]))
        if at.wire is not None and placed_declaration(case, at.wire) == (sig.ty.width, None):
            got = (lambda c, n=name: c.values[n]) if sig.kind == "out" else (lambda c, n=name: c.shown[n])
            out.append(Probe(name, f"u{case.key}.{at.wire.path}", got))
    for sv in case.prep.system.state:
        at = case.names.get(sv.name)
        if sv.ghost or sv.kind not in ("reg", "mem") or at is None:
            continue
        decl = placed_declaration(case, at)
        where = f"u{case.key}.{at.path}"
        if decl is None:
            continue
        width, entries = decl
        if sv.size is None and width == sv.ty.width and entries is None:
            out.append(Probe(sv.name, where, lambda c, n=sv.name: c.shown[n]))
        elif sv.size is not None and entries is None and width == sv.size * sv.ty.width:
            out.append(Probe(sv.name, where, lambda c, n=sv.name, w=sv.ty.width: pack(c.shown[n].snapshot(), w)))
        elif sv.size is not None and entries == sv.size and width == sv.ty.width:
            out += [Probe(f"{sv.name}[{i}]", f"{where}[{i}]", lambda c, n=sv.name, i=i: c.shown[n].get(i))
                    for i in range(sv.size)]
    return out


def placed_declaration(case: SimCase, at: Placed) -> tuple[int, int | None] | None:
    return declaration(module_text(case, at.module), at.leaf)


def pack(values: list[int], width: int) -> int:
    return sum(v << (i * width) for i, v in enumerate(values))


def memory_inits(case: SimCase) -> list[str]:
    """Testbench statements that zero every memory (the evaluator's initial contents)."""
    out = []
    for sv in case.prep.system.state:
        if sv.kind != "mem" or sv.ghost:
            continue
        at = case.names.get(sv.name)
        decl = placed_declaration(case, at) if at is not None else None
        if decl is None:  # the testbench cannot zero it: this design cannot be compared
            case.crash = f"memory `{sv.name}` not found in the lowered Verilog (the testbench zeroes it by name)"
            return []
        where = f"u{case.key}.{at.path}"
        if decl[1] is None:
            out.append(f"{where} = 0;")
        else:
            out.append(f"for (k = 0; k < {decl[1]}; k = k + 1) {where}[k] = 0;")
    return out


def reset_less_inits(case: SimCase) -> list[str]:
    """Testbench statements that set every register without a reset value to the value the
    evaluator starts from (Icarus would start it at x)."""
    out = []
    for sv in reset_less(case.prep.system):
        if sv.ghost:
            continue
        value = case.prep.initial.get(sv.name, 0)
        out.append(f"u{case.key}.{case.names[sv.name].path} = {sv.ty.width}'h{value:x};")
    return out


def gated_clock(case: SimCase) -> bool:
    """Whether the case's clock is held low in step 0: a clocked design without a reset port."""
    d = case.prep.system.design
    return d.clock is not None and d.reset is None


INPUT_KINDS = ("in",) + RESET_KINDS


def input_ports(case: SimCase) -> list[tuple[int, str, int]]:
    return [(j, name, w) for j, (name, kind, w) in enumerate(case.ports) if kind in INPUT_KINDS]


def mid_cycle_reset(case: SimCase) -> int | None:
    """The port index of an asynchronous reset that this case changes between the edges (at
    time 2 of a step rather than with the other inputs), or None."""
    if case.key % 2 == 0:
        return None
    return next((j for j, (_, kind, _) in enumerate(case.ports) if kind in ("areset", "areset_n")), None)


def stim_lines(case: SimCase) -> list[str]:
    """One hex word per step: the inputs concatenated in port order, first port most significant."""
    ins = input_ports(case)
    total = sum(w for _, _, w in ins)
    lines = []
    for row in [case.prelim] + case.prep.inputs:
        word = 0
        for _, name, w in ins:
            word = (word << w) | (row[name] & mask(w))
        lines.append(f"{word:0{max(1, (total + 3) // 4)}x}")
    return lines


def tb_declarations(case: SimCase, n_steps: int) -> list[str]:
    k = case.key
    total = max(1, sum(w for _, _, w in input_ports(case)))
    lines = [f"  // design {k}" + (f" (seed {case.seed})" if case.seed is not None else ""),
             f"  reg [{total - 1}:0] s{k} [0:{n_steps - 1}];"]
    conns = []
    for j, (name, kind, w) in enumerate(case.ports):
        if kind == "clock":
            if gated_clock(case):
                lines.append(f"  wire ck{k} = clk && step > 0;")
            conns.append(f"ck{k}" if gated_clock(case) else "clk")
            continue
        sig = f"{'i' if kind in INPUT_KINDS else 'o'}{k}_{j}"
        lines.append(f"  {'reg' if sig[0] == 'i' else 'wire'} [{w - 1}:0] {sig};")
        conns.append(sig)
    lines.append(f"  {case.module} u{k} ({', '.join(conns)});")
    return lines


def make_testbench(cases: list[SimCase], stim_paths: dict[int, str], n_steps: int) -> str:
    """One module instantiating every case, driving each from its stimulus memory."""
    decls, setup, drive, late, show = [], [], [], [], []
    for c in cases:
        decls += tb_declarations(c, n_steps)
        setup.append(f'    $readmemh("{stim_paths[c.key]}", s{c.key});')
        setup += [f"    {stmt}" for stmt in c.mem_inits]
        ins = [f"i{c.key}_{j}" for j, _, _ in input_ports(c)]
        mid = mid_cycle_reset(c)
        if mid is not None:  # the reset keeps last step's value until time 2: drive a dummy bit
            at = ins.index(f"i{c.key}_{mid}")
            decls.append(f"  reg r{c.key};")
            late.append(f"      i{c.key}_{mid} = r{c.key};")
            ins[at] = f"r{c.key}"
        if ins:
            drive.append(f"      {{{', '.join(ins)}}} = s{c.key}[step];")
        fmt = " ".join("%h" for _ in c.probes)
        args = "".join(f", {p.verilog}" for p in c.probes)
        show.append(f'        $display("D{c.key} %0d {fmt}", step - 1{args});')
    return "\n".join([
        "module tb;", "  reg clk = 1'b0;", "  integer step, k;", *decls,
        "  initial begin", *setup,
        f"    for (step = 0; step < {n_steps}; step = step + 1) begin", *drive,
        "      #2;", *late, "      #1;", "      if (step > 0) begin", *show, "      end",
        "      #2 clk = 1'b1;", "      #5 clk = 1'b0;", "    end",
        "    $finish;", "  end", "endmodule", ""])


@dataclass
class SimResult:
    rows: dict  # (key, cycle) -> list of ints (None for x/z)
    problems: dict  # key -> list of messages (compile errors, warnings)
    compile_s: float = 0.0
    run_s: float = 0.0


def run_tool(args: list[str], cwd: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def compile_alone(case: SimCase, workdir: str) -> str | None:
    """Why one design's Verilog does not compile cleanly on its own, or None."""
    path = os.path.join(workdir, f"alone{case.key}.v")
    Path(path).write_text(case.verilog)
    r = run_tool(["iverilog", "-g2005", "-o", os.devnull, path], workdir)
    if r.returncode != 0 or r.stderr.strip():
        return f"iverilog on the lowered module: {r.stderr.strip() or 'exit ' + str(r.returncode)}"
    return None


def simulate(cases: list[SimCase], n_cycles: int) -> SimResult:
    """Compile and run one testbench for all cases; designs that do not compile are set aside."""
    result = SimResult({}, {})
    for c in cases:
        if c.crash:
            result.problems[c.key] = [c.crash]
    with tempfile.TemporaryDirectory(prefix="sysr-diff-") as wd:
        live = [c for c in cases if not c.crash]
        while live:
            ok = run_batch(live, n_cycles, wd, result)
            if ok:
                return result
            bad = {c.key: compile_alone(c, wd) for c in live}
            culprits = {k: m for k, m in bad.items() if m}
            if not culprits:  # the batch fails but each design alone is fine: a harness bug
                raise AssertionError(f"testbench does not compile:\n{result.problems.get(-1)}")
            result.problems.pop(-1, None)
            for k, m in culprits.items():
                result.problems.setdefault(k, []).append(m)
            live = [c for c in live if c.key not in culprits]
    return result


def run_batch(cases: list[SimCase], n_cycles: int, wd: str, result: SimResult) -> bool:
    stim_paths = {}
    for c in cases:
        stim_paths[c.key] = os.path.join(wd, f"stim{c.key}.hex")
        Path(stim_paths[c.key]).write_text("\n".join(stim_lines(c)) + "\n")
    files = [os.path.join(wd, "tb.v")]
    Path(files[0]).write_text(make_testbench(cases, stim_paths, n_cycles + 1))
    for c in cases:
        files.append(os.path.join(wd, f"d{c.key}.v"))
        Path(files[-1]).write_text(c.verilog)
    t0 = time.perf_counter()
    r = run_tool(["iverilog", "-g2005", "-s", "tb", "-o", os.path.join(wd, "sim.vvp"), *files], wd)
    result.compile_s += time.perf_counter() - t0
    if r.returncode != 0:
        result.problems[-1] = [r.stderr]
        return False
    for line in r.stderr.splitlines():  # warnings: attribute them to a design when possible
        m = re.search(r"/d(\d+)\.v:|\bof \w+?_d(\d+)\b", line)
        key = int(m.group(1) or m.group(2)) if m else -1
        result.problems.setdefault(key, []).append(f"iverilog warning: {line}")
    t1 = time.perf_counter()
    r = run_tool(["vvp", "-n", os.path.join(wd, "sim.vvp")], wd)
    result.run_s += time.perf_counter() - t1
    for line in r.stdout.splitlines():
        if line.startswith("D"):
            words = line.split()
            result.rows[(int(words[0][1:]), int(words[1]))] = [hex_value(w) for w in words[2:]]
    return True


def hex_value(word: str) -> int | None:
    try:
        return int(word, 16)
    except ValueError:  # x or z digits
        return None


def compare(case: SimCase, result: SimResult) -> list[str]:
    """Every probe in every cycle: Icarus vs the evaluator."""
    out = list(result.problems.get(case.key, []))
    if out and (case.key, 0) not in result.rows:  # it did not compile: nothing to compare
        return out
    for t, cyc in enumerate(case.prep.cycles):
        row = result.rows.get((case.key, t))
        if row is None or len(row) != len(case.probes):
            out.append(f"cycle {t}: no output from the simulation")
            break
        for p, got in zip(case.probes, row):
            want = p.expected(cyc)
            if got != want:
                shown = "x/z" if got is None else hex(got)
                out.append(f"cycle {t}: {p.label}: Icarus {shown}, evaluator {hex(want)}")
        if len(out) >= 8:
            break
    return out


def sim_report(case: SimCase, problems: list[str]) -> str:
    head = f"design {case.key}" + (f" (design_from_seed({case.seed}))" if case.seed is not None else "")
    return "\n".join([f"==== {head}", report(case.prep, problems), "lowered Verilog:", case.verilog])


@dataclass
class Figures:
    designs: int = 0
    cycles: int = 0
    failures: list = field(default_factory=list)  # reports
    python_s: float = 0.0
    compile_s: float = 0.0
    run_s: float = 0.0
    features: collections.Counter = field(default_factory=collections.Counter)  # designs per feature


def sim_cases(seeds: list[int], n_cycles: int, start_key: int = 0, **gen_opts) -> list[SimCase]:
    cases = []
    for i, seed in enumerate(seeds):
        prep = prepare(design_from_seed(seed, **gen_opts), seed, n_cycles)
        cases.append(lower_case(prep, start_key + i, seed))
    return cases


def check_cases(cases: list[SimCase], n_cycles: int, figures: Figures) -> None:
    result = simulate(cases, n_cycles)
    figures.compile_s += result.compile_s
    figures.run_s += result.run_s
    figures.failures += result.problems.get(-1, [])
    for c in cases:
        figures.designs += 1
        figures.cycles += len(c.prep.cycles)
        problems = compare(c, result)
        if problems:
            figures.failures.append(sim_report(c, problems))


def run_differential(n_designs: int, batch: int, n_cycles: int, first_seed: int, progress=None,
                     **gen_opts) -> Figures:
    """Designs from seeds first_seed.. : generate, lower, simulate in batches and compare.
    Icarus runs on one batch while Python prepares the next; `progress(figures)` after each."""
    from concurrent.futures import ThreadPoolExecutor
    figures = Figures()
    pending = None
    with ThreadPoolExecutor(max_workers=1) as pool:
        for start in range(0, n_designs, batch):
            t0 = time.perf_counter()
            seeds = list(range(first_seed + start, first_seed + min(start + batch, n_designs)))
            cases = sim_cases(seeds, n_cycles, start, **gen_opts)
            figures.python_s += time.perf_counter() - t0
            if pending is not None:
                pending.result()
                progress and progress(figures)
            pending = pool.submit(check_cases, cases, n_cycles, figures)
        if pending is not None:
            pending.result()
            progress and progress(figures)
    return figures


needs_icarus = pytest.mark.skipif(not HAVE_ICARUS, reason="iverilog/vvp not installed")


@needs_icarus
def test_icarus_matches_evaluator():
    figures = run_differential(SIM_DESIGNS, SIM_BATCH, SIM_CYCLES, SIM_SEED)
    assert figures.designs == SIM_DESIGNS
    known = [(known_bug(f), f) for f in figures.failures]
    for bug in sorted({k for k, _ in known if k}):
        warnings.warn(f"{sum(k == bug for k, _ in known)} designs hit the known bug `{bug}`")
    new = [f for k, f in known if k is None]
    assert not new, f"{len(new)} designs disagree:\n\n" + "\n\n".join(new[:5])


# ---- Amaranth vs evaluator ----------------------------------------------------------------
#
# The third oracle: each design built as an Amaranth component (`sysr.amaranth`) and run by
# Amaranth's simulator (tests/amaranth_sim.py), outputs, registers, wires and memory words
# compared with the evaluator in every cycle. Designs alternate between the two reset
# mappings (even seeds: the reset is the clock domain's; odd seeds: it stays a port).

AM_DESIGNS = int(os.environ.get("SYSR_AMARANTH_DESIGNS", "40"))
AM_BATCH = int(os.environ.get("SYSR_AMARANTH_BATCH", "20"))
AM_SEED = int(os.environ.get("SYSR_AMARANTH_SEED", "3000"))


def amaranth_reset_mode(seed: int) -> str:
    return "domain" if seed % 2 == 0 else "port"


def features(system: E.System) -> set[str]:
    """What a design's logic (ghosts and properties left out) uses of the newer constructs:
    an asynchronous reset, `/`, `%`, a memory, registers without a reset value,
    power-up values, no reset port."""
    d = system.design
    out = {"async reset"} if d.reset_async and d.reset is not None else set()
    roots = [x for n, x in system.comb.items() if n not in system.comb_ghost]
    roots += [sv.next for sv in system.state if not sv.ghost and sv.next is not None]
    done: dict = {}
    for root in roots:
        for n in E.postorder(root, done):
            done[id(n)] = n
            if isinstance(n, E.Bin) and n.op in ("/", "%"):
                out.add(n.op)
    if any(sv.kind == "mem" for sv in system.state):
        out.add("memory")
    if any(not sv.ghost for sv in reset_less(system)):
        out.add("register without reset value")
    if any(not sv.ghost and sv.powerup is not None for sv in system.state):
        out.add("power-up value")
    if d.clock is not None and d.reset is None:
        out.add("no reset port")
    return out


def run_amaranth(n_designs: int, batch: int, n_cycles: int, first_seed: int, progress=None) -> Figures:
    """Designs from seeds first_seed.. : generate, build, simulate in batches and compare."""
    figures = Figures()
    for start in range(0, n_designs, batch):
        t0 = time.perf_counter()
        seeds = range(first_seed + start, first_seed + min(start + batch, n_designs))
        cases = [amaranth_sim.make_case(prepare(design_from_seed(s), s, n_cycles), s, amaranth_reset_mode(s))
                 for s in seeds]
        t1 = time.perf_counter()
        observed = amaranth_sim.simulate(cases, n_cycles)
        figures.python_s += t1 - t0
        figures.run_s += time.perf_counter() - t1
        for c in cases:
            figures.designs += 1
            figures.cycles += len(c.prep.cycles)
            figures.features.update(features(c.prep.system))
            problems = amaranth_sim.disagreements(c, observed)
            if problems:
                figures.failures.append(f"==== Amaranth, reset={c.reset} (design_from_seed({c.key}))\n"
                                        + report(c.prep, problems, c.key))
        progress and progress(figures)
    return figures


def test_amaranth_matches_evaluator():
    figures = run_amaranth(AM_DESIGNS, AM_BATCH, SIM_CYCLES, AM_SEED)
    assert figures.designs == AM_DESIGNS and figures.cycles == AM_DESIGNS * SIM_CYCLES
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
]


def known_bug(report: str) -> str | None:
    return next((b.id for b in KNOWN_BUGS if b.signature(report)), None)


def check_one(source: str, n_cycles: int = 12, corrupt=None, seed: int = 5) -> tuple[SimCase, list[str]]:
    """One design through prepare, lower, Icarus and compare: the case and its disagreements."""
    prep = prepare(Generated(source, "m"), seed, n_cycles)
    case = lower_case(prep, 0, None, corrupt=corrupt)
    return case, compare(case, simulate([case], n_cycles))


def harness_problems(source: str, n_cycles: int = 12, corrupt=None, seed: int = 5) -> list[str]:
    return check_one(source, n_cycles, corrupt, seed)[1]


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


# An open disagreement in simulation (found by a run of 150 designs): in "domain" mode with an
# asynchronous reset, a register without a reset value (or with a power-up value) is a
# `reset_less` signal of the domain, whose processes Amaranth's simulator (0.5) runs when the
# reset rises: it takes its next value there, where sysr holds it. The circuit is right (its
# RTLIL has a plain `$dff` for such a register, an `$adff` for the others), the simulation is not.
# Moving them to the reset-less write domain of the memories makes them sample a delta cycle
# after the domain's registers changed, which is wrong too.
AMARANTH_OPEN_BUG = AmaranthBug(
    "held-register-steps-at-an-asynchronous-reset",
    "Amaranth's simulator steps a reset-less register of an asynchronous domain when its reset "
    "rises (the RTLIL's `$dff` does not)",
    "module m(clk: clock, arst_n: areset_n, a: in u8, q: out reg u8, p: out reg u8 initial 9) {\n"
    "  seq { q <= a; p <= a + 1; }\n}\n",
    ({"arst_n": 0, "a": 5}, {"arst_n": 1, "a": 6}, {"arst_n": 0, "a": 7}))


@pytest.mark.xfail(strict=True, reason=AMARANTH_OPEN_BUG.reason)
def test_amaranth_open_bug_reproducer():
    amaranth_reproduces(AMARANTH_OPEN_BUG, "domain")


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
        monkeypatch.setattr(sys.modules[__name__], "gated_clock", lambda case: False)
        bad = lower_case(prep, 1, None)
        assert any(expected in p for p in compare(bad, simulate([bad], 30))), compare(bad, simulate([bad], 30))
        return
    bad = lower_case(prep, 1, None, corrupt=corrupt)
    assert bad.verilog != clean.verilog.replace("m_d0", "m_d1"), "the corruption did not apply"
    result = simulate([clean, bad], 30)
    assert compare(clean, result) == []
    assert any(expected in p for p in compare(bad, result)), compare(bad, result)


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
