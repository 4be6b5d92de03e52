"""Covers and vacuity: conditions that some run from reset must reach within the depth.

After the proofs, `check_reach(prover)` asks, for each `cover e;` and, when every property of
the module is proven, for the condition `a` of each property written `a ==> b` (its
*antecedent*), whether it holds in some cycle from
reset within `--depth` cycles, under the `requires` (and, for a condition or cover with `prev`,
only where such a property is checked: after a cycle without reset).

- First random runs from reset on the evaluator (`sysr.smt.deeper.random_run`, counted runs
  of `depth` cycles): a condition they reach needs no solver.
- Then the bounded check from reset asks z3 cycle by cycle (`0..depth-1`) whether it can hold
  there, for what the runs did not reach, and for a cover the runs reached, in the cycles before
  the run's: the first cycle in which it can gives the shortest trace that reaches it.

Results: a cover reached is a property of kind `cover` with status `reached` and its trace (a
V010 note with the trace when `Options.cover_traces`); a cover not reachable within the depth is
V008 (an error: the design cannot do what the cover says it should, in that many cycles); a
condition that never holds within the depth is V009 (a warning: the property is proven but says
nothing there). A query the solver cannot decide leaves a cover `unknown` (V003) and a condition
unreported.
"""

from __future__ import annotations

import time

import z3

from ..diagnostics import Diagnostic, Severity, span_json
from ..elab import Prop
from .cone import state_cone
from .encode import truth

RUNS = 4


class Target:
    def __init__(self, prop: Prop, expr, what: str) -> None:
        self.prop = prop
        self.expr = expr  # bool IR that must hold in some cycle
        self.what = what  # "cover" or "antecedent"
        self.cycle: int | None = None
        self.trace = None
        self.status = "pending"  # reached, unreachable, unknown
        self.time_s = 0.0
        self.limit = 0  # the solver looks in cycles 0..limit-1
        self.found = None  # (cycle, run) of a random run that reached it


def check_reach(prover) -> list[dict]:
    """Covers and antecedents of `prover`'s design (after its proofs): diagnostics go to
    `prover.diags`; returns the covers' entries for the JSON `properties`."""
    depth = max(prover.opts.depth, 1) if prover.sys.state else 1
    targets = [Target(c, c.expr, "cover") for c in prover.sys.covers]
    if all(v.status == "proven" for v in prover.verdicts):  # (a rejected module: its failures first)
        targets += [Target(v.prop, v.prop.antecedent, "antecedent") for v in prover.verdicts
                    if v.prop.antecedent is not None]
    if not targets:
        return []
    if not prover.sys.assumes:
        by_runs(prover, targets, depth, depth)
    for tg in targets:  # a cover's trace is a shortest one: the solver looks before the run's cycle
        tg.limit = depth
        if tg.what == "cover" and tg.status == "reached":
            tg.limit, tg.status, tg.found = tg.cycle + 1, "pending", (tg.cycle, tg.run)
    by_solver(prover, [t for t in targets if t.status == "pending" and t.what == "cover"], depth)
    conditions(prover, [t for t in targets if t.status == "pending" and t.what == "antecedent"], depth)
    for t in targets:
        report(prover, t, depth)
    return [entry(prover, t) for t in targets if t.what == "cover"]


def by_runs(prover, targets: list[Target], depth: int, cycles: int) -> None:
    """Random runs from reset of `cycles` cycles (`sysr.smt.deeper.random_run`): a cover they
    reach before `depth` and a condition they reach at all are reached (with the run as the
    trace)."""
    from .deeper import OutOfTime, random_run
    ev = prover.ev
    deadline = time.monotonic() + 5.0  # a backstop: the runs are counted
    for seed in range(RUNS):
        run = []
        try:
            for t, cyc in enumerate(random_run(prover, 1000 + seed, cycles, deadline)):
                run.append(cyc)
                env = dict(cyc.state)
                env.update(cyc.inputs)
                for tg in targets:
                    if tg.status == "pending" and (t < depth or tg.what != "cover") and ev.eval(tg.expr, env):
                        tg.status, tg.cycle, tg.run = "reached", t, list(run)
                if all(tg.status != "pending" for tg in targets):
                    return  # (the rest of the run could only reach what is reached already)
        except OutOfTime:
            return
        if all(tg.status != "pending" for tg in targets):
            return


