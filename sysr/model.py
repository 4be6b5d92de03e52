"""The checked design: what the checker hands to the verifier and the lowering.

A `Design` is one module: it keeps the syntax tree and adds what the checks worked out: every
signal with its kind and type, enums and their encodings, constant values, functions, the type
of every expression (`types`, keyed by `id(node)`, shared by the modules of a file), what every
name refers to (`refs`), its instances, and the order in which combinational drivers can be
evaluated. A `Hierarchy` is every module of a file and which one is the top.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .front import syntax as S
from .types import Ty

# Signal kinds. Ports: in, out, out_reg, clock, and the resets (reset, reset_n synchronous;
# areset, areset_n asynchronous). Declarations: reg, mem (a register array without reset
# value), wire. Ghost declarations set `ghost`. Instances: inst_in, inst_out (named `u.x`).
STATE_KINDS = ("out_reg", "reg", "mem")
COMB_KINDS = ("out", "wire")
# The ports of an instance `u` as signals of the module that holds it: `u.x` (an input of the
# child, driven by its binding) and `u.y` (an output of the child, driven by the instance).
INST_KINDS = ("inst_in", "inst_out")
NET_KINDS = COMB_KINDS + INST_KINDS  # signals with a combinational driver


@dataclass
class Signal:
    name: str
    kind: str
    ty: Ty | None  # element type for arrays; None for clock
    span: S.Span
    decl: object  # the Port, RegDecl or WireDecl
    ghost: bool = False
    size: int | None = None  # register arrays and memories
    init: int | None = None  # reset value (bit pattern), registers and register arrays
    powerup: int | None = None  # power-up value (bit pattern), registers without a reset value
    index: int = 0  # declaration order

    @property
    def is_state(self) -> bool:
        return self.kind in STATE_KINDS

    @property
    def is_comb(self) -> bool:
        return self.kind in COMB_KINDS

    @property
    def is_net(self) -> bool:
        """A combinational signal: a wire, an output, or a port of an instance."""
        return self.kind in NET_KINDS

    @property
    def is_input(self) -> bool:
        return self.kind == "in" or self.kind in S.RESET_KINDS

    @property
    def is_port(self) -> bool:
        return isinstance(self.decl, S.Port)

    @property
    def is_array(self) -> bool:
        return self.size is not None

    def describe(self) -> str:
        g = "ghost " if self.ghost else ""
        words = {"in": "input", "out": "output", "out_reg": "registered output", "clock": "clock",
                 "reset": "reset", "reset_n": "reset", "areset": "asynchronous reset",
                 "areset_n": "asynchronous reset", "reg": "register", "mem": "memory", "wire": "wire"}
        if self.kind in INST_KINDS:
            inst, port = self.name.split(".", 1)
            which = "input" if self.kind == "inst_in" else "output"
            return f"{which} `{S.written(port)}` of instance `{S.written(inst)}`"
        word = words[self.kind]
        if self.kind == "reg" and self.size is not None:
            word = "register array"
        return f"{g}{word} `{S.written(self.name)}`"


@dataclass
class EnumInfo:
    name: str
    ty: Ty
    variants: dict[str, int]  # name -> encoding, in declaration order
    decl: S.EnumDecl

    def name_of(self, value: int) -> str | None:
        for k, v in self.variants.items():
            if v == value:
                return k
        return None


@dataclass
class FnInfo:
    decl: S.FnDecl
    params: tuple[tuple[str, Ty], ...]
    ret: Ty


@dataclass
class Local:
    """A name bound inside an expression or block: let, loop variable, quantifier, fn parameter."""
    name: str
    ty: Ty
    kind: str  # "let", "mut" (`let mut`, in a fn), "for", "quant", "param"
    span: S.Span


@dataclass(frozen=True, eq=False)
class InstOutput:
    """The driver of `u.y` in a module's drivers and comb order: instance `u`, for output `y`."""
    inst: str
    port: str
    span: S.Span


@dataclass
class Instance:
    """`inst NAME = MODULE(...)`: which module, and the binding of each of its inputs."""
    name: str
    module: str
    decl: S.InstDecl
    bindings: dict[str, S.Binding]  # child input port -> its binding (clock and reset included)
    child: "Design | None" = None  # the child module's design (None when it does not exist)
    key: str = ""  # the child's design in the hierarchy: its module's name, or its binding (§4.8)
    child_module: S.Module | None = None  # the child's module as checked (its binding's copy)


@dataclass
class StructInfo:
    name: str
    ty: Ty  # kind "struct": its fields and their offsets (`Ty.field`)
    decl: S.StructDecl


