"""Failures first: what happens to the properties that induction could not prove, before any of
them is reported as V007.

A property that induction cannot prove is either true but not provable from the other
properties (V007) or false in some cycle from reset, perhaps later than `--depth` (a mod-60
counter's wrap, the last bit of a long frame). `after_induction` looks for the real failure
first, within a time budget, so that it comes back as V002 with its trace:

1. **A hunt by simulation** (`hunt`): runs from reset on the concrete evaluator, with random
   inputs within the `requires` (`sysr.sim.inputs`), up to `MAX_FACTOR` times the depth, for at
   most `HUNT_SHARE` of the time the proofs took so far (at least `HUNT_MIN_S`). Cheap, and it
   reaches deep cycles that an unrolling from reset reaches only at great cost (a counter that
   must count to 60 is a hard unsatisfiable problem for every shorter unrolling).
2. When the hunt breaks a property in cycle t: within the depth, the bounded check from reset
   runs from cycle k up to t, shortest counterexample first, as for any property; past the depth,
   z3 is asked for a failure before t (`shorten`, each query limited by a count of z3's work),
   and the trace shown is the shortest found: a real run from reset either way.
3. When it does not: the bounded check to `--depth` as always, and then `deeper`, windows of
   cycles past the depth (depth..2·depth-1, then twice as long) asked of z3 while the budget lasts
   (`BUDGET_SHARE` of the time so far, at least `MIN_BUDGET_S`).

The search stops at the first failure: the other properties left are reported under it
(`sysr.smt.grouping`), since a property that fails cannot serve as a lemma and they are usually
its consequences. Only modules without instances are hunted and searched deeper (an instance's
contract is not a run of its logic); those with instances keep the bounded check to the depth.
"""

from __future__ import annotations

import random
import time

import z3

MAX_FACTOR = 8  # runs and windows go to at most MAX_FACTOR times --depth
HUNT_RUNS = 8
HOLDS = (0.97, 0.3, 0.8, 0.5)  # per run: how often an input keeps its last value
HUNT_MIN_S = 1.0  # a backstop: the hunt's runs are counted, this only stops a slow evaluator
HUNT_SHARE = 0.5
SHORTEN_WORK = 4_000_000  # z3's resource units for each query of `shorten` (a count, not a time)
MIN_BUDGET_S = 1.0  # the deeper z3 search may always take this long ...
BUDGET_SHARE = 1.0  # ... or this share of the time the module's proofs took before it
RESET_RATE = 0.01


def after_induction(prover, pending_idx: list[int], k: int, depth: int, started: float) -> bool:
    """The search from reset for the properties `pending_idx` that induction could not prove.
    False when the requirements cannot be met (V001; nothing else is meaningful then)."""
    pending = [prover.verdicts[i] for i in pending_idx if prover.verdicts[i].status == "proven"]
    if not pending:
        return True
    if any(v.status == "refuted" for v in prover.verdicts) or prover.sys.assumes:
        if prover.sys.assumes and not any(v.status == "refuted" for v in prover.verdicts):
            return stepwise(prover, pending_idx, k, depth)
        return True  # a failure is known: these are reported under it
    elapsed = time.perf_counter() - started
    found = hunt(prover, pending, depth * MAX_FACTOR, max(HUNT_MIN_S, HUNT_SHARE * elapsed))
    if found is not None and found[0] < depth:  # the bounded check finds a shortest one
        return stepwise(prover, pending_idx, k, found[0] + 1)
    if found is not None:
        t, cycles = found
        budget = max(MIN_BUDGET_S, BUDGET_SHARE * elapsed)
        t, cycles = shorten(prover, pending, k, t, cycles, time.monotonic() + budget)
        report(prover, pending, t, cycles)
        return True
    if not stepwise(prover, pending_idx, k, depth):
        return False
    pending = [v for v in pending if v.status == "proven"]
    if pending and not any(v.status == "refuted" for v in prover.verdicts):
        elapsed = time.perf_counter() - started
        deeper(prover, pending, depth, max(MIN_BUDGET_S, BUDGET_SHARE * elapsed))
    return True


def stepwise(prover, pending_idx: list[int], start: int, stop: int) -> bool:
    """The prover's bounded check, cycle by cycle, until the first cycle in which one fails."""
    for t in range(start, stop):
        if not prover.bmc(t, t + 1, pending_idx):
            return False
        if any(prover.verdicts[i].status == "refuted" for i in pending_idx):
            break
    return True