def by_solver(prover, targets: list[Target], depth: int) -> None:
    """The bounded check from reset for what the runs did not reach: shortest first."""
    un = prover.bmc_un
    for t in range(depth):
        for tg in [tg for tg in targets if tg.limit <= t]:  # its random run is a shortest one
            tg.status, (tg.cycle, tg.run) = "reached", tg.found
            targets.remove(tg)
        if not targets:
            return
        while prover.bmc_cycles <= t:
            if not prover.extend():
                for tg in targets:
                    tg.status = "unknown"
                return
        terms, contract = prover.terms_to(t)
        for tg in list(targets):
            t0 = time.perf_counter()
            goal = _holds(un, tg, t)
            res, model, _ = prover.decide(prover.bmc_init_terms + terms + contract, goal)
            tg.time_s += time.perf_counter() - t0
            if res == z3.sat:
                tg.status, tg.cycle = "reached", t
                tg.run = prover.replay(model, un, t, free_all=False)
                targets.remove(tg)
            elif res == z3.unknown:
                tg.status, tg.found = ("unknown", None) if tg.found is None else ("reached", tg.found)
                if tg.found is not None:
                    tg.cycle, tg.run = tg.found
                targets.remove(tg)
    for tg in targets:
        tg.status = "unreachable" if tg.found is None else "reached"
        if tg.found is not None:
            tg.cycle, tg.run = tg.found


def _holds(un, tg: Target, t: int):
    return truth(un.cycle(t).enc(tg.expr))


def conditions(prover, targets: list[Target], depth: int) -> None:
    """Whether the conditions the runs did not reach can hold in some cycle to the depth: one
    quick query (`Prover.decide`) over all of them and all the cycles, on the unrolling of their
    own cone of influence and the requirements' (the rest of the state cannot change them). No:
    they never hold (vacuous). A model: the conditions it makes hold are reached, the others
    stay undecided, as they do when the solver does not answer quickly: no warning then."""
    if not targets or prover.sys.assumes:  # (an instance's outputs are bounded by its contract)
        return
    un = prover.bmc_un
    reqs = [r for r in prover.sys.requires]
    cone = state_cone(prover.sys, [tg.expr for tg in targets] + [r.expr for r in reqs])
    terms = list(prover.bmc_init_terms)
    for t in range(depth):
        terms += (un.transition(t - 1, cone) if t else []) + un.valid(t, state_too=False)
        terms += [un.prop(r, t) for r in reqs]
    holds = {id(tg): [_holds(un, tg, t) for t in range(depth)] for tg in targets}
    t0 = time.perf_counter()
    res, model, _ = prover.decide(terms, z3.Or([h for tg in targets for h in holds[id(tg)]]), quick=True)
    for tg in targets:
        tg.time_s += (time.perf_counter() - t0) / len(targets)
    for tg in targets:
        if res == z3.unsat:
            tg.status = "unreachable"
        elif res == z3.sat and any(z3.is_true(model.eval(h, model_completion=True)) for h in holds[id(tg)]):
            tg.status = "reached"


def report(prover, tg: Target, depth: int) -> None:
    p = tg.prop
    text = prover.snippet(p.text_span or p.span)
    if tg.status == "reached" and tg.what == "cover":
        tg.trace = prover.make_trace(f"trace from reset (cycle 0 is the reset state; `>` marks cycle {tg.cycle}, "
                                     "where the cover holds):", tg.run, tg.cycle)
        if getattr(prover.opts, "cover_traces", False):
            prover.diags.append(Diagnostic("V010", f"`cover {text}` is reached in cycle {tg.cycle} of this trace "
                                                   "from reset", p.span, Severity.NOTE, (), (), tg.trace))
    elif tg.status == "unreachable" and tg.what == "cover":
        prover.diags.append(Diagnostic(
            "V008", f"`cover {text}` is not reachable within {depth} cycles from reset", p.span, Severity.ERROR,
            (f"no run from reset that meets the `requires` makes it hold in cycles 0 to {depth - 1}: the design "
             "cannot do what the cover says it should; fix the design or the cover, or raise --depth if it "
             "needs more cycles",)))
    elif tg.status == "unknown" and tg.what == "cover":
        prover.diags.append(Diagnostic(
            "V003", f"not proven: the solver gave up on whether `cover {text}` is reachable", p.span, Severity.ERROR,
            (f"raise --timeout (now {prover.opts.timeout:g} s), or simplify the cover",)))
    elif tg.status == "unreachable":
        cond = prover.snippet(p.antecedent_span)
        prover.diags.append(Diagnostic(
            "V009", f"`{p.kind} {text}` is proven, but its condition `{cond}` never holds within {depth} "
                    "cycles from reset", p.span, Severity.WARNING,
            ("the property says nothing in those cycles (it holds vacuously): check the condition against the "
             "design and the `requires` (or raise --depth if it needs more cycles); a `cover` of the condition "
             "states that it must be reachable",)))


def entry(prover, tg: Target) -> dict:
    p = tg.prop
    item = {"kind": "cover", "text": prover.snippet(p.text_span or p.span), "span": span_json(p.span),
            "status": tg.status, "depth": (tg.cycle + 1) if tg.cycle is not None else prover.opts.depth,
            "time_s": round(tg.time_s, 4)}
    if tg.trace is not None:
        item["trace"] = tg.trace.to_json()
    return item
