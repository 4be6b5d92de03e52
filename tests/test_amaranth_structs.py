"""Packed structs in the Amaranth back end: a struct port is an `amaranth.lib.data` view with
the struct's fields at sysr's bits (the first field at the MSB), so Amaranth code reads and
drives `c.p.data`; `c.port(name)` is its plain vector, as for any port."""

from __future__ import annotations

from pathlib import Path

from amaranth.lib import data
from amaranth.sim import Simulator

import sysr.amaranth
from test_amaranth import elaborated

ROOT = Path(__file__).resolve().parent.parent


def test_a_struct_port_is_a_layout_with_sysrs_offsets():
    c = elaborated(sysr.amaranth.load(ROOT / "examples" / "struct_pipe.sysr", verify=False))
    assert isinstance(c.in_beat, data.View)
    layout = c.signature.members["in_beat"].shape
    assert {name: (layout[name].offset, layout[name].width) for name in ("last", "op", "off", "data")} == {
        "last": (15, 1), "op": (13, 2), "off": (8, 5), "data": (0, 8)}
    assert len(c.port("in_beat")) == 16


def test_fields_driven_from_amaranth_come_out_processed():
    c = sysr.amaranth.load(ROOT / "examples" / "struct_pipe.sysr", verify=False)
    sim = Simulator(c)
    sim.add_clock(1e-6)
    seen = {}

    async def bench(ctx):
        ctx.set(c.in_valid, 1)
        ctx.set(c.in_beat.data, 7)
        ctx.set(c.in_beat.off, 3)
        ctx.set(c.in_beat.op, 1)  # Op::Add: data + off
        ctx.set(c.in_beat.last, 1)
        for _ in range(3):
            await ctx.tick()
        seen.update(valid=ctx.get(c.out_valid), data=ctx.get(c.out_beat.data), last=ctx.get(c.out_beat.last),
                    vector=ctx.get(c.port("out_beat")))

    sim.add_testbench(bench)
    sim.run()
    assert seen == {"valid": 1, "data": 10, "last": 1, "vector": 0b1_01_00011_00001010}
