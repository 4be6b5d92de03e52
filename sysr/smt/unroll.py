"""The solver factory and the unrolling of a transition system into z3 terms, cycle by cycle."""

from __future__ import annotations

import os

import z3

from .. import elab as E
from .bounded import BoundedSolver
from .encode import CycleEncoder, arrays_equal, enum_valid, make_vars, truth

SOLVER_LOGIC = os.environ.get("SYSR_SOLVER_LOGIC", "QF_ABV") or None


def make_solver(timeout_s: float, ctx: z3.Context | None = None, divides: bool = False) -> z3.Solver:
    """The one place solvers are made: a fresh context (unless one is given), fixed seeds and a
    per-query timeout within the check's deadline (`sysr.smt.bounded`), so that verdicts and
    traces do not depend on what ran before. `divides`: the design has `/` or `%`, and each
    query is first tried at the word level (`sysr.smt.words`)."""
    s = BoundedSolver(ctx or z3.Context(), SOLVER_LOGIC, timeout_s, divides)
    s.set("random_seed", 0)
    return s


class Unrolling:
    """Cycles 0..n of the system as z3 terms, built on demand."""

    def __init__(self, system: E.System, tag: str, ctx: z3.Context) -> None:
        self.sys = system
        self.tag = tag
        self.ctx = ctx
        self.vars: list[dict] = []
        self.encs: list[CycleEncoder] = []

    def cycle(self, t: int) -> CycleEncoder:
        while len(self.encs) <= t:
            v = make_vars(self.sys, f"{self.tag}{len(self.vars)}", self.ctx)
            self.vars.append(v)
            self.encs.append(CycleEncoder(self.sys, v, self.ctx))
        return self.encs[t]

    def transition(self, t: int, names: set[str] | None = None) -> list:
        """Cycle t to t+1, of every state variable or of those in `names`."""
        cur, nxt = self.cycle(t), self.cycle(t + 1)
        return [arrays_equal(nxt.vars[sv.name], cur.enc(sv.next)) for sv in self.sys.state
                if names is None or sv.name in names]

    def init(self) -> list:
        enc = self.cycle(0)
        out = []
        for sv in self.sys.state:
            if sv.init is None:
                continue
            if sv.size is not None:
                enc_init = enc.enc(E.ConstArr(sv.init, sv.ty, sv.size))
                out.append(arrays_equal(enc.vars[sv.name], enc_init))
            else:
                out.append(enc.vars[sv.name] == enc.bv(sv.init, sv.ty.width))
        return out

    def valid(self, t: int, state_too: bool) -> list:
        enc = self.cycle(t)
        out = [enum_valid(enc.vars[n], ty, self.sys) for n, ty in self.sys.enum_inputs]
        if state_too:  # only the registers that hold a variant in every reachable state
            for sv in self.sys.state:
                if sv.name in self.sys.enum_state:
                    out.append(enum_valid(enc.vars[sv.name], sv.ty, self.sys))
        return out

    def prop(self, p: E.Prop, t: int):
        return truth(self.cycle(t).enc(p.expr))
