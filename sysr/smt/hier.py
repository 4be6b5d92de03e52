"""Proving a hierarchy: every module once, on its own, with its instances' contracts.

`verify_hierarchy(h, options, source)` proves each module of the file (an extern module, whose
logic is Verilog, has nothing to prove: its contract is assumed at its instances) with the system of
`sysr.hier.contract` (an instance's outputs free, its module's `ensures` assumed, its `requires`
obligations of this module), each module's requires being its environment's business (the top's)
or its parents' (a child's, proven at each of its instances). Diagnostics and properties of all
modules come back together; the properties of a file with several modules name their module.

A module with instances is proven by `InstanceProver`, which adds to a counterexample what
only a hierarchy has:

- trace columns for the instances' ports (`u.x`, `u.y`; the outputs are the values the child's
  contract allows, chosen by the checker like inputs);
- a replay on the real hierarchy (`sysr.hier.flat`): the same inputs from reset, with every
  child's logic (skipped, with a note, when the flattened hierarchy is past L007's size). When the real hierarchy fails the same way, the trace shown is that run's, with
  the children's registers (`u.count`); when it does not, the note says the module fails only
  because a child's contract is too weak, and where the real child's outputs differ;
- for a counterexample to induction, that the parent's induction sees the instances' outputs
  only through their contracts, so a fact the parent needs about them belongs in the child's
  `ensures`.
"""

from __future__ import annotations

from dataclasses import replace

from .. import elab as E
from .. import overrun
from ..diagnostics import Related, span_json
from ..evaluate import Evaluator
from ..front import syntax as S
from ..model import Design, Hierarchy
from .bounded import proofs
from .grouping import group
from .prove import Prover, Verdict


def verify_hierarchy(h: Hierarchy, options, source: str = "") -> tuple[list, list[dict]]:
    diags: list = []
    props: list[dict] = []
    several = len(h.modules) > 1
    with proofs(getattr(options, "deadline", None), getattr(options, "time_limit", 0.0)):
        for d in h.modules.values():
            if d.extern:  # a contract without logic: assumed at its instances, nothing to prove here
                continue
            prover = InstanceProver(d, options, source) if d.instances else Prover(d, options, source)
            got, json = prover.run()
            if d.binding:
                note = binding_note(h, d)
                got = [replace(g, notes=(note,) + g.notes) for g in got]
            diags += group(got)
            props += [{**p, "module": d.name} for p in json] if several else json
    return diags, props


def binding_note(h: Hierarchy, d: Design) -> str:
    """`in `fifo<W = 16>` (instances `a` and `b` of `top`)`: which binding of a module with
    parameters a diagnostic is about, and where the design uses it."""
    users = [f"`{S.written(i.name)}` of `{p.name}`" for p in h.modules.values() for i in p.instances.values()
             if i.child is d]
    where = ""
    if users:
        where = f" (instance{'s' if len(users) > 1 else ''} {', '.join(users[:4])}{', ...' if len(users) > 4 else ''})"
    elif d.name == h.top:
        where = " (the top module)"
    return f"in `{d.name}`{where}"


def _source(system: E.System, name: str) -> str:
    """Where a trace reads a signal of `system`: an input, a comb value or a state variable."""
    if any(n == name for n, _ in system.inputs):
        return "in"
    return "comb" if name in system.comb else "state"


def instance_columns(d: Design, system: E.System, prefix: str = "", inside: bool = False) -> list:
    """(label, source, type, kind) for the ports of `d`'s instances and, with `inside` (a flat
    system), their registers, recursively."""
    cols = []
    for name, inst in d.instances.items():
        if inst.child is None:
            continue
        here = f"{prefix}{name}."
        for p in inst.child.ports:
            sig = inst.child.signals[p.name]
            if p.kind == "clock" or p.kind in S.RESET_KINDS or p.name not in inst.bindings and \
                    p.kind not in ("out", "out_reg"):
                continue  # (the reset is the parent's own)
            cols.append((here + p.name, _source(system, here + p.name), sig.ty, "inst"))
        if inside:
            for s in inst.child.signals.values():
                if s.is_state and not s.is_port and not s.ghost and (s.size is None or s.size <= 8):
                    cols.append((here + s.name, "state", s.ty, "inst"))
            cols += instance_columns(inst.child, system, here, inside)
    return cols


