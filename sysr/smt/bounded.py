"""Solvers that always come back with an answer: a per-query timeout within the check's deadline,
z3's failures turned into "unknown" with the reason, and z3 running out of memory turned into a
MemoryError (which the pipeline reports as L008).

`unroll.make_solver` builds every solver as a `BoundedSolver`. One made for a design that
divides first tries, on a query without assumptions, the word-level attempt of `sysr.smt.words`
(within the same budget, on a copy of the query in a context of its own, so that where its time
limit cuts it off cannot change the query the solver then decides), which settles the algebra of
`/` and `%` before anything is bit-blasted. `proofs(t, limit)` sets, for the
proofs running on this thread, the `time.monotonic()` by which every query must end; a query
asked after it is unknown at once, and `reason_unknown()` then says why in words that fit a
V003 message. Within `proofs`, z3's memory is capped below the process's address-space limit
(when there is one), so that z3 fails a query instead of the process failing. When z3 reaches
that cap the cap is lifted first, so that freeing z3's objects (which allocates) cannot fail,
and the proofs stop: a design that exhausts the solver's memory is reported, not half-proven.
"""

from __future__ import annotations

import contextlib
import contextvars
import time

import z3

from .. import limits
from . import contexts, words

_DEADLINE: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar("sysr_deadline",
                                                                                        default=None)
MEMORY_SHARE = 0.6  # of the address space left when the proofs start


@contextlib.contextmanager
def proofs(at: float | None, time_limit: float):
    """Within the block, queries end by `at` (time.monotonic()), `time_limit` is for messages,
    and z3's memory is capped."""
    token = _DEADLINE.set((at, time_limit) if at is not None else None)
    _cap_memory()
    try:
        yield
    finally:
        _DEADLINE.reset(token)
        lift_memory_cap()


def deadline() -> float | None:
    """The `time.monotonic()` by which the proofs on this thread must end, if any."""
    limit = _DEADLINE.get()
    return None if limit is None else limit[0]


def out_of_memory(e: BaseException) -> bool:
    """Whether an exception is z3 reporting that it ran out of memory."""
    text = str(e).lower()
    return isinstance(e, z3.Z3Exception) and ("memory" in text or "bad_alloc" in text)


def lift_memory_cap() -> None:
    z3.set_param("memory_max_size", 0)  # 0: no cap


def _exhausted() -> None:
    lift_memory_cap()
    raise MemoryError("z3 ran out of memory")


def _cap_memory() -> None:
    """Cap z3's memory at a share of the address space left, when the process has a limit."""
    limit = limits.memory_limit_bytes()
    if limit is None:
        return
    try:
        with open("/proc/self/statm") as f:
            used = int(f.read().split()[0]) * 4096
    except (OSError, ValueError, IndexError):
        used = limit // 4
    z3.set_param("memory_max_size", max(64, int((limit - used) * MEMORY_SHARE) >> 20))


class BoundedSolver(z3.Solver):
    """A z3 solver whose `check` honours the deadline and never raises for z3's own failures."""

    def __init__(self, ctx: z3.Context, logic: str | None, timeout_s: float, divides: bool = False,
                 tactic: z3.Tactic | None = None) -> None:
        if tactic is not None:  # a one-shot solver: this tactic decides each query
            native = z3.Z3_mk_solver_from_tactic(ctx.ref(), tactic.tactic)
        else:
            native = z3.Z3_mk_solver_for_logic(ctx.ref(), z3.to_symbol(logic, ctx)) if logic else None
        super().__init__(native, ctx)
        self.timeout_s = timeout_s
        self.divides = divides  # try `words.refuted` first
        self.why: str | None = None
        self.set("timeout", max(1, int(timeout_s * 1000)))

    def check(self, *assumptions):
        self.why = None
        limit = _DEADLINE.get()
        budget = self.timeout_s
        if limit is not None:
            left = limit[0] - time.monotonic()
            if left <= 0.01:
                self.why = f"the check's time limit of {limit[1]:g} s ran out before this query (--time-limit)"
                return z3.unknown
            budget = min(budget, left)
        if self.divides and not assumptions and self.word_level(budget):
            return z3.unsat
        self.set("timeout", max(1, int(budget * 1000)))
        try:
            res = super().check(*assumptions)
        except z3.Z3Exception as e:
            if out_of_memory(e):
                _exhausted()
            self.why = f"the solver failed: {e}"
            return z3.unknown
        if res == z3.unknown and "memory" in super().reason_unknown():
            _exhausted()
        if res == z3.unknown and budget < self.timeout_s and super().reason_unknown() in ("timeout", "canceled"):
            self.why = f"the check's time limit of {limit[1]:g} s ran out during this query (--time-limit)"
        return res

    def word_level(self, budget: float) -> bool:
        """Whether `sysr.smt.words` finds the query unsatisfiable (False when it cannot tell). It
        works on a copy in a context of its own: where its time limit cuts it off must not change
        the terms (and so the model) of the query that the solver then decides."""
        own = contexts.fresh()
        try:
            return words.refuted([a.translate(own) for a in self.assertions()], own, budget)
        except z3.Z3Exception as e:
            if out_of_memory(e):
                _exhausted()
            return False  # out of its time: the solver decides

    def reason_unknown(self) -> str:
        return self.why or super().reason_unknown()
