"""The Amaranth back end's clock domains (reference §4.10; `sysr.amaranth.domains`): designs with
several clocks, a falling edge, both edges of a clock or a clock read as a level, built as
Amaranth components and run by Amaranth's simulator with every clock driven as the evaluator
steps it (tests/amaranth_sim.py: which clocks tick in each step), against the evaluator; the
harness notices a component that gets an edge, a level or a clock wrong; the domains map as
documented; and the RTLIL goes through Yosys to flip-flops on the right clocks and edges.

The random designs of tests/test_differential_amaranth.py and
tests/test_differential_structs.py include such designs (tests/gen_clocks.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from amaranth.back import rtlil
from amaranth.hdl import ClockSignal

import amaranth_sim
import sysr.amaranth as sa
from diff_prepare import prepare
from gen_base import Generated
from sysr.amaranth import domains as sysr_amaranth_domains
from sysr.elab import clocks as sysr_clocks
from test_amaranth import elaborated, verilog_top, yosys

ROOT = Path(__file__).parent.parent
VERIFY = Path(__file__).parent / "verify"
CYCLES = 40

# A child on the second clock, and a register at that clock's falling edge that reads it.
CROSSING = """
module sync2(clk: clock, arst: areset, d: in bool, q: out bool) {
  reg s1: bool = false;
  reg s2: bool = false;
  seq { s1 <= d; s2 <= s1; }
  q = s2;
}
module crossing(fast: clock, slow: clock, arst: areset, x: in bool, y: out bool, n: out reg u4 = 0) {
  reg t: bool = false;
  seq(fast) { if x { t <= !t; } }
  inst s = sync2(clk: slow, arst: arst, d: t);
  seq(falling slow) { if s.q { n <= n + 1; } }
  y = s.q != t;
}
"""

# Both edges of one clock with a synchronous reset, a memory written at the falling edge, and a
# register without a reset value (held while the reset is active).
BOTH_EDGES = """
module both(clk: clock, rst: reset, d: in u8, we: in bool, a: in u2, q: out u8, lvl: out bool, m: out u8) {
  reg p: u8 = 1;
  reg n: u8 = 2;
  reg h: u8;
  reg mem: u8[4];
  seq(clk) { p <= d; h <= h + d; }
  seq(falling clk) { n <= p ^ d; if we { mem[a] <= n; } }
  q = if clk then p else n;
  lvl = clk;
  m = mem[a] ^ h;
}
"""


# A register at one clock's falling edge that samples a register of another clock: when both
# edges come at once it takes the old value (in Amaranth's simulator the falling-edge domain's
# clock, a comb copy, sees its edge a delta cycle late: the component reads through comb signals).
SAME_INSTANT = """
module same_instant(a: clock, b: clock, rst: reset, x: in u8, p: out reg u8 = 0, q: out reg u8 = 0,
                    r: out reg u8 = 0) {
  seq(a) { p <= x; r <= q; }
  seq(falling b) { q <= p; }
}
"""


def source(name: str) -> Generated:
    text = (ROOT / "examples" / f"{name}.sysr") if name == "async_fifo" else (VERIFY / f"{name}.sysr")
    text = text.read_text()
    return Generated(text, text.split("module ", 1)[1].split("(", 1)[0].strip())


DESIGNS = {"dualedge": lambda: source("dualedge"), "falling_edge": lambda: source("falling_edge"),
           "pulse_sync": lambda: source("pulse_sync"), "pulse_lost": lambda: source("pulse_lost"),
           "async_fifo": lambda: source("async_fifo"), "crossing": lambda: Generated(CROSSING, "crossing"),
           "both": lambda: Generated(BOTH_EDGES, "both"),
           "same_instant": lambda: Generated(SAME_INSTANT, "same_instant")}
ASYNC = {"pulse_sync", "pulse_lost", "async_fifo", "crossing"}  # an asynchronous reset and free clocks


def run(prep, reset: str) -> list[str]:
    case = amaranth_sim.make_case(prep, 0, reset)
    return amaranth_sim.disagreements(case, amaranth_sim.simulate([case], CYCLES))


@pytest.mark.parametrize("name,reset", [(n, r) for n in DESIGNS for r in ("domain", "port")
                                        if not (n in ASYNC and r == "port")])
def test_amaranth_agrees_with_the_evaluator_across_clocks(name, reset):
    prep = prepare(DESIGNS[name](), 11, CYCLES)
    clocks = prep.system.design.clocks
    ticks = [{c for c in clocks if row.get(c, row.get(f"{c}#toggle", 1))} for row in prep.inputs]
    for c in clocks:
        assert any(c in t for t in ticks), c
    if len(clocks) > 1:  # the clocks tick independently: alone, together, neither
        assert {frozenset(t) for t in ticks} >= {frozenset(), frozenset(clocks)}
        assert all(any(t == {c} for t in ticks) for c in clocks)
    assert run(prep, reset) == []


def test_an_asynchronous_reset_across_free_clocks_needs_the_domains_reset():
    """In "port" mode a register is reset by logic at its own edge, which is not the meaning of an
    asynchronous reset when a step may end without that edge: refused, with the way out."""
    with pytest.raises(ValueError, match='`async_fifo` has an asynchronous reset .* use reset="domain"'):
        sa.from_text(source("async_fifo").text, verify=False, reset="port")


def _edges_ignored(mp):
    real = sysr_amaranth_domains.Domains.of
    mp.setattr(sysr_amaranth_domains.Domains, "of",
               lambda self, clock, edge, write=False: real(self, clock, "rising", write))


def _level_inverted(mp):
    mp.setattr(sysr_amaranth_domains.Domains, "clock_signal", lambda self, clock: ~ClockSignal(self.user[clock]))


def _one_clock(mp):
    real = sysr_clocks.register_domains

    def first(design):
        return {n: (design.clocks[0], e) for n, (c, e) in real(design).items()}
    mp.setattr(sa.component, "register_domains", first)


def _edges_read_late(mp):
    mp.setattr(sa.component.SysrComponent, "_settled", lambda self, value, reg, late: value)


CORRUPTIONS = {  # name -> (how, design, the probe that must disagree)
    "falling edge taken as rising": (_edges_ignored, "falling_edge", ": q: Amaranth"),
    "both edges taken as rising": (_edges_ignored, "both", ": n: Amaranth"),
    "clock level inverted": (_level_inverted, "both", ": lvl: Amaranth"),
    "every register on the first clock": (_one_clock, "crossing", ": s.s1: Amaranth"),
    "a falling edge reads a register of the same instant": (_edges_read_late, "same_instant", ": q: Amaranth"),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_amaranth_harness_notices_a_wrong_domain(monkeypatch, name):
    corrupt, design, expected = CORRUPTIONS[name]
    prep = prepare(DESIGNS[design](), 11, CYCLES)
    assert run(prep, "domain") == []
    corrupt(monkeypatch)
    problems = run(prep, "domain")
    assert any(expected in p for p in problems), problems


def test_each_clock_is_a_domain_named_as_asked():
    fifo = source("async_fifo").text
    c = elaborated(sa.from_text(fifo, verify=False))
    assert c.domains == {"wclk": "wclk", "rclk": "rclk"} and c.domain == "wclk"
    c = elaborated(sa.from_text(fifo, verify=False, domains={"wclk": "write", "rclk": "read"}))
    assert c.domains == {"wclk": "write", "rclk": "read"}
    for bad, why in (({"wclk": "w"}, "`rclk` is missing"),
                     ({"wclk": "w", "rclk": "r", "clk": "c"}, "`clk` is not one")):
        with pytest.raises(ValueError, match=f"each clock of `async_fifo` \\(wclk, rclk\\) to an Amaranth domain: {why}"):
            sa.from_text(fifo, verify=False, domains=bad)
    c = elaborated(sa.from_text(source("dualedge").text, verify=False, domain="pix"))
    assert c.domains == {"clk": "pix"} and "clk" not in c.port_names  # its falling edge: a local domain


def flops(component, tmp_path: Path, name: str) -> str:
    """The design through RTLIL and Yosys: its netlist's `always` lines."""
    top, ports = verilog_top(component)
    (tmp_path / f"{name}.il").write_text(rtlil.convert(top, name=name, ports=ports))
    yosys(f"read_rtlil {name}.il; hierarchy -check -top {name}; proc; flatten; opt; memory -nomap; opt_clean; "
          f"check -assert; write_verilog -noattr {name}.v", tmp_path)
    return "\n".join(sorted({line.strip() for line in (tmp_path / f"{name}.v").read_text().splitlines()
                             if line.strip().startswith("always")}))


