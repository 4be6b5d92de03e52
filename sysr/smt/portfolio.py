"""A second solver beside z3: Bitwuzla tries each one-shot query first, z3 decides what it does not.

Where each is strongest, measured on every design of the project (`benchmarks/portfolio.py`):
Bitwuzla decides the small queries of a small design in a few milliseconds where z3's one-shot
tactics take 15-30 (and each z3 query needs a context of its own, about 8 ms more), while z3 is
the one whose models the checker's traces are built from. So, with the portfolio on:

- a one-shot query (`sysr.smt.unroll.solve_alone`) goes to Bitwuzla first, within `SHARE` of the
  query's time; an `unsat` answer is the query's answer (a proof needs no model), and so is a
  `sat` answer where the caller needs no model (whether a property holds in any state at all);
- anything else (`sat` where a model is needed, or no answer within Bitwuzla's limits) goes to z3
  as before, so every counterexample, trace and lemma the checker derives from a model is z3's,
  identical whichever solver ran first;
- a query of a design that divides is z3's alone (its word-level attempt, `sysr.smt.words`,
  settles `/` and `%`; Bitwuzla took 3.5 times z3's time on examples/divider.sysr);
- a query limited by a count of z3's work (the ones that only save time, whose success must not
  depend on the machine's load: `sysr.smt.prove`) is limited in Bitwuzla by a count too: the
  number of times Bitwuzla asks whether to stop (`WORK`), which is the same for the same query on
  every run however loaded the machine is (15,291 calls for a 6x6 multiplier, run after run).

Bitwuzla reads the query as SMT-LIB 2 text that z3 prints; a query it cannot read (z3 prints
`(or x)` of one argument, which the standard does not allow) is z3's.

It is off by default: on the project's designs it does not pay overall. `benchmarks/portfolio.py`
(every task reference and example, in-process CPU time of the whole check): Bitwuzla decides each
query in about two thirds of z3's time, and the portfolio saves a quarter of the proofs' time on
the small designs (where z3's cost is mostly a context and a tactic per query), but costs up to
half again on the larger ones (icache, plic-lite, rv32i-ex: SMT-LIB text to print and parse, and
z3 again for every satisfiable query that needs a model), about the same in total. `choose("portfolio")`
(the command line's `--solver portfolio`, or `SYSR_SOLVER=portfolio` in the environment) turns
it on; without the `bitwuzla` package (`pip install 'sysr[portfolio]'`) it stays off.
"""

from __future__ import annotations

import os
import time

import z3

SHARE = 0.25  # of a query's time, for Bitwuzla
WORK = 20_000  # Bitwuzla's polls of its terminator for a query with a work limit (about 1 s)
SOLVERS = ("portfolio", "z3")

_choice = {"solver": os.environ.get("SYSR_SOLVER", "z3")}


def choose(solver: str) -> None:
    """Use the portfolio ("portfolio") or z3 alone ("z3")."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}: one of {', '.join(SOLVERS)}")
    _choice["solver"] = solver


def enabled() -> bool:
    if _choice["solver"] != "portfolio":
        return False
    try:
        import bitwuzla  # noqa: F401
    except ImportError:
        return False
    return True


def decide(terms: list, budget_s: float, counted: bool = False) -> str | None:
    """Bitwuzla's answer on the conjunction of `terms` within `budget_s` (and, when `counted`,
    within `WORK`): "sat", "unsat", or None when it cannot tell within its limits or cannot read
    the query."""
    import bitwuzla as bz
    if budget_s < 0.001:
        return None
    text = smtlib(terms)
    tm = bz.TermManager()
    options = bz.Options()
    options.set(bz.Option.TIME_LIMIT_PER, max(1, int(budget_s * 1000)))
    parser = bz.Parser(tm, options)
    try:
        parser.parse(text, True, False)
    except bz.BitwuzlaException:
        return None
    solver = parser.bitwuzla()  # kept while it runs: the terminator lives as long as it
    polls = _Polls(WORK) if counted else None
    if polls is not None:
        solver.configure_terminator(polls)
    res = solver.check_sat()
    if polls is not None and polls.stopped:
        return None
    return {bz.Result.SAT: "sat", bz.Result.UNSAT: "unsat"}.get(res)


class _Polls:
    """A terminator that stops Bitwuzla after a number of polls: a limit in work, not in time."""

    def __init__(self, limit: int) -> None:
        self.left = limit
        self.stopped = False

    def __call__(self) -> bool:
        self.left -= 1
        self.stopped = self.left < 0
        return self.stopped


def smtlib(terms: list) -> str:
    """The assertions as SMT-LIB 2 declarations and asserts, without `check-sat`."""
    ctx = terms[0].ctx
    s = z3.Solver(ctx=ctx)
    s.add(*(_one(t) for t in terms))
    return s.to_smt2().replace("(check-sat)", "")


def _one(t):
    """A top-level `or`/`and` of one argument is that argument (z3 prints it, SMT-LIB forbids it)."""
    while (z3.is_or(t) or z3.is_and(t)) and t.num_args() == 1:
        t = t.arg(0)
    return t


def budget(timeout_s: float, deadline: float | None) -> float:
    """Bitwuzla's share of a query's time, within the check's deadline (time.monotonic())."""
    share = timeout_s * SHARE
    if deadline is not None:
        share = min(share, (deadline - time.monotonic()) * SHARE)
    return share
