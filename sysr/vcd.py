"""Write a counterexample trace as a VCD file (GTKWave, Surfer) with pyvcd.

One timestep per cycle, 10 time units apart; a `clk` signal toggles in the middle of each
cycle so waveform viewers show the edges. Enum-typed values are written as their encodings.
A column of an instance (`u.count`, `u.v.q` for one nested inside it) is a signal of a scope
named after the instance (`trace.u`, `trace.u.v`), so a viewer shows the hierarchy.
"""

from __future__ import annotations

from typing import TextIO

from vcd import VCDWriter

from .diagnostics import Trace


def write_vcd(trace: Trace, out: TextIO, scope: str = "trace") -> None:
    with VCDWriter(out, timescale="1 ns", date="", comment=trace.title[:200]) as w:
        clk = w.register_var(scope, "clk", "wire", size=1, init=0)
        vars_ = []
        for name, width in zip(trace.columns, trace.widths):
            *inside, leaf = name.split(".")  # (a name has no dot of its own: one is an instance's)
            vars_.append(w.register_var(".".join([scope, *inside]), leaf, "wire", size=max(width, 1)))
        for t, row in enumerate(trace.raw):
            for var, value in zip(vars_, row):
                w.change(var, t * 10, value if value is not None else "x")
            w.change(clk, t * 10, 0)
            w.change(clk, t * 10 + 5, 1)