def hunt(prover, pending: list, cycles: int, budget_s: float):
    """Random runs from reset, `HUNT_RUNS` of at most `cycles` cycles each: (the earliest cycle in
    which one of `pending` fails in any of them, that run up to it), or None. The runs differ in
    how long inputs hold their values (`HOLDS`: a counter's enable held high reaches its wrap
    soonest). Their seeds are fixed, so the result depends on the design alone, unless the time
    budget (a backstop for designs slow to evaluate) cuts the hunt short."""
    from ..sim.inputs import InputChooser, NoInputs, reset_port
    deadline = time.monotonic() + budget_s
    ev = prover.ev
    index = [prover.verdicts.index(v) for v in pending]
    width = {sv.name: sv.ty.width for sv in prover.sys.state}
    best = None
    for seed in range(HUNT_RUNS):
        rng = random.Random(seed)
        chooser = InputChooser(prover.sys, ev, rng, reset_port(prover.d), RESET_RATE, HOLDS[seed % len(HOLDS)])
        state = ev.initial_state(lambda name, i: rng.getrandbits(width[name]),
                                 lambda name: rng.getrandbits(width[name]))
        run, last = [], None
        for t in range(cycles if best is None else best[0]):
            if time.monotonic() >= deadline:
                return best
            try:
                ins = chooser.choose(state, {}, last)
            except NoInputs:
                break
            if chooser.requires_hold(state, ins):
                break
            cyc, state = ev.step(state, ins)
            run.append(cyc)
            last = ins
            if any(cyc.props[i] == 0 for i in index):
                best = (t, run)
                break
            if not all(cyc.props):
                break  # another property failed first: not this hunt's business
    return best


def first_failure(prover, pending: list, model, t_hi: int):
    """Replay a model of the unrolling to `t_hi`: (the first cycle in which one of `pending`
    fails, the run up to it), or (None, None)."""
    cycles = prover.replay(model, prover.bmc_un, t_hi, free_all=False)
    index = [prover.verdicts.index(v) for v in pending]
    for t, cyc in enumerate(cycles):
        if any(cyc.props[i] == 0 for i in index):
            return t, cycles[:t + 1]
    return None, None


def query(prover, pending: list, lo: int, hi: int, deadline: float, work: int | None = None):
    """Whether one of `pending` fails in a cycle of lo..hi-1 from reset: (result, model); result
    None when the requirements cannot be met (V001 reported)."""
    from .unroll import solve_alone
    while prover.bmc_cycles < hi:
        if not prover.extend():
            return None, None
    un = prover.bmc_un
    terms, contract = prover.terms_to(hi - 1)
    goal = z3.Or([z3.Not(un.prop(v.prop, t)) for t in range(lo, hi) for v in pending])
    left = min(prover.opts.timeout, max(0.01, deadline - time.monotonic()))
    t0 = time.perf_counter()
    res, model, _ = solve_alone(prover.bmc_init_terms + terms + contract + [goal], left, prover.divides, work)
    for v in pending:
        v.time_s += (time.perf_counter() - t0) / len(pending)
    return res, model


def shorten(prover, pending: list, lo: int, t: int, cycles, deadline: float):
    """A failure in cycle t (at or past `lo`): ask z3 for one in lo..t-1 while the budget lasts."""
    while t > lo and time.monotonic() < deadline:
        res, model = query(prover, pending, lo, t, deadline, SHORTEN_WORK)
        if res != z3.sat:
            break
        t2, run = first_failure(prover, pending, model, t - 1)
        if t2 is None or t2 >= t:
            raise RuntimeError("a counterexample of the deeper search does not replay")
        t, cycles = t2, run
    return t, cycles


def report(prover, pending: list, t: int, cycles) -> None:
    """V002 for each property of `pending` that fails in cycle t of the run (one trace)."""
    first = None
    for v in pending:
        if cycles[t].props[prover.verdicts.index(v)] == 0:
            v.depth = t + 1
            prover.refuted(v, cycles, t, first)
            first = first or v


def deeper(prover, pending: list, start: int, budget_s: float) -> None:
    """Windows of cycles past the bounded depth, each asked of z3 while the budget lasts."""
    deadline = time.monotonic() + budget_s
    lo, limit = start, start * MAX_FACTOR
    while lo < limit and time.monotonic() < deadline:
        hi = min(limit, lo * 2)
        res, model = query(prover, pending, lo, hi, deadline)
        if res == z3.unsat:
            for v in pending:
                v.depth = hi
            lo = hi
            continue
        if res == z3.sat:
            t, run = first_failure(prover, pending, model, hi - 1)
            if t is None:
                raise RuntimeError("a counterexample of the deeper search does not replay")
            report(prover, pending, *shorten(prover, pending, lo, t, run, deadline))
        break
