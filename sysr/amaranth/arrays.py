"""Register arrays and memories: their storage, reads and next-state writes in Amaranth.

A register array (`reg a: T[N] = INIT;`) becomes N signals, each a register reset to INIT by
the clock domain; element k's next value is worked out from the array's next-state IR
(`Store`s under `if`s) by asking, for each write, whether its index is k.

A memory (`reg m: T[N];`, never reset) becomes an `amaranth.lib.memory.Memory` (zero
initial contents, as the evaluator assumes) with one asynchronous (`domain="comb"`) read
port per distinct read, since sysr reads a memory in the current cycle; a registered read
(`q <= m[a];`) is that read feeding an ordinary register, which Yosys folds into a
synchronous read port for block RAM. Writes become write ports in the design's domain (a local reset-less domain on its clock
when that domain's reset is asynchronous; see `sysr.amaranth.component`): the
writes of one cycle are scheduled into slots, each slot holding writes on mutually exclusive
paths (they share one port), slot after slot in program order; when two slots write one
address in one cycle the later one wins (sysr's last-write-wins), which the ports implement
by masking the earlier enables, so nothing relies on how Amaranth orders write ports. A read
or write whose index may be out of range is guarded (reads give 0, writes do nothing), as
`sysr.elab` defines. A memory is never reset, and the IR holds its writes in a cycle with the
reset active (`Ite(reset_active, m, writes)`), which becomes `~reset_active` in every write
enable; a register array under an asynchronous reset is read as `System.visible` says (see
`ValueBuilder.n_read`).
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Array, Const, Mux, Signal, Value, unsigned
from amaranth.lib.memory import Memory
from amaranth.utils import ceil_log2

from .. import elab as E
from ..types import Ty
from .exprs import ValueBuilder
from .ops import Unsupported, in_range, uns


@dataclass
class Write:
    guard: Value  # this write happens (a 1-bit signal)
    index: object  # IR
    value: object  # IR


class Schedule:
    """The writes an array's next-state IR makes, as slots: each slot a list of writes on
    mutually exclusive paths, slots in program order.

    The IR is a DAG: at an `if`, both branches extend the array value from before the `if`
    (their common base), so the writes before it are shared. They are scheduled once, under
    the guard of the `if` itself, and each branch contributes only its own writes after that.
    """

    def __init__(self, name: str, build: ValueBuilder) -> None:
        self.name = name
        self.build = build
        self.spines: dict[int, object] = {}

    def key(self, n):
        if isinstance(n, E.ArrVar):
            if n.name != self.name:
                raise Unsupported(f"`{self.name}` takes the value of another array `{n.name}`")
            return ("root",)
        return id(n)

    def spine(self, n):
        """The array value `n` extends: a Store's array, an `if`'s common base; None at the root."""
        if isinstance(n, E.ArrVar):
            self.key(n)
            return None
        if isinstance(n, E.Store):
            return n.arr
        if isinstance(n, E.Ite) and n.ty is None:
            if id(n) not in self.spines:
                self.spines[id(n)] = self.common_base(n.a, n.b)
            return self.spines[id(n)]
        raise Unsupported(f"the Amaranth back end cannot build the next value of `{self.name}` "
                          f"from {type(n).__name__}")

    def chain(self, n):
        while n is not None:
            yield n
            n = self.spine(n)

    def common_base(self, a, b):
        seen = {self.key(x) for x in self.chain(a)}
        return next(x for x in self.chain(b) if self.key(x) in seen)

    def writes(self, node, stop, guard: Value, level: int = 0) -> list[list[Write]]:
        """The writes that take the array from `stop` (None: the root) to `node`, under
        `guard`, `level` `if`s deep."""
        out: list[list[Write]] = []
        pending = []  # nodes from node back to stop, innermost last
        n = node
        while n is not None and (stop is None or self.key(n) != self.key(stop)):
            pending.append(n)
            n = self.spine(n)
        for n in reversed(pending):
            if isinstance(n, E.Store):
                out.append([Write(guard, n.i, n.v)])
            elif isinstance(n, E.Ite):
                base = self.spine(n)
                c = uns(self.build.value(n.c))
                a = self.writes(n.a, base, self.build.link(guard & c, level), level + 1)
                b = self.writes(n.b, base, self.build.link(guard & ~c, level), level + 1)
                out += [(a[k] if k < len(a) else []) + (b[k] if k < len(b) else [])
                        for k in range(max(len(a), len(b)))]
        return out


def register_array_read(elements: list[Signal]):
    """A `read(index, index_ty)` over a list of signals (a register array)."""
    table = Array(elements)

    def read(i: Value, i_ty: Ty) -> Value:
        guard, index = in_range(i, i_ty, len(elements))
        v = uns(table[index]) if len(elements) > 1 else uns(elements[0])
        return v if guard is None else Mux(guard, v, 0)
    return read


class RegisterArray:
    """N registers, each reset to the array's reset value by the domain."""

    def __init__(self, sv: E.StateVar, init_value: int, name: str, reset_less: bool) -> None:
        self.sv = sv
        self.elements = [Signal(unsigned(sv.ty.width), init=init_value, name=f"{name}[{k}]",
                                reset_less=reset_less) for k in range(sv.size)]
        self.read = register_array_read(self.elements)

    def next_values(self, node, build: ValueBuilder) -> list[Value]:
        """Element k's next value, for each k: the last write of the cycle whose index is k,
        else the element's value. The writes come in slots (`Schedule`): within a slot they
        are exclusive, later slots win."""
        reset = None
        if isinstance(node, E.Ite) and node.ty is None and isinstance(node.a, E.ConstArr):
            reset, init, node = uns(build.value(node.c)), node.a.value, node.b  # reset in the logic
        slots = Schedule(self.sv.name, build).writes(node, None, Const(1, 1))
        # every element compares with each write: guard, index and value are shared signals
        writes = [(build.leaf(w.guard), w.index, build.leaf(uns(build.value(w.index))),
                   build.leaf(uns(build.value(w.value)))) for slot in slots for w in slot]
        out = []
        for k, el in enumerate(self.elements):
            v, links = el, 0
            for guard, index, i, value in writes:
                if isinstance(index, E.Const):
                    if index.value != k:
                        continue
                    hit = guard
                else:
                    hit = guard & (i == k)
                v = build.link(Mux(hit, value, v), links)
                links += 1
            out.append(v if reset is None else Mux(reset, init, v))
        return out


