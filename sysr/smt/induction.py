"""k-induction: the properties that held from reset, proven for every reachable state.

`Induction` is the part of `sysr.smt.prove.Prover` that works from an arbitrary state (one
unrolling of its own, `free_unrolling`): `settle` proves quickly what holds one cycle after any
state (in any state, when k is 1), all the properties in one query where it can; `induction`
runs k-induction with the properties as lemmas of each other, dropping the lemmas a
counterexample breaks until the rest prove each other.
"""

from __future__ import annotations

import time

import z3

from . import contexts
from .unroll import Unrolling
from .verdicts import Goal, Verdict, VerifierBug


class Induction:
    """Proofs from an arbitrary state (see the module)."""

    def induction(self, k: int, settled: set[int]) -> dict[int, tuple]:
        """k-induction over the properties not refuted, as lemmas of each other; a lemma that
        fails is dropped until the rest prove each other (the `settled` ones hold in every
        reachable state already: lemmas only). Returns the failures by id(verdict)."""
        candidates = [v for v in self.verdicts if v.status == "proven"]
        failed: dict[int, tuple] = {}
        if not candidates:
            return failed
        un = self.free_unrolling()
        base: list = []
        for t in range(k + 1):
            base += un.valid(t, state_too=True)
            base += [un.prop(r, t) for r in self.sys.requires]
            if t < k:
                base += un.transition(t) + self.contract(un, t)
        base += self.contract(un, k, early=True)
        contract = self.contract(un, k, early=False)
        lemma_terms = {id(v): [un.prop(v.prop, t) for t in range(k)] for v in candidates}
        lemmas = list(candidates)
        while True:
            pending = [x for x in lemmas if id(x) not in settled]
            if not pending:
                break
            assumed = [term for x in lemmas for term in lemma_terms[id(x)]]
            query = Goal([(v, un.prop(v.prop, k)) for v in pending])  # all at once: usually one query
            at_k, goal = query.query(contract)
            t0 = time.perf_counter()
            res, model, reason = self.decide(base + assumed + at_k, goal, quick=len(pending) > 1)
            for v in pending:
                v.time_s += (time.perf_counter() - t0) / len(pending)
            if res == z3.unsat:
                break
            if res == z3.unknown and len(pending) > 1:
                dropped = self.induction_each(pending, base + assumed, un, k, failed, contract)
            elif res == z3.unknown:
                self.give_up(pending[0], f"induction step (k={k})", reason)
                dropped = pending
            else:  # a counterexample to induction: drop every lemma it breaks, try the rest again
                dropped = query.failed(model, contract, lambda v: un.prop(v.prop, k))
                if not dropped:
                    raise VerifierBug("a counterexample to induction violates no property")
                for v in dropped:
                    failed[id(v)] = (v, model, un)
            if not dropped:
                break
            lemmas = [x for x in lemmas if x not in dropped]
        return failed

    def induction_each(self, pending: list[Verdict], terms: list, un: Unrolling, k: int,
                       failed: dict[int, tuple], contract: list) -> list[Verdict]:
        """After the query over all came back unknown: each property alone. Returns those that
        fail (recorded in `failed`) or stay undecided (V003)."""
        dropped = []
        for v in pending:
            t0 = time.perf_counter()
            res, model, reason = self.decide_one(v, un, k, terms, contract)
            v.time_s += time.perf_counter() - t0
            if res == z3.sat:
                failed[id(v)] = (v, model, un)
            elif res == z3.unknown:
                self.give_up(v, f"induction step (k={k})", reason)
            if res != z3.unsat:
                dropped.append(v)
        return dropped

    def free_unrolling(self) -> Unrolling:
        """Cycles from an arbitrary state (induction and `settle`), built once."""
        if getattr(self, "_free", None) is None:
            self._free = Unrolling(self.sys, "i", contexts.fresh())
        return self._free

    def settle(self, k: int) -> set[int]:
        """The ids of the properties not refuted in cycle 0 that hold in any state one cycle after
        any state under the requirements (in any state at all when k is 1, or the design has no
        state): then, with cycle 0 checked from reset, they hold in every reachable state. (What
        holds in any state holds one cycle after any state, so one of the two questions is asked,
        not both.) All of them are asked in one query, and the ones its counterexample breaks are
        dropped until the rest hold together or none is left; each query is quick (`QUICK_WORK`),
        and a combined query that does not finish gives way to one query per property."""
        candidates = [v for v in self.verdicts if v.status == "proven"]
        settled: set[int] = set()
        if not candidates:
            return settled
        un = self.free_unrolling()
        steps = 1 if k > 1 and self.sys.state else 0
        base: list = []
        for t in range(steps + 1):
            base += un.valid(t, state_too=True) + [un.prop(r, t) for r in self.sys.requires]
            if t < steps:
                base += un.transition(t) + self.contract(un, t)
        base += self.contract(un, steps, early=True)
        contract = self.contract(un, steps, early=False)
        pending = list(candidates)
        while len(pending) > 1:
            query = Goal([(v, un.prop(v.prop, steps)) for v in pending])
            assumed, goal = query.query(contract)
            t0 = time.perf_counter()
            res, model, _ = self.decide(base + assumed, goal, quick=True)
            for v in pending:
                v.time_s += (time.perf_counter() - t0) / len(pending)
            if res == z3.unsat:
                settled.update(id(v) for v in pending)
                return settled
            broken = query.failed(model, contract, lambda v: un.prop(v.prop, steps)) if res == z3.sat else []
            if not broken:  # undecided within the quick budget: each property on its own
                break
            pending = [v for v in pending if v not in broken]
        for v in pending:
            t0 = time.perf_counter()
            if self.decide_one(v, un, steps, base, contract, quick=True, need_model=False)[0] == z3.unsat:
                settled.add(id(v))
            v.time_s += time.perf_counter() - t0
        return settled
