"""Proof obligations and their verdicts: vacuity, bounded model checking from reset, k-induction.

`verify(design, options, source)` elaborates the design, then
1. checks that the `requires` can hold in every cycle up to the depth (V001 with an unsat core;
   one incremental solver over the requirements' own cone of influence, and cycle 0 alone when
   they read no state, since then every cycle is the same constraint on fresh inputs),
2. checks every property in cycle 0 from reset, settles those that hold in any state or one
   cycle after any state, checks the rest from reset up to cycle k-1 (V002, the shortest
   counterexample first, each trace replayed on the concrete evaluator before it is shown),
3. runs k-induction with the properties as lemmas, dropping lemmas that a counterexample breaks
   until the rest prove each other, then searches from reset to the depth for the properties
   left (a real counterexample, V002, or else V007 with a counterexample to induction),
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
from dataclasses import dataclass

import z3

from .. import elab as E
from ..diagnostics import Diagnostic, Related, Severity, Trace, error, span_json
from ..evaluate import ArrayValue, Evaluator
from ..front import syntax as S
from ..front.syntax import Span
from ..model import Design
from ..types import Ty, to_signed
from .cone import state_cone
from .encode import bv
from .unroll import Unrolling, make_solver, solve_alone
from .bounded import proofs


# A query that only saves time when it succeeds (`settle`, and the induction query over several
# properties at once) stops after `QUICK_WORK` of z3's resource units: a count, so that which of
# these succeed, and so every later query and its counterexample, does not depend on how loaded
# the machine is. On the project's designs their queries need at most 2.5 million units (z3 does
# 3 to 17 million a second on the 2-core machine). `QUICK_S` is only a backstop, for queries whose
# bit-blasting z3 barely counts (wide multipliers): then it gives up after that time, as before.
QUICK_WORK = 3_000_000
QUICK_S = 2.0


class VerifierBug(Exception):
    """The verifier contradicted itself (e.g. a trace that does not replay): a bug in sysr."""


@dataclass
class Verdict:
    prop: E.Prop
    status: str = "proven"  # proven, refuted, not-inductive, unknown
    depth: int = 0
    time_s: float = 0.0
    trace: Trace | None = None
    diag: Diagnostic | None = None


class Goal:
    """Whether any of `props` (pairs of a verdict and its term at the goal cycle) fails there.

    The contract of that cycle (the instances' contracts and the known facts) is assumed for
    every property but an instance's requirement: an instance ensures what it ensures in a cycle
    only if its requirements held in that cycle, so proving one of them with it would be circular
    (docs/reference.md, "Hierarchy"). The early contracts, which hold whatever the cycle's inputs,
    are among the assumptions for all (`Prover.full_cycle`). The negations are made here, before
    the unrolling the query needs, so that a query without instances is built term for term as
    it always was (z3's search depends on the order terms are made in); `wrap` puts even one
    negation in an `Or`, as the queries over several properties do."""

    def __init__(self, props: list, wrap: bool = True) -> None:
        self.verdicts = [v for v, _ in props]  # (the terms are not kept: z3 reuses the numbers of
        self.wrap = wrap                        # freed terms, and its search follows them)
        plain = [z3.Not(term) for v, term in props if v.prop.kind != "instance"]
        self.owed = [z3.Not(term) for v, term in props if v.prop.kind == "instance"]
        self.any_plain = self._any(plain) if plain else None

    def _any(self, negations: list):
        return negations[0] if len(negations) == 1 and not self.wrap else z3.Or(negations)

    def query(self, contract: list) -> tuple[list, object]:
        """(terms to assume, goal)."""
        if not self.owed:
            return list(contract), self.any_plain
        owed = list(self.owed)
        if self.any_plain is not None:
            owed.append(z3.And(list(contract) + [self.any_plain]))
        return [], self._any(owed)

    def failed(self, model, contract: list, term_of) -> list:
        """The verdicts whose property the model breaks (for one that may use the contract, in a
        run where the contract holds). `term_of(verdict)` makes the property's term again (as the
        checker always has, so that later queries see the same terms made in the same order)."""
        holds = all(z3.is_true(model.eval(c, model_completion=True)) for c in contract)
        return [v for v in self.verdicts if z3.is_false(model.eval(term_of(v), model_completion=True))
                and (holds or v.prop.kind == "instance")]


class Prover:
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

    def snippet(self, span: Span) -> str:
        return E.source_snippet(self.lines, span)

    # ---- formatting ----------------------------------------------------------------------
    def fmt(self, value, ty: Ty | None) -> str:
        if isinstance(value, ArrayValue):
            return "[" + ",".join(self.fmt(x, ty) for x in value.snapshot()) + "]"
        if value is None:
            return "-"
        if ty is None:
            return str(value)
        if ty.kind == "enum":
            return self.d.enums[ty.enum].name_of(value) or f"?{value}"
        if ty.width > 16:
            return f"0x{value:x}"
        if ty.signed:
            return str(to_signed(value, ty.width))
        return str(value)

    def columns(self) -> list[tuple[str, str, Ty, str]]:
        """(label, source, type, kind): ports, then registers, then ghost state."""
        cols = []
        for s in self.d.signals.values():
            if s.kind == "clock":
                continue
            if s.is_input:
                cols.append((s.name, "in", s.ty, "in"))
            elif s.kind == "out":
                cols.append((s.name, "comb", s.ty, "out"))
            elif s.kind == "out_reg":
                cols.append((s.name, "state", s.ty, "out"))
        for s in self.d.signals.values():
            if s.is_state and not s.is_port and not s.ghost and (s.size is None or s.size <= 8):
                cols.append((s.name, "state", s.ty, "reg"))
        for s in self.d.signals.values():
            if s.ghost and (s.is_state and (s.size is None or s.size <= 8)):
                cols.append((s.name, "state", s.ty, "ghost"))
            elif s.ghost and s.is_comb:
                cols.append((s.name, "comb", s.ty, "ghost"))
        return cols

    def make_trace(self, title: str, cycles, failing: int, cols=None) -> Trace:
        cols = self.columns() if cols is None else cols
        rows, raw = [], []
        for cyc in cycles:
            row, rrow = [], []
            for name, src, ty, _ in cols:
                if src == "in":
                    v = cyc.inputs[name]
                elif src == "comb":
                    v = cyc.values.get(name)
                else:
                    v = cyc.shown[name]
                row.append(self.fmt(v, ty))
                rrow.append(v if isinstance(v, int) else None)
            rows.append(tuple(row))
            raw.append(tuple(rrow))
        return Trace(title, tuple(c[0] for c in cols), tuple(rows), failing,
                     tuple(c[3] for c in cols), tuple(raw), tuple(c[2].width for c in cols))

    # ---- models -> concrete runs ---------------------------------------------------------
    def inputs_from(self, model, un: Unrolling, t: int) -> dict[str, int]:
        return {n: model.eval(un.cycle(t).vars[n], model_completion=True).as_long()
                for n, _ in self.sys.inputs}

    def state_from(self, model, un: Unrolling, free_all: bool) -> dict[str, object]:
        v0 = un.cycle(0).vars

        def memory(name, i):
            if isinstance(v0[name], tuple):
                return model.eval(v0[name][i], model_completion=True).as_long()
            idx = bv(i, v0[name].domain().size(), v0[name].ctx)
            return model.eval(z3.Select(v0[name], idx), model_completion=True).as_long()

        def free(name):
            return model.eval(v0[name], model_completion=True).as_long()

        if not free_all:
            return self.ev.initial_state(memory, free)
        state: dict[str, object] = {}
        for sv in self.sys.state:
            if sv.size is not None:
                state[sv.name] = ArrayValue(sv.size, {}, lambda i, nm=sv.name: memory(nm, i))
            else:
                state[sv.name] = free(sv.name)
        return state

    def replay(self, model, un: Unrolling, t: int, free_all: bool):
        state = self.state_from(model, un, free_all)
        inputs = [self.inputs_from(model, un, c) for c in range(t + 1)]
        return self.ev.run(inputs, state)

    # ---- the queries ---------------------------------------------------------------------
    def run(self) -> tuple[list[Diagnostic], list[dict]]:
        """Base case from reset to k, then k-induction, then a deeper search from reset for the
        properties induction could not prove (a real counterexample, or else V007)."""
        k = self.opts.induction
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
            return self.diags, self.json()
        # What holds in any state, or one cycle after any state, needs no more bounded cycles and
        # no induction: settle it on those small problems first.
        settled = self.settle(k)
        rest = [i for i, v in enumerate(self.verdicts) if id(v) not in settled]
        if not self.bmc(1, k, rest):
            return self.diags, self.json()
        failed = self.induction(k, settled)
        proven = [i for i, v in enumerate(self.verdicts) if v.status == "proven" and id(v) not in failed]
        pending = [i for i, v in enumerate(self.verdicts) if id(v) in failed]
        for i in proven:  # true in every reachable state: facts for the deeper search
            self.facts.append(self.verdicts[i].prop)
        if not self.bmc(k, depth, pending):
            return self.diags, self.json()
        for i in proven:
            self.verdicts[i].depth = depth
        for v, model, un in failed.values():
            if v.status == "proven":
                self.not_inductive(v, model, un, k)
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

    def extend(self) -> bool:
        """Add the next cycle to the bounded unrolling; False when the requirements cannot hold
        in it (V001) or the solver cannot tell (V003)."""
        s, un, lits, t = self.bmc_solver, self.bmc_un, self.bmc_lits, self.bmc_cycles
        self.bmc_cycles += 1
        self.bmc_pending.append((t, list(self.facts)))  # data, not a closure: no cycle keeps z3's terms alive
        if t > 0:  # the requirements' own cone is all that decides whether they can hold
            s.add(*un.transition(t - 1, self.requires_cone))
        s.add(*un.valid(t, state_too=False))
        for lit, r in zip(lits, self.sys.requires):
            s.add(z3.Implies(lit, un.prop(r, t)))
        if t > 0 and not self.requires_read_state:
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
        before the cycle's inputs: `sysr.elab.contract.settled_before`) or the others."""
        return [un.prop(a, t) for a in self.sys.assumes if early is None or (a.what == "early") == early]

    def decide(self, terms: list, goal, quick: bool = False):
        """One query in a solver (and a context) of its own: z3's one-shot bit-vector tactics are
        much faster than its incremental core on these. `quick`: within `QUICK_WORK` (and
        `QUICK_S`). (result, model or None, reason when unknown)."""
        if quick:
            return solve_alone(terms + [goal], min(self.opts.timeout, QUICK_S), self.divides, QUICK_WORK)
        return solve_alone(terms + [goal], self.opts.timeout, self.divides)

    def decide_one(self, v: Verdict, un: Unrolling, t: int, terms: list, contract: list, quick: bool = False):
        """`decide` whether `v` fails in cycle t (the goal's terms are freed on return, as the
        checker always has: z3 reuses the numbers of freed terms, and its search follows them)."""
        assumed, goal = Goal([(v, un.prop(v.prop, t))], wrap=False).query(contract)
        return self.decide(terms + assumed, goal, quick)

    def bmc(self, start: int, stop: int, indexes) -> bool:
        """Cycles start..stop-1 from reset: the requirements must be satisfiable in each, and the
        properties `indexes` are checked, shortest counterexample first. False when the
        requirements cannot be met (nothing else is meaningful then)."""
        s, un, lits = self.bmc_solver, self.bmc_un, self.bmc_lits
        active = [k for k in indexes if self.verdicts[k].status == "proven"]
        if start > 0 and not active and not self.requires_read_state:
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

    def vacuous(self, core, lits, t: int) -> None:
        names = {str(l): j for j, l in enumerate(lits)}
        clauses = sorted({names[str(c)] for c in core if str(c) in names})
        reqs = [self.sys.requires[j] for j in clauses if self.sys.requires[j].kind != "lemma"]
        reqs = reqs or [r for r in self.sys.requires if r.kind != "lemma"][:1]
        when = "in the reset state" if t == 0 else f"in cycle {t}, on any path from reset"
        first, rest = reqs[0], reqs[1:]
        msg = (f"the requirements cannot all hold {when}: "
               + ", ".join(f"`{r.text}`" for r in reqs))
        self.diags.append(error(
            "V001", msg, first.span,
            "every property would hold vacuously; relax or remove one of these `requires`",
            related=tuple(Related(r.span, "this requirement is part of the conflict") for r in rest)))

    def give_up(self, v: Verdict, where: str, reason: str) -> None:
        if v.status != "proven":
            return
        if reason in ("canceled", "timeout"):
            reason = f"timed out after {self.opts.timeout:g} s"
        v.status = "unknown"
        v.diag = error("V003", f"not proven: the solver gave up on `{v.prop.text}` in the {where} ({reason})",
                       v.prop.span, f"raise --timeout (now {self.opts.timeout:g} s), or split the property")
        self.diags.append(v.diag)

    def describe(self, p: E.Prop) -> str:
        if p.kind == "index":
            return f"the {p.text}"
        if p.kind == "divisor":
            return f"that the {p.text} is not zero"
        if p.kind == "instance" and p.what == "enum":
            return f"the requirement of `{S.written(p.module)}` that {p.text} (instance `{S.written(p.inst)}`)"
        if p.kind == "instance":
            return f"the requirement `{p.text}` of `{S.written(p.module)}` (instance `{S.written(p.inst)}`)"
        return f"`{p.kind} {p.text}`"

    def refuted(self, v: Verdict, cycles, t: int, same_as: Verdict | None = None) -> None:
        k = self.verdicts.index(v)
        last = cycles[t]
        late = [i for i, a in enumerate(self.sys.assumes) if a.what != "early"]
        owed = v.prop.kind == "instance"  # (its cycle's late contract is not assumed: `Goal`)
        if last.props[k] != 0 or not all(all(c.requires) for c in cycles) or not all(
                all(x for i, x in enumerate(c.assumes) if not (owed and j == t and i in late))
                for j, c in enumerate(cycles)):
            raise VerifierBug(f"the counterexample for `{v.prop.text}` does not replay on the concrete "
                              "semantics")
        v.status = "refuted"
        v.trace = self.make_trace(f"trace from reset (cycle 0 is the reset state; `>` marks cycle {t}, "
                                  "where the property fails):", cycles, t)
        notes = ["inputs in each row are chosen by the checker within the `requires`; registers show "
                 "their value during the cycle"]
        if v.prop.kind == "index":
            msg = f"the {v.prop.text} may be out of range: see cycle {t} of this trace from reset"
        elif v.prop.kind == "divisor":
            msg = f"the {v.prop.text} may be zero: see cycle {t} of this trace from reset"
            d = self.snippet(v.prop.span)
            d = d if d.isidentifier() else f"({d})"
            notes.append(f"Verilog's `{v.prop.what}` gives x for a zero divisor: guard the division, "
                         f"`if {d} != 0 then ... else ...`, or state with a `requires` why it cannot be zero")
        else:
            msg = f"{self.describe(v.prop)} may not hold: it fails in cycle {t} of this trace from reset"
        if same_as is not None:
            notes = [f"the trace is the one shown for {self.describe(same_as.prop)} "
                     f"(line {same_as.prop.span.line})"]
        v.diag = Diagnostic("V002", msg, v.prop.span, Severity.ERROR, tuple(notes), (),
                            v.trace if same_as is None else None)
        self.diags.append(v.diag)

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
            self._free = Unrolling(self.sys, "i", z3.Context())
        return self._free

    def settle(self, k: int) -> set[int]:
        """The ids of the properties not refuted in cycle 0 that hold in any state under the
        requirements, or (when k > 1) in any state one cycle after any state: then, with cycle 0
        checked from reset, they hold in every reachable state. Each query is quick (`QUICK_WORK`)."""
        candidates = [v for v in self.verdicts if v.status == "proven"]
        settled: set[int] = set()
        un = self.free_unrolling()
        for steps in (0, 1) if k > 1 and self.sys.state else (0,):
            base: list = []
            for t in range(steps + 1):
                base += un.valid(t, state_too=True) + [un.prop(r, t) for r in self.sys.requires]
                if t < steps:
                    base += un.transition(t) + self.contract(un, t)
            base += self.contract(un, steps, early=True)
            contract = self.contract(un, steps, early=False)
            for v in candidates:
                if id(v) in settled:
                    continue
                t0 = time.perf_counter()
                if self.decide_one(v, un, steps, base, contract, quick=True)[0] == z3.unsat:
                    settled.add(id(v))
                v.time_s += time.perf_counter() - t0
        return settled

    def not_inductive(self, v: Verdict, model, un: Unrolling, k: int) -> None:
        idx = self.verdicts.index(v)
        cycles = self.replay(model, un, k, free_all=True)
        if cycles[k].props[idx] != 0:
            raise VerifierBug(f"the counterexample to induction for `{v.prop.text}` does not replay")
        v.status = "not-inductive"
        v.trace = self.make_trace(
            f"counterexample to induction: cycle 0 is an ARBITRARY state that satisfies the properties "
            f"(not necessarily reachable from reset); the properties hold in cycles 0..{k - 1}, and "
            f"`>` marks cycle {k}, where this one fails:", cycles, k)
        notes = [f"the property held in every cycle of the bounded check from reset (cycles 0 to "
                 f"{v.depth - 1}): either it fails only later than that (raise --depth to look further), "
                 "or it is true but the other properties are not strong enough to prove it",
                 "if it is true, state an `invariant` that rules out the state in cycle 0 (for example, "
                 "relate the registers to each other or to the ghost model), or raise --induction"]
        refuted = [x for x in self.verdicts if x.status == "refuted"]
        if refuted:
            notes.append(f"{len(refuted)} other propert{'y' if len(refuted) == 1 else 'ies'} failed from reset "
                         f"(V002) and could not serve as lemmas: fix {'it' if len(refuted) == 1 else 'them'} "
                         "first, this one may then be proven")
        notes = tuple(notes)
        v.diag = Diagnostic("V007", f"{self.describe(v.prop)} is not inductive: "
                                    f"a step from a state satisfying the properties breaks it",
                            v.prop.span, Severity.ERROR, notes, (), v.trace)
        self.diags.append(v.diag)

    def json(self) -> list[dict]:
        out = []
        for v in self.verdicts:
            item = {"kind": v.prop.kind, "text": v.prop.text, "span": span_json(v.prop.span),
                    "status": v.status, "depth": v.depth, "time_s": round(v.time_s, 4)}
            if v.trace is not None:
                item["trace"] = v.trace.to_json()
            out.append(item)
        return out


def verify(design: Design, options, source: str = "") -> tuple[list[Diagnostic], list[dict]]:
    with proofs(getattr(options, "deadline", None), getattr(options, "time_limit", 0.0)):
        return Prover(design, options, source).run()
