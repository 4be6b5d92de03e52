"""`SysrComponent`: an elaborated sysr design as an Amaranth `wiring.Component`.

The component is built from the transition system of `sysr.elab` (the IR the prover and the
evaluator interpret): comb signals become `m.d.comb` assignments, registers `m.d.<domain>`
assignments, register arrays lists of signals, memories `amaranth.lib.memory.Memory`.
Ghost state, `prev` history and properties are left out: they are about the design, not part
of it (the checker has made sure that no design logic reads them).

Clocks. Each clock of the design is a clock domain of the user's (`domains`, clock -> domain;
`domain`, "sync" by default, with one clock; each clock's own name with several): a register
is in its sysr domain's (`sysr.amaranth.domains`: the clock's domain at the rising edge, a
local `clk_edge="neg"` domain on the same clock at the falling one), and a read of a clock is
its level, `ClockSignal(domain)`. The component is built from the system elaborated with
`edges=False`, where every register takes its next value in every step: the edge conditions
the evaluator and the proofs put in the next-state functions (which clocks tick in a step) are
the domains' own clocks here. `domain` is the first clock's domain. A falling-edge domain's
clock is a comb copy of the user's, which Amaranth's simulator sees change a delta cycle late;
its registers take their next values through comb signals (`_settled`), so that an edge of
another clock at the same instant is still seen after theirs, as in the RTLIL (an input port
that the user drives straight from a register of such a clock, not through comb logic, would
still be seen late in simulation).

Reset. With `reset="domain"` (the default) the design's reset port is the reset of each domain
it resets (with several clocks, drive their domains' resets from one signal): it is not in the
signature, registers are reset by the domain (to their sysr reset values; memories are not),
and logic that reads the reset, and the hold on memory writes while the reset is active, read
`ResetSignal` of its first clock's domain (an active-low `reset_n` or `areset_n` reads its
complement: Amaranth resets are active high). The domain's kind must match the design's: a
synchronous `reset`/`reset_n` wants `async_reset=False` (the proofs assume the registers clear
at the edge), an asynchronous `areset`/`areset_n` wants `async_reset=True` (`reset_async` says
which): the domain then clears the registers as soon as its reset is active, which is exactly
sysr's meaning (they read as their reset values in that same cycle and hold them through the
edges), so the registers are read as they are. `ResetInserter` resets the registers but not
what reads `ResetSignal`. With `reset="port"` the reset stays an input port with its sysr name
and polarity, registers are `reset_less` and reset by the logic exactly as `sysr lower` writes
it, so the domain's own reset does not touch the component; with an asynchronous reset the
logic reads each register through `reset_active ? init : register` (`System.visible` of
`sysr.elab`), and the registers take their reset values at the edge; that is sysr's meaning
only when every step is an edge of every domain (one clock at one edge), so a design with an
asynchronous reset and several clocks, or both edges, is refused in "port" mode (a
`ValueError`). `registers` are the flip-flops, `visible` the registers as the design reads them
(the same signals but in "port" mode with an asynchronous reset, where they are those muxes). A
design without a clock uses no domain; its reset, if it has one, is an ordinary input port.

Amaranth's simulator (0.5) runs a domain's processes at the rising edge of an asynchronous
domain reset as well as at the clock edge, before the comb signals have settled: a memory write
port there writes whatever its enable shows at that instant, and a `reset_less` register takes
its next value (the RTLIL's `$dff` does neither). In "domain" mode with an asynchronous reset
the memories' write ports are therefore in a local reset-less domain `<domain>_memw`
(`<domain>_fall_memw` at the falling edge) whose clock is the domain's (the same `$memwr` on
the same clock once Yosys has merged the alias), and a register without a reset value, which
sysr holds while the reset is active, is held by a mux on the `ResetSignal` of its own domain
itself, which that step already shows active (not on a comb signal made from it); in "port"
mode give the component a domain whose reset is not asynchronous (or none), as its registers
are `reset_less`.

A design with instances is built flattened (`sysr.elab.flat`, what the evaluator runs): one
component with every instance's logic inside, its registers and wires under the instance's
name (`registers["u.count"]`, `wires["u.y"]`). An instance of an extern module (its logic is
Verilog) is an Amaranth `Instance` of the Verilog module of that name, its ports connected by
name (a clock to its domain's clock, the reset to this module's), its outputs
`extern_outputs["u.y"]`: Amaranth's simulator cannot run it, its RTLIL and Verilog back ends
write it.

Names. Ports keep their sysr names and order; a name Amaranth cannot take as a signature
member (a Python keyword, a leading underscore, or an attribute of the component such as
`signature`, `registers`, `elaborate`) gets a trailing `_` (`class` -> `class_`) or, for a
leading underscore, a `p` in front (`_x` -> `p_x`); `port_names` maps sysr names to members.
"""

