"""Several modules in a file: module names, port signatures, instances and the top module.

Each module's ports are typed before any module body is checked, so that an instance
`inst u = child(port: expr, ...);` can be checked against its child wherever the child is
written. An instance binds every input of the child (clock and reset included) by name, exactly
once (A011); it may not bind an output (A011) or a port the child lacks (N007), and names a
module that exists (N006). The clock and the reset are passed through: the binding of a child's
clock is this module's clock, and of its reset this module's reset of the same kind (A008), never
logic. Each input becomes the signal `u.x` of the parent, driven by its binding; each output the
signal `u.y`, read as `u.y` (N007 for an input or a port the child lacks). The top module is the
one no other module instantiates, or the one `--top` names (P005 otherwise); a module that
contains itself through its instances is A012.
"""

from __future__ import annotations

from ... import limits, overrun
from ...diagnostics import Related
from ...model import Instance, Signal
from ...types import BOOL, Ty
from .. import syntax as S
from .context import CheckerBase, Ctx
from .decls import _call_cycle, _components

OUTPUT_KINDS = ("out", "out_reg")


def inputs_of(m: S.Module) -> list[S.Port]:
    """The ports an instance of `m` binds: every port but the outputs."""
    return [p for p in m.ports if p.kind not in OUTPUT_KINDS]


def _names(ports) -> str:
    return ", ".join(f"`{S.written(p.name)}`" for p in ports)


