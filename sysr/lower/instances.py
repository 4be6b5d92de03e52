"""Instances in the Verilog: each `inst u = child(...)` as an instance of the child's module.

The hierarchy is kept: one Verilog module per sysr module (`lower_hierarchy`: the top first,
then every module it instantiates, directly or not, in order of first instance), and each
instance of the source an instance in its parent, with the same name, connected by name in the
child's port order (the child's port names as its own lowering writes them, keywords escaped):

    counter lo (
      .clk(clk),
      .rst(rst),
      .en(go),
      .count(lo_count)
    );

Each output `u.y` is a wire `u_y`; an input bound to a name or a constant is connected to it
directly, any other binding goes through a wire `u_x` driven by an `assign` just above the
instance. These names are handed out after the source's (a clash gets `_1`, ...), so they stay
readable and stable; module names are the source's, escaped where they are Verilog keywords.
A binding of a module with parameters (§4.8) is a module of its own, named after the module
and the binding (`fifo<W = 16, DEPTH = 5>` is `fifo__W16_DEPTH5`); the top keeps its name. An
extern module's binding is an instance of the user's Verilog module with its parameters set,
`ram #(.W(4), .D(8)) r (...)` (its `--formal` model is a module per binding).
"""

from __future__ import annotations

from ..front import syntax as S
from ..model import Design, Hierarchy, Instance
from .expr import ATOM, Ctx, _range
from .names import Names, escape_keyword, source_names


def module_names(h: Hierarchy) -> dict[str, str]:
    """The Verilog name of every module lowered (by `Design.name`): its own or its binding's,
    escaped and made unique."""
    names = Names()
    return {d.name: names.claim(("module", d.name), verilog_base(d, i == 0)) for i, d in enumerate(h.reachable())}


def verilog_base(d: Design, top: bool) -> str:
    """`fifo__W16_DEPTH5` for a binding (a negative value as `m3`); the module's name for the top
    and for a module without parameters."""
    if not d.binding or top:
        return d.module.name
    return d.module.name + "__" + "_".join(f"{p}{v}" if v >= 0 else f"{p}m{-v}" for p, v in d.binding)


def extern_params(d: Design) -> str:
    """`.W(4), .D(8)`: every parameter of an extern module's binding, for its Verilog instance."""
    return ", ".join(f".{escape_keyword(p)}({v})" for p, v in d.binding)


def extern_names(h: Hierarchy) -> list[str]:
    """The Verilog modules a lowering needs besides its own: each extern module's name, once."""
    return list(dict.fromkeys(escape_keyword(d.module.name) for d in h.externs()))


class InstanceLowering:
    """The part of `ModuleLowering` that writes instances (a mixin over its state)."""

    d: Design
    names: Names
    verilog_modules: dict[str, str]
    formal: bool = False  # the `--formal` output: an extern instance's model under `ifdef FORMAL`

    def claim_instance_names(self) -> None:
        """After the source's names: each instance, then the wires of its outputs."""
        for inst in self.d.instances.values():
            self.names.claim(("inst", inst.name), inst.name)
        for inst in self.d.instances.values():
            for port in self.output_ports(inst):
                self.names.claim(("sig", f"{inst.name}.{port.name}"), f"{inst.name}_{port.name}")

    @staticmethod
    def output_ports(inst: Instance) -> list[S.Port]:
        return [p for p in inst.child.ports if p.kind in ("out", "out_reg")]

    def instance_wires(self) -> list[str]:
        """The Verilog names of every instance's output wires (read like signals)."""
        return [self.names[("sig", f"{i.name}.{p.name}")] for i in self.d.instances.values()
                for p in self.output_ports(i)]

    def instance_decls(self) -> list[str]:
        out = []
        for inst in self.d.instances.values():
            for p in self.output_ports(inst):
                width = inst.child.signals[p.name].ty.width
                out.append(f"wire {_range(width)}{self.names[('sig', f'{inst.name}.{p.name}')]};")
        return out

    def instance(self, item: S.InstDecl) -> list[str]:
        """An instance, after the `assign`s of the bindings that need a wire of their own."""
        inst = self.d.instances[item.name]
        child_names = source_names(inst.child)  # the child's ports as its own lowering names them
        wires, assigns, conns = [], [], []
        for p in inst.child.ports:
            port = child_names[("sig", p.name)]
            if p.kind in ("out", "out_reg"):
                conns.append((port, self.names[("sig", f"{inst.name}.{p.name}")]))
                continue
            b = inst.bindings[p.name]
            if p.kind == "clock" or p.kind in S.RESET_KINDS:
                conns.append((port, self.name(self.d.signals[b.value.name])))
                continue
            v = self.x(b.value, Ctx("assign"))
            if v.prec == ATOM:
                conns.append((port, v.rhs))
                continue
            width = inst.child.signals[p.name].ty.width
            wire = self.names.claim(("sig", f"{inst.name}.{p.name}"), f"{inst.name}_{p.name}")
            wires.append(f"wire {_range(width)}{wire};")
            assigns.append(f"assign {wire} = {v.rhs};")
            conns.append((port, wire))
        module = self.verilog_modules.get(inst.key, inst.module)
        lines = [f"// `{inst.name}`: an instance of `{inst.key or inst.module}`"] + wires + assigns
        name = self.names[('inst', inst.name)]
        if inst.child.extern and inst.child.binding:
            # the user's Verilog module, its parameters set; `--formal` has a model per binding
            head = f"{escape_keyword(inst.child.module.name)} #({extern_params(inst.child)}) {name} ("
            lines += ["`ifdef FORMAL", f"{module} {name} (", "`else", head, "`endif"] if self.formal else [head]
        else:
            lines.append(f"{module} {name} (")
        lines += [f"  .{port}({value})" + ("," if i < len(conns) - 1 else "") for i, (port, value) in enumerate(conns)]
        return self.named(lines + [");"])


def lower_hierarchy(h: Hierarchy, source_name: str, lower_one) -> str:
    """Every module the top reaches, the top first, each lowered by `lower_one(design, module
    names, header)`; one header comment for the file."""
    names = module_names(h)
    texts = [lower_one(d, names, i == 0) for i, d in enumerate(h.reachable())]
    return "\n".join(texts)
