"""A module's transition system for its proofs: each instance replaced by its module's contract.

What crosses the boundary, for an instance `u` of module `C` (docs/reference.md, "Hierarchy"):

- `u.y`, each output of `C`, is free in every cycle: nothing of `C`'s registers, wires or logic
  is in the parent's system (C is proven on its own, once).
- C's *contract part* is: its ports, its ghost state and ghost logic, its `prev` history (with
  a previous-cycle flag of C's own: C's reset is the parent's, passed through), its `requires`
  and its `ensures`. Ghost logic and contracts read only ports, ghost state and `prev` (S001),
  so this part is a function of C's port values over time, and it is elaborated inside the
  parent with C's inputs read as the parent's `u.x` (the bindings) and its outputs as `u.y`.
- Each of C's `requires` (and the implicit one that an enum input holds a variant) becomes an
  `instance` property of the parent: proven like the parent's own properties, reported at the
  instance, naming C's clause.
- Each of C's `ensures` becomes a `contract` assumption of the parent (`System.assumes`), and
  so does "`u.y` holds a variant" for an enum output that holds one by construction in C.
  C's invariants and asserts do not cross: they may name C's implementation.

When a contract assumption may be used is the prover's business (`sysr.smt.prove`): C's
ensures hold in a cycle only if its requires held in that cycle and every one before, so a
proof of one of C's requirements in cycle t assumes C's ensures in cycles before t only.
"""

from __future__ import annotations

from ..front import syntax as S
from ..front.check.context import subnodes
from ..model import Design, Instance, Signal
from ..types import BOOL
from .ir import FALSE, Bin, Const, Var, mk_or, postorder
from .clocks import child_nets
from .module import Elaborator
from .system import Prop, System, variant_outputs, variant_registers


def with_contracts(design: Design) -> System:
    el = Elaborator(design)
    system = el.system()
    for inst in design.instances.values():
        add_contract(system, inst, (el.clocking, child_nets(inst, el.nets)) if inst.child.clocks else None)
    if system.valid_outputs:
        system.enum_state = variant_registers(system)
    return system


class _ContractElaborator(Elaborator):
    """The contract part of a child, under the instance's name. The child's registered outputs
    are the parent's free `u.y` (as the child reads them), not registers of its own here."""

    def state_read(self, sig):
        if sig.is_port:
            return Var(self.prefix + sig.name, sig.ty)
        return super().state_read(sig)


def instance_span(inst: Instance) -> S.Span:
    """Where an instance's requirements are reported: `inst u = child`."""
    d = inst.decl
    return S.Span(d.span.line, d.span.column, d.module_span.end_line, d.module_span.end_column)


def add_contract(system: System, inst: Instance, clocks: tuple | None = None) -> None:
    """Add instance `inst`'s contract part to `system`; `clocks`: the parent's clocking and the
    top clock of each of the child's (its ghost state and `prev` history are in its domains)."""
    child = inst.child
    prefix = f"{inst.name}."
    part = _ContractElaborator(child, prefix, ghost_only=True, clocks=clocks).system()
    system.state += part.state
    system.comb.update(part.comb)
    system.comb_ghost |= set(part.comb)
    system.visible.update(part.visible)
    at = instance_span(inst)
    for r in part.requires:
        if r.kind == "requires":
            system.props.append(Prop("instance", r.expr, at, "", r.text_span, inst=inst.name, module=inst.module))
        else:  # the division identities: true everywhere
            system.requires.append(r)
    for p in part.props:
        if p.kind == "ensures":
            early = "early" if settled_before(inst, part, p.expr) else ""
            system.assumes.append(Prop("contract", p.expr, p.span, "", p.text_span, early, inst=inst.name,
                                         module=inst.module))
    system.props += enum_inputs(inst)
    for port in valid_enum_outputs(child):
        name = f"{inst.name}.{port}"
        ty = child.signals[port].ty
        system.valid_outputs.add(name)
        system.assumes.append(Prop("contract", holds_variant(child, Var(name, ty)), inst.decl.name_span,
                                     f"`{S.written(name)}` holds a variant of `{S.written(ty.enum)}`", None,
                                     "enum", inst=inst.name, module=inst.module))


def settled_before(inst: Instance, part: System, expr) -> bool:
    """Whether one of the child's `ensures` is already decided before its inputs of this cycle
    are (an *early* ensures, which may be assumed in proving the child's requirements in the same
    cycle). So it is when the clause reads no input of this cycle (nor an output that depends on
    one, nor anything of an asynchronously reset child, whose registers change with the reset
    input), and every requirement of the child reads only its inputs of the cycle: then in any
    state reached with the requirements met so far, some inputs meet them now (the child's
    requirements are satisfiable, or it is rejected with V001), the child's proof says the clause
    holds with those inputs, and the clause does not depend on which inputs come."""
    child = inst.child
    if any(k.startswith("areset") for k in child.resets.values()) or not all(reads_inputs_only(child, s.expr) for s in child.specs() if s.kind == "requires"):
        return False
    p = f"{inst.name}."
    now = {p + q.name for q in child.ports if q.kind not in ("out", "out_reg")}
    now |= {p + y for y, deps in child.summary.items() if deps}
    done: dict = {}
    for node in postorder(expr, done, lambda v: part.comb.get(v.name)):
        done[id(node)] = True
        if isinstance(node, Var) and node.name in now:
            return False
    return True


def reads_inputs_only(d: Design, e) -> bool:
    """Whether an expression reads inputs of the cycle only: no `prev`, output, state or ghost."""
    for n in subnodes(e, object):
        if isinstance(n, S.Call) and n.func == "prev":
            return False
        ref = d.refs.get(id(n)) if isinstance(n, (S.Name, S.InstPort)) else None
        if isinstance(ref, Signal) and not ref.is_input:
            return False
    return True


def enum_inputs(inst: Instance, prefix: str = "") -> list[Prop]:
    """The implicit requirement that each enum input of the child holds a variant."""
    out = []
    for port, b in inst.bindings.items():
        sig = inst.child.signals[port]
        if sig.ty is not None and sig.ty.kind == "enum" and sig.kind == "in":
            name = f"{inst.name}.{port}"
            out.append(Prop("instance", holds_variant(inst.child, Var(prefix + name, sig.ty)), instance_span(inst),
                              f"`{S.written(name)}` holds a variant of `{S.written(sig.ty.enum)}`",
                              b.value.span, "enum", inst=prefix + inst.name, module=inst.module))
    return out


def holds_variant(d: Design, value):
    """The bool IR: an enum value is one of its variants' encodings."""
    ty = value.ty
    out = FALSE
    for code in sorted(set(d.enums[ty.enum].variants.values())):
        out = mk_or(out, Bin("==", value, Const(code, ty), BOOL))
    return out


def valid_enum_outputs(d: Design) -> set[str]:
    """The enum outputs of `d` that hold a variant by construction (`sysr.elab.variant_outputs`),
    with its own instances' valid outputs taken as valid. None for an extern module: what its
    Verilog outputs is known only through its `ensures`."""
    if d.extern:
        return set()
    if not any(s.ty is not None and s.ty.kind == "enum" for s in d.signals.values() if s.kind in ("out", "out_reg")):
        return set()
    system = Elaborator(d).system()
    for inst in d.instances.values():
        system.valid_outputs |= {f"{inst.name}.{p}" for p in valid_enum_outputs(inst.child)}
    return variant_outputs(system)