class Instances(CheckerBase):
    """Module names, signatures, instances, `u.y` reads and the choice of the top module."""

    # ---- modules -----------------------------------------------------------------------
    def declare_modules(self, modules: list[S.Module]) -> list[S.Module]:
        """The modules with a name of their own (N002 for a second module of the same name)."""
        self.module_asts: dict[str, S.Module] = {}
        out = []
        for m in modules:
            first = self.module_asts.get(m.name)
            if first is not None:
                self.err("N002", f"module `{S.written(m.name)}` is defined twice", m.name_span,
                         related=[Related(first.name_span, "first defined here")])
                continue
            self.module_asts[m.name] = m
            out.append(m)
        return out

    def module_signatures(self, modules: list[S.Module]) -> None:
        """The type of every port of these modules, or of their bindings' copies (None for the clock
        and where it has an error), before their bodies are checked."""
        for m in modules:
            for p in m.ports:
                ty = BOOL if p.kind in S.RESET_KINDS else None
                if p.ty is not None:
                    ty = self.resolve_type(p.ty)
                self.port_types[id(p)] = ty

    # ---- instances: declarations ---------------------------------------------------------
    def inst_decl(self, item: S.InstDecl) -> None:
        """Declare instance `u`: its child, its bindings (checked by name), `u.x` and `u.y`."""
        name = item.name
        taken = self.signals.get(name) or self.instances.get(name)
        if taken is not None or name in self.broken_signals:
            first = taken.span if isinstance(taken, Signal) else getattr(getattr(taken, "decl", None), "name_span", None)
            self.err("N002", f"`{S.written(name)}` is declared twice", item.name_span,
                     related=[Related(first, "first declared here")] if first else [])
            self.broken_signals.add(name)
            self.signals.pop(name, None)
            return
        if name in self.global_spans:
            self.err("N002", f"`{S.written(name)}` is already the name of {self.global_kind(name)}; an instance "
                             "needs a name of its own", item.name_span,
                     related=[Related(self.global_spans[name], "defined here")])
            self.broken_signals.add(name)
            return
        child = self.module_asts.get(item.module)
        if child is None:
            self.err("N006", f"unknown module `{S.written(item.module)}`"
                     + self.suggest(item.module, list(self.module_asts)), item.module_span,
                     "an instance names a module of the same file: `inst NAME = MODULE(port: expr, ...);`")
            self.broken_signals.add(name)  # its outputs' reads are not checked
            return
        given = self.inst_params(item)
        binding = self.binding(child, given, item.module_span, f"instance `{S.written(name)}`") \
            if given is not None else None
        if binding is None:
            self.broken_signals.add(name)  # reported: its outputs' reads are not checked
            return
        child, key = self.bind(child, binding)
        inst = Instance(name, item.module, item, {}, key=key, child_module=child)
        self.instances[name] = inst
        self.count_instance(item)
        ports = {p.name: p for p in child.ports}
        for b in item.bindings:
            p = ports.get(b.port)
            if p is None:
                self.err("N007", f"`{S.written(item.module)}` has no port `{S.written(b.port)}`"
                         + self.suggest(b.port, [q.name for q in inputs_of(child)]), b.port_span,
                         f"its inputs: {_names(inputs_of(child)) or 'none'}")
            elif p.kind in OUTPUT_KINDS:
                self.err("A011", f"`{S.written(b.port)}` is an output of `{S.written(item.module)}`; an instance "
                                 "binds inputs only", b.port_span,
                         f"read the output as `{S.written(name)}.{S.written(b.port)}` where it is needed")
            elif b.port in inst.bindings:
                self.err("A011", f"input `{S.written(b.port)}` of instance `{S.written(name)}` is bound twice",
                         b.port_span, "bind each input exactly once",
                         related=[Related(inst.bindings[b.port].port_span, "first bound here")])
            else:
                inst.bindings[b.port] = b
        missing = [p for p in inputs_of(child) if p.name not in inst.bindings]
        if missing:
            example = ", ".join(f"{S.written(p.name)}: ..." for p in inputs_of(child))
            self.err("A011", f"instance `{S.written(name)}` of `{S.written(item.module)}` does not bind "
                             f"{_names(missing)}", item.name_span,
                     "every input of the child is bound by name, its clock and reset too: "
                     f"`inst {S.written(name)} = {S.written(item.module)}({example});`")
        for p in child.ports:
            ty = self.port_types.get(id(p))
            if p.kind == "clock" or (p.kind not in OUTPUT_KINDS and p.name not in inst.bindings):
                continue
            kind = "inst_out" if p.kind in OUTPUT_KINDS else "inst_in"
            where = inst.bindings[p.name].port_span if kind == "inst_in" else item.name_span
            decl = inst.bindings[p.name] if kind == "inst_in" else item
            self.add_signal(Signal(f"{name}.{p.name}", kind, ty, where, decl))

    def count_instance(self, item: S.InstDecl) -> None:
        """L009 past `limits.MAX_INSTANCES` instances in the file."""
        self.instance_count = getattr(self, "instance_count", 0) + 1
        if self.instance_count > limits.MAX_INSTANCES:
            raise overrun.exceeded("L009", f"the file declares more than {limits.MAX_INSTANCES} instances",
                                   item.name_span, "group repeated parts into fewer, larger modules")

    # ---- instances: bindings -------------------------------------------------------------
    def inst_bindings(self, item: S.InstDecl) -> None:
        """Type every binding against its port; the clock and the reset must be passed through."""
        inst = self.instances.get(item.name)
        if inst is None or inst.decl is not item:
            for b in item.bindings:  # an unknown module or a clashing name: still look at the values
                if not isinstance(b.value, S.Name):
                    self.expr(b.value, Ctx("logic"), None, quiet_literal=True)
            return
        ports = {p.name: p for p in inst.child_module.ports}
        for port, b in inst.bindings.items():
            p = ports[port]
            if p.kind == "clock":
                self.pass_clock(inst, b)
            elif p.kind in S.RESET_KINDS:
                self.pass_reset(inst, b, p)
            else:
                self.bind_value(inst, b, self.port_types.get(id(p)))

    def bind_value(self, inst: Instance, b: S.Binding, ty: Ty | None) -> None:
        got = self.operand(b.value, Ctx("logic"), ty, quiet=ty is None)
        if got is not None and ty is not None and got != ty:
            self.err("T001", f"input `{S.written(b.port)}` of `{S.written(inst.module)}` has type `{ty}`, "
                             f"found `{got}`", b.value.span, *self.conversion_note(got, ty))

    def passed(self, b: S.Binding, kinds: tuple[str, ...]) -> Signal | None:
        """The port of this module that `b` passes through unchanged, if it is one of `kinds`."""
        if not isinstance(b.value, S.Name):
            return None
        sig = self.signals.get(b.value.name)
        if sig is None or not sig.is_port or sig.kind not in kinds:
            return None
        self.refs[id(b.value)] = sig
        return sig

    def pass_clock(self, inst: Instance, b: S.Binding) -> None:
        if self.passed(b, ("clock",)) is not None:
            return
        clocks = [s for s in self.signals.values() if s.kind == "clock" and s.is_port]
        if clocks:
            fix = f"pass this module's clock through: `{S.written(b.port)}: {S.written(clocks[0].name)}`"
        else:
            fix = "this module has no clock to pass: add a port `clk: clock` and bind it"
        self.err("A008", f"the clock `{S.written(b.port)}` of instance `{S.written(inst.name)}` must be this "
                         "module's clock", b.value.span, f"a clock is passed through, never made by logic; {fix}")

    def pass_reset(self, inst: Instance, b: S.Binding, port: S.Port) -> None:
        if self.passed(b, (port.kind,)) is not None:
            return
        resets = [s for s in self.signals.values() if s.kind in S.RESET_KINDS and s.is_port]
        what = f"the reset `{S.written(b.port)}` of instance `{S.written(inst.name)}`"
        if not resets:
            self.err("A008", f"{what} needs this module's reset, and it has none", b.value.span,
                     f"add a port of the same kind (`rst: {port.kind}`) and pass it through")
        elif resets[0].kind != port.kind:
            self.err("A008", f"{what} is a `{port.kind}`; this module's reset `{S.written(resets[0].name)}` is a "
                             f"`{resets[0].kind}`", b.value.span,
                     "a reset is passed through unchanged, never inverted or made by logic: declare the "
                     "child's reset port and this module's of the same kind")
        else:
            self.err("A008", f"{what} must be this module's reset", b.value.span,
                     f"a reset is passed through unchanged, never made by logic: `{S.written(b.port)}: "
                     f"{S.written(resets[0].name)}`; for a clear of the child's own, give it an input")

    # ---- reading an output ---------------------------------------------------------------
    def e_InstPort(self, e: S.InstPort, ctx: Ctx, expected):
        inst = self.instances.get(e.inst)
        if inst is None:
            if e.inst in self.broken_signals or e.inst in self.broken:
                return None
            if e.inst in ctx.scope or e.inst in self.signals or e.inst in self.consts:
                self.err_once(("inst", e.inst), "N001", f"`{S.written(e.inst)}` is not an instance; "
                              "`NAME.port` reads an output of an instance", e.inst_span)
            else:
                self.err_once(("inst", e.inst), "N001", f"unknown instance `{S.written(e.inst)}`"
                              + self.suggest(e.inst, list(self.instances)), e.inst_span,
                              "declare it: `inst NAME = MODULE(port: expr, ...);`")
            return None
        sig = self.signals.get(f"{e.inst}.{e.port}")
        if sig is None or sig.kind != "inst_out":
            child = self.module_asts[inst.module]
            outs = [p for p in child.ports if p.kind in OUTPUT_KINDS]
            if any(p.name == e.port for p in inputs_of(child)):
                self.err("N007", f"`{S.written(e.port)}` is an input of `{S.written(inst.module)}`; only "
                                 f"the outputs of instance `{S.written(e.inst)}` can be read", e.port_span,
                         "use the expression bound to it instead")
            else:
                self.err("N007", f"`{S.written(inst.module)}` has no output `{S.written(e.port)}`"
                         + self.suggest(e.port, [p.name for p in outs]), e.port_span,
                         f"its outputs: {_names(outs) or 'none'}")
            return None
        if ctx.where == "fn":
            self.err("N001", f"`{S.written(e.inst)}.{S.written(e.port)}` is a signal; a fn sees only its "
                             "parameters and consts", e.span, "pass it as an argument")
            return None
        if ctx.where in ("const", "init"):
            self.err("T010", f"`{S.written(e.inst)}.{S.written(e.port)}` is a signal; a constant is needed here",
                     e.span)
            return None
        self.refs[id(e)] = sig
        self.read_rules(sig, e.span, ctx)
        return sig.ty

    # ---- the hierarchy -------------------------------------------------------------------
    @staticmethod
    def _module_graph(modules: list[S.Module]) -> dict[str, set[str]]:
        names = {m.name for m in modules}
        return {m.name: {i.module for i in m.items if isinstance(i, S.InstDecl) and i.module in names}
                for m in modules}

    def cyclic_modules(self, modules: list[S.Module]) -> set[str]:
        """The modules on a cycle of instances, by name: each is checked in one binding only, so
        that a cycle through changing parameter values cannot go on for ever (it is A012)."""
        graph = self._module_graph(modules)
        return {n for comp in _components(graph) if len(comp) > 1 or comp[0] in graph[comp[0]] for n in comp}

    def recursion(self, designs: dict) -> set[str]:
        """A012 for every module that contains itself through its instances; the designs' names."""
        first: dict[str, object] = {}
        for d in designs.values():
            first.setdefault(d.module.name, d)
        graph: dict[str, set[str]] = {name: set() for name in first}
        for d in designs.values():
            graph[d.module.name] |= {i.module for i in d.instances.values() if i.module in first}
        looping: set[str] = set()
        for comp in _components(graph):
            if len(comp) > 1 or comp[0] in graph[comp[0]]:
                looping |= set(comp)
        reported: set[str] = set()
        for name, d in first.items():
            if name not in looping or name in reported:
                continue
            cycle = _call_cycle(name, graph)
            reported.update(cycle)
            inst = next(i for i in d.instances.values() if i.module in set(cycle[1:] + [name]) & looping)
            path = " -> ".join(S.written(n) for n in cycle + [name])
            self.err("A012", f"module `{S.written(name)}` contains itself through its instances ({path})",
                     inst.decl.module_span, "a module cannot be part of itself: break the cycle")
        return {key for key, d in designs.items() if d.module.name in looping}

    def depth(self, designs: dict, looping: set[str]) -> None:
        """L010 when instances nest more than `limits.MAX_HIERARCHY_DEPTH` levels."""
        memo: dict[str, int] = {}

        def levels(name: str) -> int:
            if name not in memo:
                memo[name] = 1  # (a module on a cycle: reported as A012)
                kids = [i.key for i in designs[name].instances.values() if i.key in designs]
                memo[name] = 1 + max((levels(k) for k in kids if k not in looping), default=0)
            return memo[name]

        for name, d in designs.items():
            if name not in looping and levels(name) > limits.MAX_HIERARCHY_DEPTH:
                raise overrun.exceeded("L010", f"instances nest more than {limits.MAX_HIERARCHY_DEPTH} modules "
                                               f"deep under `{S.written(d.module.name)}`", d.module.name_span,
                                       "flatten some levels: put small modules' logic into their parents")

    def choose_top(self, modules: list[S.Module], top: str | None) -> str | None:
        """The top module's name: `top` when given, else the one module no other module
        instantiates (P005 when there is none or more than one). None when there is no top."""
        if top is not None:
            if top in self.module_asts and not self.module_asts[top].extern:
                return top
            if top in self.module_asts:
                self.err("P005", f"`{S.written(top)}` is an extern module, so it cannot be the top module: its "
                                 "logic is Verilog", self.module_asts[top].name_span)
                return None
            self.err("P005", f"the file has no module `{S.written(top)}` (the top module asked for)",
                     modules[0].name_span, f"its modules: {', '.join(f'`{S.written(m.name)}`' for m in modules)}")
            return None
        graph = self._module_graph(modules)
        used = {c for children in graph.values() for c in children}
        tops = [m for m in modules if m.name not in used and not m.extern]  # (an extern is never the top)
        if len(tops) == 1:
            return tops[0].name
        if not tops and all(m.extern for m in modules):
            self.err("P005", "the file has only extern modules; a design is a `module` with a body that "
                             "instantiates them", modules[0].name_span)
            return None
        if not tops:
            self.err("P005", "every module is instantiated by another, so none is the top", modules[0].name_span,
                     "the top module is the one no other module instantiates")
            return None
        first, *rest = tops
        self.err("P005", f"the top module is ambiguous: {_names(tops)} are each instantiated by no other "
                         "module", rest[0].name_span,
                 "a file's top module is the one no other module instantiates: instantiate the helper "
                 "modules, remove the unused ones, or name the top with --top",
                 related=[Related(m.name_span, "a candidate for the top") for m in [first] + rest[1:]])
        return first.name
