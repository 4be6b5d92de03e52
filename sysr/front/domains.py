"""Clock domains of a checked module (docs/reference.md §4.10): each `seq` block's clock and edge,
each register's domain, the clocks read as values, and `prev` only where one domain times all.

A mixin of `sysr.front.structure.Structure`, run from its clock and reset checks once the
drivers are known (a register's domain is its driving block's).
"""

from __future__ import annotations

from ..model import Signal
from . import syntax as S


class DomainChecks:
    """`Design.block_domain`, `domains` and `clock_reads`, and the A008 diagnostics about them."""

    def domains(self) -> None:
        """Each seq block's clock and edge (`seq`, `seq(clk)`, `seq(falling clk)`), each register's
        (its block's), the clocks read as values, and `prev` only where one domain times it all."""
        d = self.d
        for item in d.module.items:
            if isinstance(item, S.SeqBlock):
                d.block_domain[id(item)] = self.block_clock(item)
                d.block_reset[id(item)] = self.block_reset(item)
        for name, drv in self.drivers.items():
            if id(drv) in d.block_domain:
                d.domains[name] = d.block_domain[id(drv)]
                d.reset_of[name] = d.block_reset[id(drv)]
        for sig in d.signals.values():
            if sig.is_state:
                d.domains.setdefault(sig.name, (d.clocks[0], "rising"))
                d.reset_of.setdefault(sig.name, d.reset)  # (never written: it holds its value anyway)
        bound = {id(b.value) for inst in d.instances.values() for b in inst.bindings.values()}
        d.clock_reads = {ref.name for key, ref in d.refs.items() if isinstance(ref, Signal) and ref.kind == "clock"
                         and d.signals.get(ref.name) is ref and key not in bound}
        used = set(d.block_domain.values())
        if len(used) > 1 or d.clock_reads or len(d.resets) > 1:
            for spec_or_item in d.module.items:
                span = _first_prev(spec_or_item)
                if span is not None:
                    self.err("A008", "`prev`, `next` and `within` need one clock domain; this module has "
                                     "several clocks or edges, or reads a clock" if len(d.resets) < 2 else
                                     "`prev`, `next` and `within` need one clock domain and one reset; this "
                                     f"module has {len(d.resets)} resets", span,
                             "keep the history in a ghost register written in the `seq` block of the domain "
                             "you mean: `ghost reg last: u8; seq(clk) { last <= x; }`")
                    break

    def block_reset(self, item: S.SeqBlock) -> str | None:
        """The reset of a seq block's registers: the one it names (`seq(wclk, wrst_n)`), else the
        module's only one (None with several: `unreset` then rejects reset values there)."""
        d = self.d
        named = item.clock.resets if item.clock is not None else ()
        for extra, span in named[1:]:
            self.err("A008", f"a `seq` block is reset by one reset; `{S.written(extra)}` is a second", span,
                     "split the block: one `seq(clk, rst) { ... }` per reset, each writing the registers "
                     "that reset resets")
        if not named:
            return d.reset if len(d.resets) == 1 else None
        name, span = named[0]
        if name not in d.resets:
            sig = d.signals.get(name)
            what = f"{sig.describe()} is not a reset" if sig is not None else f"unknown reset `{S.written(name)}`"
            known = ", ".join(f"`{S.written(n)}`" for n in d.resets)
            self.err("A008", what, span, f"the resets of this module: {known}" if known else
                     "declare it as a port: `rst: reset` (or `reset_n`, `areset`, `areset_n`)")
            return None
        return name

    def unreset(self, reset_valued: list[Signal]) -> None:
        """With several resets, a register with a reset value must be in a block that names its
        reset (A008), one error per block."""
        d, seen = self.d, set()
        for s in reset_valued:
            drv = self.drivers.get(s.name)
            if drv is None or d.reset_of.get(s.name) is not None or id(drv) in seen or id(drv) not in d.block_domain \
                    or drv.clock is not None and drv.clock.resets:  # (naming a wrong one is its own error)
                continue
            seen.add(id(drv))
            clock, edge = d.block_domain[id(drv)]
            written = ("falling " if edge == "falling" else "") + S.written(clock)
            names = ", ".join(f"`{S.written(n)}`" for n in d.resets)
            self.err("A008", f"{s.describe()} has a reset value, but its `seq` block names no reset, and this "
                             f"module has {len(d.resets)} ({names})", drv.span,
                     f"name the reset that resets it: `{'ghost ' if drv.ghost else ''}seq({written}, "
                     f"{S.written(_closest(clock, d.resets))}) {{ ... }}`")

    def block_clock(self, item: S.SeqBlock) -> tuple[str, str]:
        d = self.d
        c = item.clock
        if c is None:
            if len(d.clocks) > 1:
                self.err("A008", f"this module has {len(d.clocks)} clocks; a `seq` block says which one times it",
                         item.span, f"write `seq({S.written(d.clocks[0])}) {{ ... }}` (or "
                                    f"`seq(falling {S.written(d.clocks[0])})` for the falling edge)")
            return (d.clocks[0], "rising")
        if c.edge not in (None, "rising", "falling"):
            self.err("A008", f"`{c.edge}` is not an edge; a `seq` block runs at the `rising` or `falling` edge",
                     c.span, f"write `seq(falling {S.written(c.name)})` or `seq({S.written(c.name)})`")
        if c.name not in d.clocks:
            sig = d.signals.get(c.name)
            what = f"{sig.describe()} is not a clock" if sig is not None else f"unknown clock `{S.written(c.name)}`"
            self.err("A008", what, c.name_span,
                     "the clocks of this module: " + ", ".join(f"`{S.written(n)}`" for n in d.clocks))
            return (d.clocks[0], "rising")
        return (c.name, c.edge or "rising")


def _closest(clock: str, resets) -> str:
    """The reset whose name starts most like the clock's (`rrst_n` for `rclk`), for a hint."""
    def common(r: str) -> int:
        return next((i for i, (a, b) in enumerate(zip(clock, r)) if a != b), min(len(clock), len(r)))
    return max(resets, key=common)


def _first_prev(item) -> S.Span | None:
    """Where a module item first reads `prev` (or `next`, `within`: history registers too), if it does."""
    found: list[S.Span] = []

    def visit(node) -> None:
        if found:
            return
        if isinstance(node, S.Call) and node.func in ("prev", "next", "within"):
            found.append(node.span)
            return
        if isinstance(node, tuple):
            for x in node:
                visit(x)
        elif hasattr(node, "__dataclass_fields__"):
            for f in node.__dataclass_fields__:
                visit(getattr(node, f))
    visit(item)
    return found[0] if found else None
