"""What a verdict shows: values formatted, trace tables, a solver's model replayed on the evaluator,
and the diagnostics V001 (requirements that cannot hold), V002 (a counterexample from reset),
V003 (the solver gave up) and V007 (not inductive).

`Reporting` is the part of `sysr.smt.prove.Prover` that turns models into runs and verdicts into
diagnostics; each trace is replayed on the concrete evaluator before it is shown, and a trace
that does not replay is a `VerifierBug`.
"""

from __future__ import annotations

import z3

from .. import elab as E
from ..diagnostics import Diagnostic, Related, Severity, Trace, error, span_json
from ..evaluate import ArrayValue
from ..front import syntax as S
from ..front.syntax import Span
from ..types import BOOL, Ty, struct_fields, to_signed
from .encode import bv
from .products import multiplication_note
from .unroll import Unrolling
from .verdicts import Verdict, VerifierBug


class Reporting:
    """Models to concrete runs, and verdicts to traces and diagnostics (see the module)."""

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
        if ty.kind == "struct":  # by field: `{valid:1,data:5}`
            return "{" + ",".join(f"{n}:{self.fmt(v, t)}" for n, v, t in struct_fields(value, ty)) + "}"
        if ty.width > 16:
            return f"0x{value:x}"
        if ty.signed:
            return str(to_signed(value, ty.width))
        return str(value)

    def columns(self) -> list[tuple[str, str, Ty, str]]:
        """(label, source, type, kind): ports, then registers, then ghost state."""
        cols = []
        ticked = {n for n, _ in self.sys.inputs}
        leveled = {sv.name for sv in self.sys.state if sv.kind == "clk"}
        for s in self.d.signals.values():  # several clocks: 1 where one ticks, or each one's level
            if s.kind == "clock" and (s.name in ticked or s.name in leveled):
                cols.append((s.name, "in" if s.name in ticked else "state", BOOL, "in"))
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

    def clock_note(self) -> list[str]:
        """What the clocks' columns mean, for a design whose clocks tick freely (§4.10)."""
        ticked = [n for n, _ in self.sys.inputs if n in self.d.signals and self.d.signals[n].kind == "clock"]
        leveled = [sv.name for sv in self.sys.state if sv.kind == "clk"]
        out = []
        if ticked:
            out.append(f"{', '.join(f'`{n}`' for n in ticked)}: 1 in the cycles that end with "
                       f"{'its' if len(ticked) == 1 else 'that clock' + chr(39) + 's'} edge (the checker chooses "
                       "which clocks tick in each cycle)")
        if leveled:
            out.append(f"{', '.join(f'`{n}`' for n in leveled)}: the clock's level; a change from one cycle "
                       "to the next is an edge (0 to 1 rising)")
        return out

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
        product = multiplication_note(self.sys, v.prop.expr)
        notes = ([product] if product else []) + [f"raise --timeout (now {self.opts.timeout:g} s), or split the property"]
        v.diag = error("V003", f"not proven: the solver gave up on `{v.prop.text}` in the {where} ({reason})",
                       v.prop.span, *notes)
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
                 "their value during the cycle"] + self.clock_note()
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
            if v.prop.bounded is not None:
                notes.append(v.prop.deadline_note(t, self.lines))
        if same_as is not None:
            notes = [f"the trace is the one shown for {self.describe(same_as.prop)} "
                     f"(line {same_as.prop.span.line})"]
        v.diag = Diagnostic("V002", msg, v.prop.span, Severity.ERROR, tuple(notes), (),
                            v.trace if same_as is None else None)
        self.diags.append(v.diag)

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
        hunted = getattr(self, "hunted", 0)  # random runs from reset that broke nothing (sysr.smt.deeper)
        runs = f" and in random runs from reset of {hunted} cycles each" if hunted > v.depth else ""
        notes = [f"the property held in every cycle of the bounded check from reset (cycles 0 to "
                 f"{v.depth - 1}){runs}: either it fails only later than that (raise --depth to look "
                 "further), or it is true but the other properties are not strong enough to prove it",
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
        out += getattr(self, "reached", [])  # the covers (sysr.smt.reach)
        return out
