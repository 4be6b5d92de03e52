"""A module with its instances inlined: the transition system of the real hierarchy.

`flatten(design)` elaborates the children first, each under its instance's name (`u.`), then
the module itself, whose reads of `u.y` find the child's output: a comb signal `u.y`, or the
child's register `u.y` for a registered output (as the child reads it: under an asynchronous
reset, its reset value while the reset is active). The child reads its inputs as the parent's
signals `u.x` (the bindings) and its reset through `u.rst`, which its binding makes the
parent's own reset. One size budget (L007) covers the whole hierarchy. An extern module's
outputs stay free inputs `u.y` (its logic is Verilog): whoever runs the system gives them, as
the Amaranth back end does from an `Instance` of its Verilog module.

The child's properties come along, prefixed: its `ensures`, `invariant`, `assert` and
obligations as properties, and its `requires` as `instance` properties (obligations of the
parent in the real hierarchy). The division identities of every level are lemmas. The comb
signals are put in an evaluation order once, at the end, each after what it reads.
"""

from __future__ import annotations

from dataclasses import replace

from .. import overrun
from ..model import Design
from .clocks import child_nets, clocking
from .contract import enum_inputs, instance_span
from .ir import Var, children, postorder
from .module import Elaborator
from .system import System, variant_registers


def flatten(design: Design, clocks: tuple | None = None) -> System:
    """The flat system; `clocks` (a `Clocking` and the top's clock nets) replaces the design's own
    (`elaborate(..., edges=False)`)."""
    clocks = clocks or (clocking(design), {c: c for c in design.clocks})
    system = _flatten(design, "", overrun.design_size_budget(), clocks, True)
    if design.instances:  # once, for the whole hierarchy (per level it would be quadratic)
        system.comb = evaluation_order(system.comb)
        system.enum_state = variant_registers(system)
    return system


def _flatten(d: Design, prefix: str, budget: overrun.Budget, clocks: tuple, top: bool = False) -> System:
    children = {name: _flatten(inst.child, f"{prefix}{name}.", budget, (clocks[0], child_nets(inst, clocks[1])))
                for name, inst in d.instances.items() if not inst.child.extern}
    el = Elaborator(d, prefix, budget, clocks=clocks)
    el.top = top
    for name, inst in d.instances.items():
        if inst.child.extern:
            continue
        for port, sig in inst.child.signals.items():  # registered outputs: as the child reads them
            if sig.kind == "out_reg":
                el.inst_values[f"{name}.{port}"] = children[name].visible.get(
                    f"{prefix}{name}.{port}", Var(f"{prefix}{name}.{port}", sig.ty))
    system = el.system()
    for name, child in children.items():
        inst = d.instances[name]
        system.state += child.state
        system.comb.update(child.comb)
        system.comb_ghost |= child.comb_ghost
        system.visible.update(child.visible)
        system.props += [replace(q, inst=q.inst or prefix + name, module=q.module or inst.module)
                         for q in child.props]
        system.props += [replace(r, kind="instance", span=instance_span(inst), inst=prefix + name,
                                 module=inst.module) for r in child.requires if r.kind == "requires"]
        system.props += enum_inputs(inst, prefix)
        system.requires += [r for r in child.requires if r.kind == "lemma"]
    if children:
        bound = set(system.comb) | {sv.name for sv in system.state}
        system.inputs = [(n, t) for n, t in system.inputs if n not in bound]
        system.free_outputs = {n for n in system.free_outputs if n not in bound}  # (an extern's stay free)
    return system


def evaluation_order(comb: dict[str, object]) -> dict[str, object]:
    """The comb signals with each after the comb signals it reads (the input has no cycle)."""
    out: dict[str, object] = {}
    reads: dict[int, frozenset] = {}

    def names(root) -> frozenset:
        for node in postorder(root, reads):
            got = set()
            if isinstance(node, Var) and node.name in comb:
                got.add(node.name)
            for k in children(node):
                got |= reads[id(k)]
            reads[id(node)] = frozenset(got)
        return reads[id(root)]

    todo = [(n, False) for n in reversed(comb)]
    open_: set[str] = set()  # expanded, not placed yet
    while todo:
        name, expanded = todo.pop()
        if name in out:
            continue
        if expanded:
            out[name] = comb[name]
            continue
        if name in open_:
            continue  # (a cycle: the static checks exclude it)
        open_.add(name)
        todo.append((name, True))
        todo += [(m, False) for m in sorted(names(comb[name])) if m not in out and m != name]
    return out