def test_the_rtlil_has_flip_flops_on_each_clock_and_edge(tmp_path):
    both = flops(sa.from_text(BOTH_EDGES, verify=False), tmp_path, "both")
    assert "always @(posedge clk)" in both and "always @(negedge clk)" in both, both
    fifo = flops(sa.from_text(source("async_fifo").text, verify=False), tmp_path, "async_fifo")
    assert "always @(posedge wclk, posedge arst)" in fifo and "always @(posedge rclk, posedge arst)" in fifo, fifo
    assert "negedge" not in fifo and "memw" not in fifo, fifo


def test_the_two_clock_example_runs():
    """examples/amaranth_async_fifo.py: the proven FIFO between two unrelated Amaranth clocks
    delivers the bytes in order."""
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "amaranth_async_fifo.py")], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.startswith("popped: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10")


EXTERN_ON_SECOND = """
extern module x(clk: clock, a: in u8, q: out reg u8) { }
module top(wclk: clock, rclk: clock, rst: reset, a: in u8, b: out u8, c: out reg u8 = 0) {
  inst u = x(clk: rclk, a: a);
  b = u.q;
  seq(wclk) { c <= a; }
}
"""


def test_an_extern_instance_takes_the_clock_it_is_bound_to(tmp_path):
    top, ports = verilog_top(sa.from_text(EXTERN_ON_SECOND, verify=False))
    (tmp_path / "top.il").write_text(rtlil.convert(top, name="top", ports=ports))
    (tmp_path / "x.v").write_text("module x(input clk, input [7:0] a, output [7:0] q); endmodule\n")
    yosys("read_rtlil top.il; read_verilog -lib x.v; hierarchy -top top; proc; flatten; opt_clean; "
          "write_verilog -noattr top.v", tmp_path)
    netlist = (tmp_path / "top.v").read_text()
    assert ".clk(rclk)" in netlist and "always @(posedge wclk)" in netlist, netlist
