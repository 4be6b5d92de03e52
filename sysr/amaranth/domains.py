"""Clock domains of a `SysrComponent`: each sysr domain (a clock and an edge, §4.10 of the
reference) as an Amaranth domain.

Each clock port of the design is an Amaranth domain of the user's (`domains`: clock -> domain
name; one clock: `domain`, "sync" by default; several: each clock's own name, `wclk`). The
rising edge of a clock is that domain itself. Its falling edge is a local domain of the
component, `<domain>_fall`, with `clk_edge="neg"` on the same clock signal and, where the
domain's reset is the design's, the same reset (of the same kind). A clock read as a value (its
level) is `ClockSignal(domain)`. Memory writes under an asynchronous domain reset go to a
local reset-less domain on the same clock and edge, `<domain>_memw` or `<domain>_fall_memw`
(see `sysr.amaranth.component` for why).

Resets are looked up per clock (`reset_of`): the design's reset port resets the domains of
every clock today; a design with a reset per clock would give each clock's its own, and only
this lookup changes. In "domain" mode a reset port is the Amaranth reset of each domain it
resets (several clocks sharing one reset: drive their domains' resets from one signal), and
logic that reads it reads `ResetSignal` of its first clock's domain.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import ClockDomain, ClockSignal, ResetSignal

from ..model import Design


@dataclass(frozen=True)
class Local:
    """A local domain of the component: on `parent`'s clock at `edge`, reset by `parent`'s
    reset (`reset`) or reset-less."""
    name: str
    parent: str
    edge: str
    reset: bool
    async_reset: bool


class Domains:
    """The Amaranth domains of a design's clocks; `reset_mode` is the component's ("domain" or
    "port"), `reset_async` whether the design's reset is asynchronous."""

    def __init__(self, design: Design, domain: str, domains: dict[str, str] | None, reset_mode: str,
                 reset_async: bool) -> None:
        clocks = list(design.clocks)
        if domains is None:
            domains = {c: c for c in clocks} if len(clocks) > 1 else {c: domain for c in clocks}
        unknown = sorted(set(domains) - set(clocks))
        missing = [c for c in clocks if c not in domains]
        if unknown or missing:
            why = f"`{unknown[0]}` is not one" if unknown else f"`{missing[0]}` is missing"
            raise ValueError(f"`domains` maps each clock of `{design.module.name}` "
                             f"({', '.join(clocks) or 'none'}) to an Amaranth domain: {why}")
        self.user = dict(domains)  # clock -> the user's Amaranth domain
        self.design = design
        self.reset_mode = reset_mode
        self.reset_async = reset_async
        self.locals: dict[str, Local] = {}

    def reset_of(self, clock: str) -> str | None:
        """The sysr reset port that resets the domains of `clock` (None: none does)."""
        return self.design.reset

    def reset_domain(self, reset: str) -> str:
        """The Amaranth domain whose reset a design's reset port is, as logic reads it."""
        return next(self.user[c] for c in self.design.clocks if self.reset_of(c) == reset)

    def in_domain(self, clock: str) -> bool:
        """Whether `clock`'s domains are reset by the Amaranth domain's reset (else: by logic, or none)."""
        return self.reset_mode == "domain" and self.reset_of(clock) is not None

    def of(self, clock: str, edge: str, write: bool = False) -> str:
        """The Amaranth domain of the registers (`write`: the memory write ports) of a sysr domain."""
        name = self.user[clock]
        reset = self.in_domain(clock)
        if edge == "falling":
            name = self._local(f"{name}_fall", self.user[clock], edge, reset)
        if write and reset and self.reset_async:
            name = self._local(f"{name}_memw", self.user[clock], edge, False)
        return name

    def _local(self, name: str, parent: str, edge: str, reset: bool) -> str:
        self.locals.setdefault(name, Local(name, parent, edge, reset, self.reset_async and reset))
        return name

    def derived(self, name: str) -> bool:
        """Whether an Amaranth domain is a local one, its clock a comb copy of the user's."""
        return name in self.locals

    def clock_signal(self, clock: str):
        """A clock read as a value: its level."""
        return ClockSignal(self.user[clock])

    def add_locals(self, m) -> None:
        """Declare the local domains in module `m` and drive their clocks (and resets)."""
        for loc in self.locals.values():
            cd = ClockDomain(loc.name, clk_edge="neg" if loc.edge == "falling" else "pos", local=True,
                             reset_less=not loc.reset, async_reset=loc.async_reset)
            m.domains += cd
            m.d.comb += cd.clk.eq(ClockSignal(loc.parent))
            if loc.reset:
                m.d.comb += cd.rst.eq(ResetSignal(loc.parent))
