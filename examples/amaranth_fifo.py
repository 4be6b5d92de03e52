"""A proven sysr module inside an Amaranth design: the FIFO task's reference behind a counter.

    .venv/bin/python examples/amaranth_fifo.py

`sysr.amaranth.load` checks and proves the design (or raises `sysr.amaranth.Rejected` with the
diagnostics) and returns an Amaranth component whose ports are the design's; its clock and
reset are the `sync` domain's. Here a counter pushes 0, 1, 2, ... while the FIFO has room and
the simulation pops now and then; the bytes come out in order.
"""

from pathlib import Path

from amaranth.hdl import Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out
from amaranth.sim import Simulator

import sysr.amaranth

FIFO = Path(__file__).resolve().parent.parent / "tasks" / "fifo" / "ref.sysr"


class Numbers(wiring.Component):
    """Pushes consecutive bytes into a sysr FIFO whenever it is not full."""

    pop: In(1)
    data: Out(8)
    valid: Out(1)

    def elaborate(self, platform):
        m = Module()
        m.submodules.fifo = fifo = sysr.amaranth.load(FIFO)
        count = Signal(8)
        push = ~fifo.full  # the FIFO requires: no push while full
        m.d.comb += [fifo.push.eq(push), fifo.din.eq(count), fifo.pop.eq(self.pop),
                     self.data.eq(fifo.dout), self.valid.eq(~fifo.empty)]
        with m.If(push):
            m.d.sync += count.eq(count + 1)
        return m


def main() -> None:
    top = Numbers()
    sim = Simulator(top)
    sim.add_clock(1e-8)
    out = []

    async def bench(ctx):
        for cycle in range(40):
            ctx.set(top.pop, cycle % 3 == 0 and ctx.get(top.valid))
            if ctx.get(top.pop):
                out.append(ctx.get(top.data))
            await ctx.tick()

    sim.add_testbench(bench)
    sim.run()
    print("popped:", out)
    assert out == list(range(len(out))) and len(out) > 5


if __name__ == "__main__":
    main()