from __future__ import annotations

import keyword
import re
import types

from amaranth.hdl import ClockSignal, Const, Instance, Module, Mux, ResetSignal, Signal, Value, unsigned
from amaranth.lib import data
from amaranth.lib import enum as am_enum
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .. import elab as E
from ..front import syntax as S
from ..lower.names import escape_keyword
from ..elab.clocks import child_nets, is_leveled, register_domains
from ..model import Design
from .arrays import MemoryArray, RegisterArray
from .domains import Domains
from .exprs import ValueBuilder
from .ops import Unsupported, port_shape, shape_of

RESET_MODES = ("domain", "port")
STATE_KINDS = ("reg", "out_reg", "mem")  # the non-ghost state kinds this back end builds


class SysrComponent(wiring.Component):
    """A sysr design as Amaranth logic; see the module docstring for clocks, reset and names.

    Attributes besides the ports: `port_names` (sysr port name -> signature member),
    `registers` (register name -> `Signal`, or a list of signals for a register array),
    `visible` (register name -> its value as the design reads it in a cycle: the register, or
    under an asynchronous reset in "port" mode `reset_active ? init : register`, a value to
    simulate or assign), `memories` (memory name -> `amaranth.lib.memory.Memory`), `wires`
    (wire name -> `Signal`), `enums` (enum name -> an `amaranth.lib.enum.Enum` of its
    encodings), `domains` (clock -> Amaranth domain), `domain` (the first clock's),
    `reset_mode`, `reset_async` (the design's reset is asynchronous: in "domain" mode, give the
    domains `async_reset=True`), `design` (the checked sysr design it was built from).
    """

    def __init__(self, design: Design, *, reset: str = "domain", domain: str = "sync",
                 domains: dict[str, str] | None = None) -> None:
        if reset not in RESET_MODES:
            raise ValueError(f"reset must be one of {', '.join(map(repr, RESET_MODES))}, not {reset!r}")
        self._MustUse__silence = True  # until it is built: Amaranth need not warn of one refused
        several = _several_resets(design)
        if several:
            raise ValueError(f"the Amaranth back end builds designs with one reset; `{design.module.name}` {several} "
                             "(one per clock domain, reference §4.10): lower it to Verilog (`sysr lower`) and "
                             "instantiate that")
        self.reset_mode = reset if design.clock is not None else "port"
        if self.reset_mode == "port" and design.reset_async and design.reset is not None and is_leveled(design):
            raise ValueError(f"`{design.module.name}` has an asynchronous reset and steps that are not an edge of "
                             "every domain (several clocks, or both edges): its registers must clear without an "
                             "edge, which takes the domains' own reset: use reset=\"domain\"")
        # every register takes its next value at its own domain's edge, which the domain gives
        system = E.elaborate(design, edges=False)
        self.design = design
        self.module_name = design.module.name
        self.reset_async = design.reset_async and design.reset is not None
        self._clocks = Domains(design, domain, domains, self.reset_mode, self.reset_async)
        self.domains = dict(self._clocks.user)  # clock -> Amaranth domain
        self.domain = self.domains[design.clock] if design.clock is not None else domain
        self._reg_domain = register_domains(design)
        self._reset_port = design.reset if (self.reset_mode == "port" and design.reset) else None
        members, self.port_names = self._signature_members(design)
        self.enums = {name: amaranth_enum(name, info.variants, info.ty.width)
                      for name, info in design.enums.items()}
        self.registers: dict[str, object] = {}
        self.memories: dict[str, object] = {}
        self.wires: dict[str, Signal] = {}
        self.visible: dict[str, object] = {}
        super().__init__(wiring.Signature(members))
        self._comb: list = []
        self._sync: dict[str, list] = {}  # Amaranth domain -> its statements
        self._arrays: dict[str, object] = {}
        self._build(design, system)
        self._MustUse__silence = False

    # ---- the signature ---------------------------------------------------------------------
    def _signature_members(self, design: Design) -> tuple[dict, dict[str, str]]:
        reserved = set(dir(SysrComponent)) | {"signature", "design", "module_name", "domain", "reset_mode",
                                              "port_names", "enums", "registers", "memories", "wires",
                                              "visible", "reset_async", "domains"}
        members: dict = {}
        names: dict[str, str] = {}
        for port in design.ports:
            sig = design.signals[port.name]
            if port.kind == "clock" or (port.kind in S.RESET_KINDS and self._reset_port is None):
                continue
            member = member_name(port.name, reserved | set(members))
            shape = unsigned(1) if sig.ty is None else port_shape(sig.ty)
            members[member] = In(shape) if sig.is_input else Out(shape)
            names[port.name] = member
        return members, names

    def port(self, sysr_name: str) -> Signal:
        """The signal of a port, by its sysr name (a struct port's `View` as its plain vector)."""
        p = getattr(self, self.port_names[sysr_name])
        return Value.cast(p) if isinstance(p, data.View) else p

    # ---- the logic -----------------------------------------------------------------------
    def _build(self, design: Design, system: E.System) -> None:
        reset_less = self.reset_mode == "port"
        live = [sv for sv in system.state if not sv.ghost]
        for sv in live:
            if sv.kind not in STATE_KINDS:
                raise Unsupported(f"the Amaranth back end cannot build state of kind `{sv.kind}` (`{sv.name}`)")
            if sv.kind == "mem":
                mem = MemoryArray(sv, sv.name, self._comb)
                self._arrays[sv.name] = mem
                self.memories[sv.name] = mem.memory
            elif sv.size is not None:
                arr = RegisterArray(sv, sv.init, sv.name, reset_less)
                self._arrays[sv.name] = arr
                self.registers[sv.name] = arr.elements
            else:
                # a register without a reset value is reset-less in either mapping: the domain's
                # reset leaves it alone, and its next-state logic holds it while the reset is active
                # (its power-up value, if it has one, is the signal's initial value)
                self.registers[sv.name] = Signal(unsigned(sv.ty.width), name=sv.name,
                                                 init=sv.init if sv.init is not None else sv.powerup,
                                                 reset_less=reset_less or sv.init is None)
        for name, sig in design.signals.items():
            if sig.kind == "wire" and not sig.ghost:
                self.wires[name] = Signal(shape_of(sig.ty), name=name)
        for name, expr in system.comb.items():  # a hierarchy's: its instances' ports and wires (`u.y`)
            if "." in name and name not in system.comb_ghost:
                self.wires[name] = Signal(shape_of(expr.ty), name=name)
        self.extern_outputs: dict[str, Signal] = {}  # `u.y` of an extern module's instance
        self._externs = list(self._extern_instances(design, ""))

        # One list of comb statements in the order they are made, which is an evaluation order
        # (every value after what it reads): Amaranth's simulator then settles in one pass.
        build = ValueBuilder(self._signal_of, lambda a: self._arrays[a.name], f" (module `{design.module.name}`)",
                             self._comb)
        comb = {n: x for n, x in system.comb.items() if n not in system.comb_ghost}
        nexts = {sv.name: self._next_of(sv, system) for sv in live}
        shown = {sv.name: system.visible[sv.name] for sv in live if sv.name in system.visible}
        if self.reset_mode == "domain":  # the domain's asynchronous reset clears the registers at once
            for node in shown.values():
                build.same_as(node, node.b)
        build.count_uses(list(comb.values()) + list(nexts.values())
                         + [shown[sv.name] for sv in live if sv.kind == "out_reg" and sv.name in shown])
        for name, expr in comb.items():
            target = self.port(name) if name in self.port_names else self.wires[name]
            self._comb.append(target.eq(build.value(expr)))
        for sv in live:
            nxt = nexts[sv.name]
            domain = self._domain_of(sv.name)
            sync = self._sync.setdefault(domain, [])
            late = self._clocks.derived(domain)  # its clock is a comb copy: see `_settled`
            if sv.kind == "mem":
                self._comb += self._arrays[sv.name].write_ports(nxt, build, self._domain_of(sv.name, write=True))
            elif sv.size is not None:
                arr = self._arrays[sv.name]
                values = arr.next_values(nxt, build)
                sync += [el.eq(self._settled(v, el, late)) for el, v in zip(arr.elements, values)]
            elif self._held_at_reset(sv, nxt, system):
                # the hold reads the domain's reset itself, not a comb signal made from it: the
                # simulator runs the domain at the reset's rising edge too (see the docstring),
                # where a comb signal of the reset still shows the value before it
                reg = self.registers[sv.name]
                sync.append(reg.eq(Mux(ResetSignal(domain), reg, self._settled(build.value(nxt.b), reg, late))))
            else:
                reg = self.registers[sv.name]
                sync.append(reg.eq(self._settled(build.value(nxt), reg, late)))
            if sv.kind == "out_reg" and sv.name in self.port_names:  # (an instance's is a register inside)
                value = build.value(shown[sv.name]) if sv.name in shown else self.registers[sv.name]
                self._comb.append(self.port(sv.name).eq(value))
        for sv in live:
            if sv.kind != "mem":
                self.visible[sv.name] = self._visible(sv, shown.get(sv.name), build)

    def _extern_instances(self, d: Design, prefix: str, nets: dict[str, str] | None = None):
        """An Amaranth `Instance` of the Verilog module for each instance of an extern module
        (its outputs are free in the flat system: the `Instance` drives them), in the hierarchy
        below `d`; `prefix` is the path of `d`'s instances (`u.`), `nets` the top clock of each
        of `d`'s clocks."""
        nets = {c: c for c in d.clocks} if nets is None else nets
        for name, inst in d.instances.items():
            path = f"{prefix}{name}."
            inner = child_nets(inst, nets)
            if not inst.child.extern:
                yield from self._extern_instances(inst.child, path, inner)
                continue
            ports = {}
            for p in inst.child.ports:
                sig = inst.child.signals[p.name]
                port = escape_keyword(p.name)
                if p.kind == "clock":
                    ports[f"i_{port}"] = ClockSignal(self.domains[inner[p.name]])
                elif p.kind in ("out", "out_reg"):
                    out = Signal(shape_of(sig.ty), name=f"{path}{p.name}")
                    self.extern_outputs[path + p.name] = out
                    ports[f"o_{port}"] = out
                elif path + p.name in self.wires:
                    ports[f"i_{port}"] = self.wires[path + p.name]
                else:  # the reset: this module's own (passed through, of the same kind)
                    ports[f"i_{port}"] = self._signal_of(E.Var(self.design.reset, sig.ty))
            params = {f"p_{escape_keyword(k)}": v for k, v in inst.child.binding}  # `ram #(.W(4))`
            yield path[:-1], Instance(escape_keyword(inst.module), **params, **ports)

    def _visible(self, sv: E.StateVar, node, build: ValueBuilder):
        """A register as the design reads it in the cycle: the register itself, except under an
        asynchronous reset in "port" mode, `reset_active ? init : register` (not built into the
        module: a value to simulate or to assign)."""
        reg = self.registers[sv.name]
        if node is None or self.reset_mode == "domain":
            return reg
        active = build.value(node.c)
        init = Const(sv.init, len(reg[0]) if isinstance(reg, list) else len(reg))
        if isinstance(reg, list):
            return [Mux(active, init, el) for el in reg]
        return Mux(active, init, reg)

    def _settled(self, value, reg: Signal, late: bool):
        """A register's next value; in a domain whose clock is a comb copy of the user's (a
        falling edge), through a comb signal of its own. Amaranth's simulator sees the copied
        clock's edge one delta cycle after the user's clock's, when a register of another
        domain whose edge came at the same instant has already taken its new value; a comb
        signal made from that register still shows the old one in that delta cycle, as the
        edge's sample must (the RTLIL has no such delta: the same circuit)."""
        if not late:
            return value
        nxt = Signal.like(reg, name=f"{reg.name}_next", init=0)
        self._comb.append(nxt.eq(value))
        return nxt

    def _domain_of(self, name: str, write: bool = False) -> str:
        """The Amaranth domain of a register, register array or (`write`) memory's write ports."""
        clock, edge = self._reg_domain[name]
        return self._clocks.of(clock, edge, write)

    def _held_at_reset(self, sv: E.StateVar, nxt, system: E.System) -> bool:
        """A register without a reset value, held while the domain's asynchronous reset is active."""
        return (self.reset_mode == "domain" and self.reset_async and sv.init is None
                and isinstance(nxt, E.Ite) and nxt.c is system.reset_active
                and isinstance(nxt.a, E.Var) and nxt.a.name == sv.name)

    def _next_of(self, sv: E.StateVar, system: E.System):
        """The next-state IR of `sv`; in domain mode without the reset mux the domain applies."""
        n = sv.next
        if self.reset_mode != "domain" or sv.init is None:
            return n
        if isinstance(n, E.Ite) and n.c is system.reset_active:
            init = n.a
            if isinstance(init, (E.Const, E.ConstArr)) and init.value == sv.init:
                return n.b
        return n  # the reset stays in the logic as well: still the same circuit

    def _signal_of(self, var: E.Var):
        d = self.design
        if var.name in getattr(self, "extern_outputs", {}):
            return self.extern_outputs[var.name]
        if var.name == d.reset and var.name not in self.port_names:
            rst = ResetSignal(self._clocks.reset_domain(var.name))
            return ~rst if d.reset_active_low else rst
        if var.name in d.clocks:  # a clock read as a value: its level
            return self._clocks.clock_signal(var.name)
        if var.name in self.registers and not isinstance(self.registers[var.name], list):
            return self.registers[var.name]  # (a registered output's port may show it through a mux)
        if var.name in self.port_names:
            return self.port(var.name)
        if var.name in self.wires:
            return self.wires[var.name]
        raise Unsupported(f"design logic reads `{var.name}`, which the Amaranth component does not "
                          f"have (ghost state and properties are left out)")

    def elaborate(self, platform) -> Module:
        m = Module()
        m.d.comb += self._comb
        for domain, stmts in self._sync.items():
            if stmts:
                m.d[domain] += stmts
        for name, mem in self.memories.items():
            m.submodules[f"mem_{name}"] = mem
        for name, instance in self._externs:
            m.submodules[name.replace(".", "_")] = instance
        self._clocks.add_locals(m)
        return m


def amaranth_enum(name: str, variants: dict[str, int], width: int):
    """An `amaranth.lib.enum.Enum` with the sysr enum's variants and encodings."""
    return types.new_class(name, (am_enum.Enum,), {"shape": unsigned(width)},
                           lambda ns: ns.update(variants))


def member_name(name: str, taken: set[str]) -> str:
    """A signature member name for sysr port `name` (see the module docstring)."""
    out = "p" + name if name.startswith("_") else name
    if keyword.iskeyword(out) or keyword.issoftkeyword(out) or out in taken:
        out += "_"
    while out in taken:
        out += "_"
    assert re.match(r"^[A-Za-z][0-9A-Za-z_]*$", out), out
    return out


def _several_resets(design: Design) -> str:
    """Why the design (or a module it instantiates) has more than one reset (§4.10), or ""."""
    if len(design.resets) > 1:
        return f"has {len(design.resets)} resets"
    for inst in design.instances.values():
        if inst.child is not None and not inst.child.extern and _several_resets(inst.child):
            return f"instantiates `{inst.module}`, which {_several_resets(inst.child)}"
    return ""