class MemoryArray:
    """A memory: `amaranth.lib.memory.Memory` with comb read ports and scheduled write ports."""

    def __init__(self, sv: E.StateVar, name: str, comb: list) -> None:
        self.sv = sv
        self.memory = Memory(shape=unsigned(sv.ty.width), depth=sv.size, init=[])
        self.addr_width = ceil_log2(sv.size)
        self.reads: dict[int, Value] = {}
        self.comb = comb  # where the read ports' address assignments go
        self.keep: list = []
        self.name = name

    def read(self, i: Value, i_ty: Ty) -> Value:
        key = id(i)
        if key not in self.reads:
            self.keep.append(i)
            port = self.memory.read_port(domain="comb")
            guard, index = in_range(i, i_ty, self.sv.size)
            self.comb.append(port.addr.eq(index))
            self.reads[key] = port.data if guard is None else Mux(guard, port.data, 0)
        return self.reads[key]

    def write_ports(self, node, build: ValueBuilder, domain: str) -> list:
        """Comb statements driving one write port per slot of the next-state IR."""
        slots = Schedule(self.sv.name, build).writes(node, None, Const(1, 1))
        ports = []
        stmts = []
        for slot in slots:
            en, addr, data = Const(0, 1), Const(0, max(self.addr_width, 1)), Const(0, self.sv.ty.width)
            for k, w in enumerate(reversed(slot)):  # mutually exclusive: the order only shapes the muxes
                g = w.guard
                i = build.value(w.index)
                ok, index = in_range(i, w.index.ty, self.sv.size)
                hit = g if ok is None else g & ok
                en = build.link(hit | en, k)
                addr = build.link(Mux(hit, index, addr), k)
                data = build.link(Mux(hit, uns(build.value(w.value)), data), k)
            port = self.memory.write_port(domain=domain)
            e, a = Signal(name=f"{self.name}_we{len(ports)}"), Signal(self.addr_width, name=f"{self.name}_wa{len(ports)}")
            stmts += [e.eq(en), a.eq(addr), port.data.eq(data), port.addr.eq(a)]
            ports.append((port, e, a))
        for k, (port, e, a) in enumerate(ports):  # a later slot to the same address wins
            later = [e2 & (a2 == a) for _, e2, a2 in ports[k + 1:]]
            masked = e
            for c in later:
                masked = masked & ~c
            stmts.append(port.en.eq(masked))
        return stmts
