"""The solver factory and the unrolling of a transition system into z3 terms, cycle by cycle."""

from __future__ import annotations

import os

import z3

from .. import elab as E
from . import contexts, portfolio, strategy
from .bounded import BoundedSolver, deadline
from .encode import CycleEncoder, arrays_equal, enum_valid, make_vars, truth

SOLVER_LOGIC = os.environ.get("SYSR_SOLVER_LOGIC", "QF_ABV") or None


def make_solver(timeout_s: float, ctx: z3.Context | None = None, divides: bool = False,
                one_shot: bool = False, work: int | None = None) -> z3.Solver:
    """The one place solvers are made: a fresh context (unless one is given), fixed seeds and a
    per-query timeout within the check's deadline (`sysr.smt.bounded`). `one_shot`: for queries
    without assumptions, decided by `sysr.smt.strategy` (whatever memory the process holds);
    otherwise z3's incremental solver for the logic. `divides`: the design has `/` or `%`, and
    each query is first tried at the word level (`sysr.smt.words`). `work`: a limit in z3's
    resource units besides the timeout (the same on a loaded machine as on an idle one)."""
    ctx = ctx or contexts.fresh()
    s = BoundedSolver(ctx, SOLVER_LOGIC, timeout_s, divides, strategy.one_shot(ctx) if one_shot else None)
    s.set("random_seed", 0)
    if work is not None:
        s.set("rlimit", work)
    return s


def solve_alone(terms: list, timeout_s: float, divides: bool = False, work: int | None = None,
                need_model: bool = True):
    """Whether the conjunction of `terms` is satisfiable, decided in a context of its own: (result,
    model in the terms' context or None, reason when unknown). The query is a copy of the terms,
    so its answer and model depend on the terms alone: not on what the terms' context saw before
    (z3 numbers its terms in the order they are made, and that numbering steers its choices).
    With the portfolio on, Bitwuzla tries the query first (with a work limit of its own where the
    query has one); its `unsat` is taken, and its `sat` when the caller does not `need_model`
    (the model is then None); every model is z3's (`sysr.smt.portfolio`)."""
    if portfolio.enabled() and not divides:  # z3's word-level attempt decides divisions (Bitwuzla is slow on them)
        got = portfolio.decide(terms, portfolio.budget(timeout_s, deadline()), work is not None)
        if got == "unsat" or (got == "sat" and not need_model):
            return (z3.unsat if got == "unsat" else z3.sat), None, ""
    home = terms[0].ctx
    own = contexts.fresh()
    s = make_solver(timeout_s, own, divides, one_shot=True, work=work)
    s.add(*(t.translate(own) for t in terms))
    res = s.check()
    model = s.model().translate(home) if res == z3.sat else None
    return res, model, (s.reason_unknown() if res == z3.unknown else "")


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
                if sv.powerup is not None:  # a register without a reset value starts at its power-up value
                    out.append(enc.vars[sv.name] == enc.bv(sv.powerup, sv.ty.width))
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
