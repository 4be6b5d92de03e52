"""The z3 side of the differential tests: does the encoding the proofs use mean what the
evaluator computes?

`z3_disagreements` substitutes the evaluator's state and inputs of each cycle into the cycle
encoding (`sysr.smt.encode`) and checks that every comb value, property value and next state
simplifies to the evaluator's number; `unrolling_disagreements` checks that the constraints of
the prover's own unrolling (`Unrolling.init` and `.transition`) hold on the evaluator's run.
"""

from __future__ import annotations

import z3

from diff_prepare import Prepared
from sysr import elab as E
from sysr.evaluate import Cycle, Evaluator
from sysr.smt.encode import CycleEncoder, index_width, make_vars
from sysr.smt.prove import Unrolling
from sysr.types import mask

Z3_CYCLES = 12
UNROLL_CYCLES = 3  # the unrolling repeats one encoding per cycle: a few cycles check its wiring


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
    # in binary: `as_long` goes through a decimal string, which Python refuses past 4,300 digits
    # (the concatenation of every check of a design with wide buses is far longer)
    return int(got.as_binary_string() or "0", 2) if z3.is_bv_value(got) else None


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