class InstanceProver(Prover):
    """The prover of a module with instances (see the module docstring)."""

    def __init__(self, design: Design, options, source: str) -> None:
        super().__init__(design, options, source, E.elaborate(design, "contract"))
        self._flat: tuple | None = None
        self.real: dict[int, bool | None] = {}  # id(verdict) of a refuted one -> does the real hierarchy fail

    def json(self) -> list[dict]:
        """Besides the usual: for an instance's requirement, the instance and the clause; for a
        refuted property, whether the real hierarchy fails the same way (`real_failure`: true,
        false, or null when the replay cannot tell)."""
        out = super().json()
        for v, item in zip(self.verdicts, out):
            if v.prop.kind == "instance":
                item["instance"] = v.prop.inst
                if v.prop.text_span is not None:
                    item["clause"] = span_json(v.prop.text_span)
            if id(v) in self.real:
                item["real_failure"] = self.real[id(v)]
        return out

    def columns(self) -> list:
        cols = super().columns()
        own = len([c for c in cols if c[3] != "ghost"])
        return cols[:own] + instance_columns(self.d, self.sys) + cols[own:]

    def flat(self) -> tuple[E.System, Evaluator]:
        if self._flat is None:
            system = E.elaborate(self.d, "flat")
            self._flat = system, Evaluator(system)
        return self._flat

    # ---- counterexamples -------------------------------------------------------------------
    def refuted(self, v: Verdict, cycles, t: int, same_as: Verdict | None = None) -> None:
        super().refuted(v, cycles, t, same_as)
        notes, trace, real = self.replay_flat(v, cycles, t)
        self.real[id(v)] = real
        if same_as is not None:
            trace = None
        d = self.diags.pop()
        if trace is not None:
            v.trace = trace
        related = self.related(v)
        self.diags.append(replace(d, notes=d.notes + tuple(notes), related=d.related + related,
                                  trace=trace if trace is not None else d.trace))
        v.diag = self.diags[-1]

    def not_inductive(self, v: Verdict, model, un, k: int) -> None:
        super().not_inductive(v, model, un, k)
        d = self.diags.pop()
        insts = ", ".join(f"`{S.written(i)}`" for i in self.d.instances)
        note = (f"the induction of `{S.written(self.d.module.name)}` sees its instances ({insts}) only through "
                "their contracts: their outputs in the counterexample are any values their `ensures` "
                "allow, and their registers are not in it; if this property depends on what an instance "
                "outputs, state that fact in the instance's module, as an `ensures` (proven there once)")
        self.diags.append(replace(d, notes=d.notes + (note,), related=d.related + self.related(v)))
        v.diag = self.diags[-1]

    def related(self, v: Verdict) -> tuple:
        if v.prop.kind != "instance" or v.prop.text_span is None:
            return ()
        where = "the requirement, in" if v.prop.what != "enum" else "an enum input of"
        return (Related(v.prop.text_span, f"{where} `{S.written(v.prop.module)}`"),)

    def replay_flat(self, v: Verdict, cycles, t: int) -> tuple[list[str], object, bool | None]:
        """Notes on the same inputs run on the real hierarchy, its trace when it fails too, and
        whether it does (None: the replay cannot tell, as when the flattened hierarchy is past the
        size limit: the module's own proof needed no flattening, so its verdict stands)."""
        externs = sorted({f"`{S.written(d.module.name)}`" for d in _below(self.d) if d.extern})
        if externs:
            return [f"the outputs of the instances in this trace are values their modules' `ensures` allow, "
                    f"chosen by the checker like inputs; the hierarchy holds extern modules ({', '.join(externs)}), "
                    "whose logic is Verilog, so it cannot be run on these inputs to see whether it fails the "
                    "same way"], None, None
        try:
            flat, ev = self.flat()
        except overrun.LimitExceeded as e:
            return [f"the outputs of the instances in this trace are values their modules' `ensures` allow, "
                    f"chosen by the checker like inputs; the real hierarchy is too large to run on these "
                    f"inputs ({e.diagnostic.message}), so whether it fails the same way is not known"], None, None
        names = {n for n, _ in flat.inputs}
        first = cycles[0].state

        def free(name: str) -> int:
            value = first.get(name)
            return value if isinstance(value, int) else 0

        real = ev.run([{n: c.inputs[n] for n in names} for c in cycles[:t + 1]],
                      ev.initial_state(memory=lambda n, i: 0, free=free))
        exact = not any(sv.kind == "mem" and "." in sv.name for sv in flat.state)
        idx = _same_prop(flat.props, v.prop)
        if idx is None or not all(all(c.requires) for c in real):
            return [self.weak_note(cycles, real, exact, conclusive=False)], None, None
        if real[t].props[idx] == 0:
            cols = super().columns()
            own = len([c for c in cols if c[3] != "ghost"])
            cols = cols[:own] + instance_columns(self.d, flat, inside=True) + cols[own:]
            trace = self.make_trace(f"trace from reset of the real hierarchy, with the logic of every instance "
                                    f"(cycle 0 is the reset state; `>` marks cycle {t}, where the property "
                                    "fails):", real, t, cols)
            when = "" if exact else " (its memories starting at 0)"
            return [f"the real hierarchy{when} fails the same way on these inputs: the trace is its run, with "
                    "the instances' registers; this is a bug of this module or of what it feeds its "
                    "instances, not of their contracts"], trace, True
        return [self.weak_note(cycles, real, exact, conclusive=exact)], None, False if exact else None

    def weak_note(self, cycles, real, exact: bool, conclusive: bool) -> str:
        """The note for a counterexample that the real hierarchy may not produce."""
        differ = None
        for c, (abstract, flat) in enumerate(zip(cycles, real)):
            for name in sorted(self.sys.free_outputs):
                got = flat.values[name] if name in flat.values else flat.shown.get(name)
                if got is not None and abstract.inputs[name] != got:
                    differ = (c, name, abstract.inputs[name], got)
                    break
            if differ:
                break
        head = ("the outputs of the instances in this trace are values their modules' `ensures` allow, "
                "chosen by the checker like inputs")
        if differ is None:
            return head + ("; the real instances give the same values here" if conclusive else "")
        c, name, shown, actual = differ
        inst = self.d.instances[name.split(".", 1)[0]]
        ty = inst.child.signals[name.split(".", 1)[1]].ty
        fact = (f"the real `{S.written(name)}` is {self.fmt(actual, ty)} in cycle {c}, not "
                f"{self.fmt(shown, ty)}")
        if conclusive:
            return (f"{head}: {fact}, and with the logic of every instance these inputs do not break the "
                    f"property: the trace fails only because the contract of `{S.written(inst.module)}` is too "
                    f"weak. If the property should hold, strengthen the `ensures` of `{S.written(inst.module)}` "
                    f"with what this module relies on (they are all it knows of `{S.written(inst.module)}`)")
        return (f"{head}: {fact} (with its memories starting at 0). If the real hierarchy cannot fail "
                f"here, the contract of `{S.written(inst.module)}` is too weak: strengthen its `ensures`")


def _below(d: Design) -> list[Design]:
    """Every module `d` instantiates, directly or not."""
    out: list[Design] = []
    todo = [i.child for i in d.instances.values() if i.child is not None]
    while todo:
        c = todo.pop()
        if not any(c is x for x in out):
            out.append(c)
            todo += [i.child for i in c.instances.values() if i.child is not None]
    return out


def _same_prop(props: list[E.Prop], p: E.Prop) -> int | None:
    """The index in a flat system of this module's property `p` (its own, not an instance's)."""
    for i, q in enumerate(props):
        if (q.kind, q.span, q.text_span, q.what, q.inst) == (p.kind, p.span, p.text_span, p.what, p.inst):
            return i
    return None
