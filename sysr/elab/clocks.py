"""Clock domains in the transition system (docs/reference.md §4.1, "Several clocks and edges").

A design's clocks are its top module's clock ports; a child's clock is the top clock its
binding passes through (`Clocking.net`). Each register is in one domain, a clock and an edge
(`Design.domains`), and its next value is taken only in the steps where that edge happens:
`next' = Ite(edge, next, stored)` (with an asynchronous reset, the reset still acts at once).

How a step relates to the clocks:

- one clock used at one edge and never read (every design before several clocks): every step
  is an edge of it, as always (`edge` is TRUE: nothing changes);
- otherwise each clock is *ticked*: in each step any subset of the clocks has an edge, as
  SymbiYosys's multiclock mode lets the solver choose. A clock used at one edge and never read
  is a free bool input named after it (1: its edge happens at the end of this step). A clock
  used at both edges, or read as a value, has a level: a state bit named after it (arbitrary
  at the start) and a free input `clk#toggle` (with one clock, always 1: the clock alternates
  every step); a rising edge is a toggle from 0, a falling edge a toggle from 1, and a read of
  the clock is its level.

Nothing is assumed about metastability: a register of one domain that reads a signal of
another samples the value that signal has in that step, exactly; the two-flop synchronizer is
then what makes a multi-bit crossing safe, and what the proof of a Gray-coded pointer relies on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Design
from ..types import BOOL
from .ir import TRUE, Bin, Var, mk_and, mk_not
from .system import StateVar


@dataclass
class Clocking:
    """The top's clocks: each one's mode ("fixed", "tick" or "level") and the toggle inputs."""
    modes: dict[str, str] = field(default_factory=dict)

    @property
    def free(self) -> bool:
        """Whether the clocks tick freely (several of them): the steps are not all edges."""
        return len(self.modes) > 1

    def edge(self, net: str, edge: str):
        """The bool IR that says `net`'s `edge` happens at the end of this step."""
        mode = self.modes.get(net, "fixed")
        if mode == "fixed":
            return TRUE
        if mode == "tick":
            return Var(net, BOOL)
        toggle = self.toggle(net)
        level = Var(net, BOOL)
        return mk_and(toggle, mk_not(level) if edge == "rising" else level)

    def level(self, net: str):
        return Var(net, BOOL)

    def toggle(self, net: str):
        return Var(f"{net}#toggle", BOOL) if self.free else TRUE

    def inputs(self) -> list[tuple[str, object]]:
        """The free inputs of the clocks: a tick per ticked clock, a toggle per leveled one."""
        out = []
        for net, mode in self.modes.items():
            if mode == "tick":
                out.append((net, BOOL))
            elif mode == "level" and self.free:
                out.append((f"{net}#toggle", BOOL))
        return out

    def state(self) -> list[StateVar]:
        """The level of each clock that has one (arbitrary at the start)."""
        return [StateVar(net, BOOL, None, None, False, "clk", Bin("^", Var(net, BOOL), self.toggle(net), BOOL))
                for net, mode in self.modes.items() if mode == "level"]


def clocking(top: Design) -> Clocking:
    """The modes of the top's clocks, from every domain and clock read in the hierarchy."""
    edges: dict[str, set[str]] = {c: set() for c in top.clocks}
    read: set[str] = set()

    def visit(d: Design, nets: dict[str, str]) -> None:
        for clock, edge in set(d.domains.values()):
            edges[nets[clock]].add(edge)
        read.update(nets[c] for c in d.clock_reads)
        for inst in d.instances.values():
            if inst.child is not None and not inst.child.extern:
                visit(inst.child, child_nets(inst, nets))

    visit(top, {c: c for c in top.clocks})
    if len(edges) == 1 and not read and len(next(iter(edges.values()))) <= 1:
        return Clocking()
    modes = {c: "level" if c in read or len(e) > 1 else "tick" for c, e in edges.items()}
    return Clocking(modes)


def child_nets(inst, nets: dict[str, str]) -> dict[str, str]:
    """The top clock of each clock of an instance's module (its binding passes one through)."""
    out = {}
    for port in inst.child.clocks:
        b = inst.bindings.get(port)
        name = getattr(getattr(b, "value", None), "name", None)
        out[port] = nets.get(name, next(iter(nets.values()), port))
    return out


def is_leveled(top: Design) -> bool:
    """Whether the design's clocks are not all a single one-edge clock (the steps are not all
    edges of one clock): what the simulation harnesses drive differently."""
    return bool(clocking(top).modes)


def register_domains(top: Design) -> dict[str, tuple[str, str]]:
    """The domain (top clock, edge) of every register of the flattened hierarchy, by its flat
    name (`u.count`); a register no block writes is in its module's first clock's rising one."""
    out: dict[str, tuple[str, str]] = {}

    def visit(d: Design, prefix: str, nets: dict[str, str]) -> None:
        for name, sig in d.signals.items():
            if sig.is_state and d.clocks:
                clock, edge = d.domains.get(name, (d.clocks[0], "rising"))
                out[prefix + name] = (nets[clock], edge)
        for name, inst in d.instances.items():
            if inst.child is not None and not inst.child.extern:
                visit(inst.child, f"{prefix}{name}.", child_nets(inst, nets))

    visit(top, "", {c: c for c in top.clocks})
    return out
