"""A proven sysr module with two clocks inside an Amaranth design: the asynchronous FIFO.

    .venv/bin/python examples/amaranth_async_fifo.py

examples/async_fifo.sysr is written on `wclk` and read on `rclk` (reference §4.10); as a
component each clock is an Amaranth domain, here `write` and `read`, two clocks with no
relation (periods of 7 and 11 ns). Its reset is asynchronous and one for both sides, so both
domains are `async_reset` and share one reset signal. A counter in the write domain pushes 0,
1, 2, ... whenever the FIFO has room; the read side pops whenever it is not empty; the bytes
come out in order, none lost, none doubled.
"""

from pathlib import Path

from amaranth.hdl import ClockDomain, Module, Signal
from amaranth.sim import Simulator

import sysr.amaranth

FIFO = Path(__file__).resolve().parent / "async_fifo.sysr"


def main() -> None:
    m = Module()
    m.domains.write = write = ClockDomain(async_reset=True)
    m.domains.read = read = ClockDomain(async_reset=True)
    read.rst = write.rst  # the design's one reset: both sides at once
    m.submodules.fifo = fifo = sysr.amaranth.load(FIFO, domains={"wclk": "write", "rclk": "read"})
    count = Signal(8)
    push = ~fifo.full  # the FIFO says `full` until it has room
    m.d.comb += [fifo.push.eq(push), fifo.din.eq(count), fifo.pop.eq(~fifo.empty)]
    with m.If(push):
        m.d.write += count.eq(count + 1)

    sim = Simulator(m)
    sim.add_clock(7e-9, domain="write")
    sim.add_clock(11e-9, domain="read")
    out = []

    async def reader(ctx):
        for _ in range(60):
            *_, dout, empty = await ctx.tick("read").sample(fifo.dout, fifo.empty)  # (after clk, rst)
            if not empty:  # popped at this edge
                out.append(dout)

    sim.add_testbench(reader)
    sim.run()
    print("popped:", out)
    assert out == list(range(len(out))) and len(out) > 30


if __name__ == "__main__":
    main()