@dataclass
class Design:
    file: S.SourceFile
    module: S.Module
    enums: dict[str, EnumInfo]
    consts: dict[str, tuple[Ty, int]]
    fns: dict[str, FnInfo]
    signals: dict[str, Signal]
    types: dict[int, Ty] = field(default_factory=dict)  # id(expr) -> type
    refs: dict[int, object] = field(default_factory=dict)  # id(Name or LValue) -> Signal | Local | const name
    const_values: dict[int, int] = field(default_factory=dict)  # id(expr) -> value, where constant
    holes: list[tuple[S.Hole, Ty | None]] = field(default_factory=list)
    clock: str | None = None  # the first clock port
    clocks: list[str] = field(default_factory=list)  # every clock port, in declaration order
    # Clock domains (§4.1): each seq block's and each register's clock port and edge
    # ("rising" or "falling"); a register no block writes is in the first clock's rising domain.
    block_domain: dict[int, tuple[str, str]] = field(default_factory=dict)  # id(SeqBlock) -> domain
    domains: dict[str, tuple[str, str]] = field(default_factory=dict)  # register -> domain
    clock_reads: set[str] = field(default_factory=set)  # clocks read as values (their level)
    reset: str | None = None  # the first reset port (with one, the module's reset)
    reset_active_low: bool = False  # ... and its kind
    reset_async: bool = False  # an `areset`/`areset_n` port: registers read as reset while it is active
    # Every reset port (§4.10: one per domain), in declaration order -> its kind, and which one
    # resets each seq block's registers and each register (None: none; with one reset, it).
    resets: dict[str, str] = field(default_factory=dict)
    block_reset: dict[int, str | None] = field(default_factory=dict)  # id(SeqBlock) -> reset port
    reset_of: dict[str, str | None] = field(default_factory=dict)  # register -> reset port
    comb_order: list[object] = field(default_factory=list)  # drivers in evaluation order
    drivers: dict[str, object] = field(default_factory=dict)  # signal name -> driving item
    instances: dict[str, Instance] = field(default_factory=dict)  # in declaration order
    # For each combinational output, the inputs it depends on in the same cycle (through logic
    # and instances): what a module that instantiates this one needs to find cycles.
    summary: dict[str, frozenset[str]] = field(default_factory=dict)
    # A module with parameters (§4.8): the values of this binding, in declaration order, and
    # the design's key (`fifo<W = 16, DEPTH = 5>`; the module's name when it has none).
    binding: tuple[tuple[str, int], ...] = ()
    key: str = ""
    ints: dict[str, int] = field(default_factory=dict)  # parameters and `int` consts -> their values here
    structs: dict[str, StructInfo] = field(default_factory=dict)  # the file's structs
    # id(spec) -> the spec with its bounded form (`a ==> next(b, n)`, `within`) in `prev` terms
    # (`sysr.front.check.temporal`), for every stage after the checks
    expanded: dict[int, S.Spec] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The design's name in the hierarchy and in messages: its binding, or its module's name."""
        return self.key or self.module.name

    def ty(self, expr) -> Ty:
        return self.types[id(expr)]

    @property
    def ports(self) -> tuple[S.Port, ...]:
        return self.module.ports

    @property
    def extern(self) -> bool:
        """An `extern module`: a contract whose logic is Verilog that sysr does not write."""
        return self.module.extern

    def bounded_form(self, spec: S.Spec) -> S.Binary | None:
        """For a spec of `specs()` expanded from a bounded form, that form as written (`a ==> next(b, n)`)."""
        for item in self.module.items:
            if self.expanded.get(id(item)) is spec:
                return item.expr
        return None

    def reset_kind(self, reg: str) -> tuple[str | None, bool, bool]:
        """The reset port that resets register `reg`, whether it is active low and asynchronous."""
        rst = self.reset_of.get(reg, self.reset)
        kind = self.resets.get(rst, "")
        return rst, kind.endswith("_n"), kind.startswith("areset")

    def specs(self) -> list[S.Spec]:
        """The properties, each bounded form expanded into `prev` terms."""
        return [self.expanded.get(id(i), i) for i in self.module.items if isinstance(i, S.Spec)]


@dataclass
class Hierarchy:
    """Every module of a file, checked, and which one is the top."""
    file: S.SourceFile
    modules: dict[str, Design]  # by `Design.name`, in source order (a module's bindings together)
    top: str  # the top's `Design.name`

    @property
    def top_design(self) -> Design:
        return self.modules[self.top]

    def bottom_up(self) -> list[Design]:
        """Every module, each after the modules it instantiates (a module on an instantiation
        cycle, which is an error, after those it reaches)."""
        out: list[Design] = []
        seen: set[str] = set()

        def visit(d: Design) -> None:
            if d.name in seen:
                return
            seen.add(d.name)
            for inst in d.instances.values():
                if inst.child is not None:
                    visit(inst.child)
            out.append(d)

        for d in self.modules.values():
            visit(d)
        return out

    def externs(self) -> list[Design]:
        """The extern modules the top reaches: the Verilog modules a lowering needs besides its own."""
        return [d for d in self.reachable() if d.extern]

    def reachable(self) -> list[Design]:
        """The top, then every module it instantiates, directly or not, in order of first instance."""
        out: list[Design] = []
        todo = [self.top_design]
        while todo:
            d = todo.pop(0)
            if any(x is d for x in out):
                continue
            out.append(d)
            todo += [i.child for i in d.instances.values() if i.child is not None]
        return out
