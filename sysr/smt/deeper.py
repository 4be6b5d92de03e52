"""Failures first: what happens to the properties that induction could not prove, before any of
them is reported as V007.

A property that induction cannot prove is either true but not provable from the other
properties (V007) or false in some cycle from reset, perhaps later than `--depth` (a mod-60
counter's wrap, the last bit of a long frame). `after_induction` looks for the real failure
first, so that it comes back as V002 with its trace:

1. **A hunt by simulation** (`hunt`): `HUNT_RUNS` runs from reset on the concrete evaluator,
   with random inputs within the `requires` (`sysr.sim.inputs`), each up to `MAX_FACTOR` times
   the depth, advancing together a cycle at a time until the first failure in any of them. The
   runs differ in how long inputs keep their values (`HOLDS`: a counter's enable held high
   reaches its wrap soonest).
   Cheap, and it reaches deep cycles that an unrolling from reset reaches only at great cost (that
   a counter cannot reach 60 in fewer cycles is a hard problem for a SAT solver at every depth).
2. A failure the hunt finds is reported at once, with the earliest of its runs as the trace (a
   real run from reset, replayed like every trace; not always the shortest possible).
3. Otherwise **the bounded check** from reset, cycle by cycle from k, up to the depth, stopping
   at the first cycle in which a property fails (shortest first, as for every property).

The hunt is counted (runs, cycles), never timed, so what it finds depends on the design and the
options alone; a time backstop (`BACKSTOP_S`, or as long as the proofs took so far) only stops a
design that is very slow to evaluate. The search stops at the first failure: the other
properties left are reported under it (`sysr.smt.grouping`), since a property that fails cannot
serve as a lemma and they are usually its consequences. Modules with instances keep the bounded
check to the depth (an instance's contract is not a run of its logic).
"""

from __future__ import annotations

import random
import time

MAX_FACTOR = 8  # hunting runs go to at most MAX_FACTOR times --depth
HUNT_RUNS = 16
HOLDS = (0.97, 0.3, 0.8, 0.5)  # per run: how often an input keeps its last value
BACKSTOP_S = 5.0
RESET_RATE = 0.01


def after_induction(prover, pending_idx: list[int], k: int, depth: int, started: float) -> bool:
    """The search from reset for the properties `pending_idx` that induction could not prove.
    False when the requirements cannot be met (V001; nothing else is meaningful then)."""
    pending = [prover.verdicts[i] for i in pending_idx if prover.verdicts[i].status == "proven"]
    if not pending or any(v.status == "refuted" for v in prover.verdicts):
        # Nothing to search, or a failure is known (these are reported under it): the requirements
        # must still be met in every cycle to the depth (V001).
        return prover.bmc(k, depth, [])
    found = None
    if not prover.sys.assumes:
        elapsed = time.perf_counter() - started
        found = hunt(prover, pending, depth * MAX_FACTOR, max(BACKSTOP_S, elapsed))
        if found is None:
            prover.hunted = prover.hunted_to  # for the V007's note: how far the runs went
    if found is not None:
        # A real run (the requirements hold in each of its cycles, so they can be met that far:
        # no V001); its cycle is the earliest of the runs
        report(prover, pending, *found)
        return True
    return stepwise(prover, pending_idx, k, depth)


def stepwise(prover, pending_idx: list[int], start: int, stop: int) -> bool:
    """The prover's bounded check, cycle by cycle, until the first cycle in which one fails."""
    for t in range(start, stop):
        if not prover.bmc(t, t + 1, pending_idx):
            return False
        if any(prover.verdicts[i].status == "refuted" for i in pending_idx):
            break
    return True


def hunt(prover, pending: list, cycles: int, budget_s: float):
    """Random runs from reset (`random_run`), `HUNT_RUNS` of at most `cycles` cycles each: (the
    earliest cycle in which one of `pending` fails in any of them, that run up to it), or None.
    The runs differ in how long inputs hold their values (`HOLDS`: a counter's enable held high
    reaches its wrap soonest). They advance together, a cycle of each in turn, so the search stops
    at the earliest failure (the first run in seed order among those failing in that cycle) after
    at most `HUNT_RUNS` times that many cycles. Their seeds are fixed, so the result depends on
    the design alone, unless the time budget (a backstop for designs slow to evaluate) cuts the
    hunt short."""
    deadline = time.monotonic() + budget_s
    index = [prover.verdicts.index(v) for v in pending]
    prover.hunted_to = 0  # the cycles every run went through without a failure
    runs = [[] for _ in range(HUNT_RUNS)]
    live = {seed: random_run(prover, seed, cycles, deadline) for seed in range(HUNT_RUNS)}
    try:
        for t in range(cycles):
            for seed, steps in list(live.items()):
                cyc = next(steps, None)
                if cyc is None:  # no input meets the requires: the run ends
                    del live[seed]
                    continue
                runs[seed].append(cyc)
                if any(cyc.props[i] == 0 for i in index):
                    return t, runs[seed]
                if not all(cyc.props):
                    del live[seed]  # another property failed first: not this hunt's business
    except OutOfTime:
        return None
    prover.hunted_to = min(len(run) for run in runs)
    return None


class OutOfTime(Exception):
    """A random run reached its deadline (a backstop: the runs are counted)."""


def random_run(prover, seed: int, cycles: int, deadline: float):
    """The cycles of one random run from reset on the concrete evaluator, up to `cycles` of them:
    inputs random within the `requires` (`sysr.sim.inputs`, holding their values at the rate
    `HOLDS[seed]`), power-up values random, each drawn from this run's own generator, seeded by
    `seed` (a memory's words are drawn when first read, even after the run). Ends early when no
    input meets the `requires`; raises `OutOfTime` at the deadline. The hunt here and the covers'
    runs (`sysr.smt.reach`) both run these."""
    from ..sim.inputs import InputChooser, NoInputs, reset_ports
    ev = prover.ev
    rng = random.Random(seed)
    width = {sv.name: sv.ty.width for sv in prover.sys.state}
    chooser = InputChooser(prover.sys, ev, rng, reset_ports(prover.d), RESET_RATE, HOLDS[seed % len(HOLDS)])
    state = ev.initial_state(lambda name, i: rng.getrandbits(width[name]), lambda name: rng.getrandbits(width[name]))
    last = None
    for _ in range(cycles):
        if time.monotonic() >= deadline:
            raise OutOfTime
        try:
            ins = chooser.choose(state, {}, last)
        except NoInputs:
            return
        if chooser.requires_hold(state, ins):
            return
        cyc, state = ev.step(state, ins)
        last = ins
        yield cyc


def report(prover, pending: list, t: int, cycles) -> None:
    """V002 for each property of `pending` that fails in cycle t of the run (one trace)."""
    first = None
    for v in pending:
        if cycles[t].props[prover.verdicts.index(v)] == 0:
            v.depth = t + 1
            prover.refuted(v, cycles, t, first)
            first = first or v
