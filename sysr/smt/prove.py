"""Proof obligations and their verdicts: vacuity, bounded model checking from reset, k-induction.

`verify(design, options, source)` elaborates the design, then
1. checks that the `requires` can hold in every cycle up to the depth (V001 with an unsat core;
   one incremental solver over the requirements' own cone of influence, and cycle 0 alone when
   they read no state, since then every cycle is the same constraint on fresh inputs),
2. checks every property in cycle 0 from reset, settles those that hold one cycle after any
   state (in any state when k is 1; all in one query where they hold together), checks the rest
   from reset up to cycle k-1 (V002, the shortest counterexample first, each trace replayed on
   the concrete evaluator before it is shown),
3. runs k-induction with the properties as lemmas, dropping lemmas that a counterexample breaks
   until the rest prove each other, then searches from reset for the properties left, by random
   runs up to 8 times the depth and the bounded check to the depth (`sysr.smt.deeper`: a real
   counterexample, V002, or else V007 with a counterexample to induction),
and reports a solver that gives up as V003, never as proven or refuted: that includes a query
past the check's time limit and z3 failing (see `sysr.smt.bounded`). Every property query
goes to a solver of its own (`decide`), in a context of its own, decided by the tactic of
`sysr.smt.strategy`: z3's one-shot bit-vector tactics decide these much faster than its
incremental core, which only the vacuity checks (unsat cores) use. In a design that divides,
each such query is first tried at the word level (`sysr.smt.words`).

Verdicts and traces depend on the design and the options alone, not on what the process did
before or how loaded the machine is: each query is a copy of its terms in a fresh context (z3's
choices follow the order its terms were made in), its tactic does not look at the memory the
process holds, and the queries that only save time when they succeed are limited by a count of
z3's work (`QUICK_WORK`) well before their time limit. The user's --timeout and --time-limit are
times: what they cut off is V003.
"""

from __future__ import annotations

import time

import z3

from .. import elab as E
from ..diagnostics import Diagnostic, error
from ..evaluate import Evaluator
from ..model import Design
from .bounded import proofs
from .cone import state_cone
from .deeper import after_induction
from .reach import check_reach
from .induction import Induction
from .traces import Reporting
from .unroll import Unrolling, make_solver, solve_alone
from .verdicts import Goal, Verdict, VerifierBug

__all__ = ["Goal", "Prover", "QUICK_S", "QUICK_WORK", "Verdict", "VerifierBug", "Unrolling", "verify"]


# A query that only saves time when it succeeds (`settle`, and the induction query over several
# properties at once) stops after `QUICK_WORK` of z3's resource units: a count, so that which of
# these succeed, and so every later query and its counterexample, does not depend on how loaded
# the machine is. On the project's designs their queries need at most 2.5 million units (z3 does
# 3 to 17 million a second on the 2-core machine). `QUICK_S` is only a backstop, for queries whose
# bit-blasting z3 barely counts (wide multipliers): then it gives up after that time, as before.
QUICK_WORK = 3_000_000
QUICK_S = 2.0


class Prover(Reporting, Induction):
    """The proofs of one module's properties: the bounded checks from reset are here, the
    induction in `sysr.smt.induction`, the traces and diagnostics in `sysr.smt.traces`."""

    def __init__(self, design: Design, options, source: str, system: E.System | None = None) -> None:
        self.d = design
        self.opts = options
        self.lines = source.splitlines()
        self.sys = system if system is not None else E.elaborate(design, "contract")
        self.divides = any(r.kind == "lemma" for r in self.sys.requires)  # the design has `/` or `%`
        self.ev = Evaluator(self.sys)
        self.diags: list[Diagnostic] = []
        self.verdicts = [Verdict(p) for p in self.sys.props]
        for p in [v.prop for v in self.verdicts] + self.sys.requires:
            if p.kind == "index":
                p.text = f"{p.what} `{self.snippet(p.span)}` (valid: 0 to {p.limit - 1})"
            elif p.kind == "divisor":
                p.text = f"divisor `{self.snippet(p.span)}` of `{self.snippet(p.text_span)}`"
            elif p.kind == "lemma":
                p.text = "the identities of `/` and `%`"
            elif not p.text:
                p.text = self.snippet(p.text_span or p.span)

    # ---- the queries ---------------------------------------------------------------------
    def run(self) -> tuple[list[Diagnostic], list[dict]]:
        """Base case from reset to k, then k-induction, then a search from reset for the properties
        induction could not prove (a real counterexample, or else V007: `sysr.smt.deeper`)."""
        started = time.perf_counter()
        k = E.induction_depth(self.sys, self.opts.induction)
        depth = max(self.opts.depth, k)
        if not self.sys.state:
            # No state: every cycle is the same function of its inputs, so cycle 0 decides.
            k = depth = 1
        self.bmc_init()
        if not self.bmc(0, 1, range(len(self.verdicts))):
            return self.diags, self.json()
        if not self.sys.state:  # cycle 0 was any cycle: what it did not refute is proven
            for v in self.verdicts:
                if v.status == "proven":
                    v.depth = depth
            self.reached = check_reach(self)  # covers and the conditions of implications
            return self.diags, self.json()
        # What holds one cycle after any state needs no more bounded cycles and no induction:
        # settle it on that small problem first.
        settled = self.settle(k)
        rest = [i for i, v in enumerate(self.verdicts) if id(v) not in settled]
        if not self.bmc(1, k, rest):
            return self.diags, self.json()
        failed = self.induction(k, settled)
        proven = [i for i, v in enumerate(self.verdicts) if v.status == "proven" and id(v) not in failed]
        pending = [i for i, v in enumerate(self.verdicts) if id(v) in failed]
        for i in proven:  # true in every reachable state: facts for the deeper search
            self.facts.append(self.verdicts[i].prop)
        if not after_induction(self, pending, k, depth, started):  # the real failures first
            return self.diags, self.json()
        for i in proven:
            self.verdicts[i].depth = depth
        for v, model, un in failed.values():
            if v.status == "proven":
                self.not_inductive(v, model, un, k)
        self.reached = check_reach(self)  # covers and the conditions of implications
        return self.diags, self.json()

    def bmc_init(self) -> None:
        s = make_solver(self.opts.timeout)
        self.bmc_solver = s  # incremental, for whether the requirements can hold (V001, with a core)
        self.bmc_un = Unrolling(self.sys, "", s.ctx)
        self.bmc_lits = [z3.Bool(f"requires#{j}", s.ctx) for j in range(len(self.sys.requires))]
        init = self.bmc_un.init()
        self.bmc_built: list[list] = []  # per cycle, the unrolling of the whole design (cycle 0: and the reset state)
        self.bmc_pending: list = []  # the cycles added but not built yet
        self.facts: list[E.Prop] = []
        self.requires_cone = state_cone(self.sys, [r.expr for r in self.sys.requires])
        s.add(*init)
        self.bmc_init_terms = init
        self.bmc_cycles = 0  # cycles 0..bmc_cycles-1 are in the unrolling
        # Requirements that read no state constrain each cycle's own inputs only: if they can hold
        # in cycle 0 they can in every cycle, whatever happened before.
        self.requires_read_state = bool(self.requires_cone)

    def extend(self, check: bool = True) -> bool:
        """Add the next cycle to the bounded unrolling; False when the requirements cannot hold
        in it (V001) or the solver cannot tell (V003). Without `check`, only add it."""
        s, un, lits, t = self.bmc_solver, self.bmc_un, self.bmc_lits, self.bmc_cycles
        self.bmc_cycles += 1
        self.bmc_pending.append((t, list(self.facts)))  # data, not a closure: no cycle keeps z3's terms alive
        if t > 0:  # the requirements' own cone is all that decides whether they can hold
            s.add(*un.transition(t - 1, self.requires_cone))
        s.add(*un.valid(t, state_too=False))
        for lit, r in zip(lits, self.sys.requires):
            s.add(z3.Implies(lit, un.prop(r, t)))
        if not check or (t > 0 and not self.requires_read_state):
            return True
        res = s.check(*lits)
        if res == z3.unsat:
            self.vacuous(s.unsat_core(), lits, t)
            return False
        if res == z3.unknown:
            self.diags.append(error("V003", f"not proven: the solver could not decide whether the "
                                            f"requirements can hold in cycle {t} ({s.reason_unknown()})",
                                    self.d.module.name_span, "raise --timeout, or simplify the requirements"))
            for v in self.verdicts:  # nothing is decided without the requirements
                if v.status == "proven":
                    v.status = "unknown"
            return False
        return True

    def requires_hold_to(self, stop: int) -> bool:
        """Whether the requirements can hold in every cycle up to stop-1, asked once, at the last
        (a run through all of them makes them hold in each). True: those cycles are in the
        unrolling. False: the solver said no or could not tell, and the cycles it added are taken
        back, so that the cycle-by-cycle check (`extend`) finds the first failing cycle, as it
        always has."""
        s = self.bmc_solver
        cycles, pending = self.bmc_cycles, len(self.bmc_pending)
        if cycles >= stop:
            return True
        s.push()
        while self.bmc_cycles < stop:
            self.extend(check=False)
        if s.check(*self.bmc_lits) == z3.sat:
            return True
        s.pop()
        self.bmc_cycles = cycles
        del self.bmc_pending[pending:]
        return False

    def full_cycle(self, t: int, facts: list) -> tuple[list, list]:
        """The whole design's cycle t of the bounded unrolling: (the transition into it, enum
        validity and the requirements; the instances' contracts and the facts known then)."""
        un = self.bmc_un
        out = (un.transition(t - 1) if t > 0 else []) + un.valid(t, state_too=False)
        out += [un.prop(r, t) for r in self.sys.requires] + self.contract(un, t, early=True)
        contract = self.contract(un, t, early=False)
        if facts:
            contract.append(z3.And([un.prop(f, t) for f in facts]))
        return out, contract

    def terms_to(self, t: int) -> tuple[list, list]:
        """The bounded unrolling of cycles 0..t, built when a property query first needs it:
        (everything but cycle t's contract and facts; those, for `Goal`)."""
        while self.bmc_pending and len(self.bmc_built) <= t:
            self.bmc_built.append(self.full_cycle(*self.bmc_pending.pop(0)))
        out = [x for base, contract in self.bmc_built[:t] for x in base + contract]
        return out + self.bmc_built[t][0], self.bmc_built[t][1]

    def contract(self, un: Unrolling, t: int, early: bool | None = None) -> list:
        """The instances' contracts in cycle t of an unrolling: all, or the early ones (decided
        before the cycle's inputs: `sysr.hier.contract.settled_before`) or the others."""
        return [un.prop(a, t) for a in self.sys.assumes if early is None or (a.what == "early") == early]

    def decide(self, terms: list, goal, quick: bool = False, need_model: bool = True):
        """One query in a solver (and a context) of its own: z3's one-shot bit-vector tactics are
        much faster than its incremental core on these. `quick`: within `QUICK_WORK` (and
        `QUICK_S`). `need_model`: False where only the answer counts (the model may then be None).
        (result, model or None, reason when unknown)."""
        if quick:
            return solve_alone(terms + [goal], min(self.opts.timeout, QUICK_S), self.divides, QUICK_WORK,
                               need_model)
        return solve_alone(terms + [goal], self.opts.timeout, self.divides, need_model=need_model)

    def decide_one(self, v: Verdict, un: Unrolling, t: int, terms: list, contract: list, quick: bool = False,
                   need_model: bool = True):
        """`decide` whether `v` fails in cycle t (the goal's terms are freed on return, as the
        checker always has: z3 reuses the numbers of freed terms, and its search follows them)."""
        assumed, goal = Goal([(v, un.prop(v.prop, t))], wrap=False).query(contract)
        return self.decide(terms + assumed, goal, quick, need_model)

    def bmc(self, start: int, stop: int, indexes) -> bool:
        """Cycles start..stop-1 from reset: the requirements must be satisfiable in each, and the
        properties `indexes` are checked, shortest counterexample first. False when the
        requirements cannot be met (nothing else is meaningful then)."""
        s, un, lits = self.bmc_solver, self.bmc_un, self.bmc_lits
        active = [k for k in indexes if self.verdicts[k].status == "proven"]
        if start > 0 and not active and (not self.requires_read_state or self.requires_hold_to(stop)):
            return True  # nothing left to check in these cycles
        for t in range(start, stop):
            while self.bmc_cycles <= t:
                if not self.extend():
                    return False
            while active:
                query = Goal([(self.verdicts[k], un.prop(self.verdicts[k].prop, t)) for k in active])
                goal = None  # (the last query's goal goes before this cycle is built: see `Goal`)
                terms, contract = self.terms_to(t)
                assumed, goal = query.query(contract)
                t0 = time.perf_counter()
                res, model, reason = self.decide(self.bmc_init_terms + terms + assumed, goal)
                spent = time.perf_counter() - t0
                for k in active:
                    self.verdicts[k].time_s += spent / len(active)
                    self.verdicts[k].depth = t + 1
                if res == z3.unsat:
                    break
                if res == z3.unknown and len(active) > 1:
                    active = self.one_by_one(active, t)  # isolate the hard property
                    break  # every property is decided for this cycle
                if res == z3.unknown:
                    self.give_up(self.verdicts[active[0]], f"bounded check at cycle {t}", reason)
                    active = []
                    break
                broken = query.failed(model, contract, lambda v: un.prop(v.prop, t))
                failed = [k for k in active if self.verdicts[k] in broken]
                if not failed:
                    raise VerifierBug("a counterexample model violates no property")
                cycles = self.replay(model, un, t, free_all=False)
                first = None
                for k in failed:
                    self.refuted(self.verdicts[k], cycles, t, first)
                    first = first or self.verdicts[k]
                active = [k for k in active if k not in failed]
        return True

    def one_by_one(self, active: list[int], t: int) -> list[int]:
        """After a combined query came back unknown: decide each property alone at cycle t.
        Unknown gives V003, a counterexample gives V002; returns the properties still standing."""
        un = self.bmc_un
        keep = []
        for k in active:
            terms, contract = self.terms_to(t)
            res, model, reason = self.decide_one(self.verdicts[k], un, t, self.bmc_init_terms + terms, contract)
            if res == z3.unknown:
                self.give_up(self.verdicts[k], f"bounded check at cycle {t}", reason)
            elif res == z3.sat:
                self.refuted(self.verdicts[k], self.replay(model, un, t, free_all=False), t)
            else:
                keep.append(k)
        return keep


def verify(design: Design, options, source: str = "") -> tuple[list[Diagnostic], list[dict]]:
    with proofs(getattr(options, "deadline", None), getattr(options, "time_limit", 0.0)):
        return Prover(design, options, source).run()
