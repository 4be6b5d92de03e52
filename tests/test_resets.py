"""One reset per clock domain (reference §4.10): `seq(wclk, wrst_n)` names the reset of a block's
registers, and each reset acts on its own registers only.

- the checker: a reset clears its own registers and no other, asynchronous at once and
  synchronous at its domain's edge; the designs of one reset are what they were;
- the lowering: each block's `always` on its own reset (`or negedge wrst_n` for an asynchronous
  one, `if (rrst)` for a synchronous one), memories gated by their block's reset;
- ChipBench's asynchronous FIFO, written in sysr (tests/verify/suite_async_fifo.sysr, proven and
  run through its testbench by tests/test_suite_solutions.py): the testbench also fails flags
  computed a cycle late, as ChipBench's reference computes them;
- the stub writer: a reference with a reset per side gets a stub with both, which checks with
  hole errors only;
- the Amaranth back end refuses several resets with a clear error.

The diagnostics are tests/cases/bad/A008-*reset*.sysr; the differential tests draw designs with a
reset per domain (tests/gen_clocks.py); yosys-smtbmc confirms examples/async_fifo_resets.sysr and
refutes tests/seeded/async_fifo_resets.sysr (tests/test_formal.py).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench.suites.facts import Facts, Port
from bench.suites.stub import port_kinds, stub
from icarus_harness import needs_icarus
from sysr.amaranth import from_text
from sysr.lower import lower_text
from sysr.pipeline import Options, analyze, check

ROOT = Path(__file__).parent.parent
FIFO = ROOT / "tests/verify/suite_async_fifo.sysr"
TESTBENCH = ROOT / "tests/fixtures/solutions/async_fifo_tb.v"

TWO = """module m(wclk: clock, rclk: clock, wrst: RW, rrst: RR, d: in u8, a: out reg u8 = 0, b: out reg u8 = 0) {
  seq(wclk, wrst) { a <= d; }
  seq(rclk, rrst) { b <= d; }
  ensures PROP;
}"""


def verdict(text: str) -> list[str]:
    outcome = check(text, Options(depth=8))
    return [d.code for d in outcome.diagnostics if d.severity.name == "ERROR"]


@pytest.mark.parametrize("kinds, prop, codes", [
    (("areset", "areset"), "wrst ==> a == 0", []),            # asynchronous: cleared at once
    (("areset", "areset"), "rrst ==> a == 0", ["V002"]),      # the other side's reset leaves it alone
    (("areset_n", "reset"), "!wrst ==> a == 0", []),
    (("areset_n", "reset"), "rrst ==> b == 0", ["V002"]),     # synchronous: only at its own edge
    (("reset", "areset_n"), "!rrst ==> b == 0 && (wrst || a == 0)", ["V002"]),
])
def test_each_reset_acts_on_its_own_registers(kinds, prop, codes) -> None:
    text = TWO.replace("RW", kinds[0]).replace("RR", kinds[1]).replace("PROP", prop)
    assert verdict(text) == codes


def test_the_blocks_are_lowered_on_their_own_resets() -> None:
    text = TWO.replace("RW", "areset_n").replace("RR", "reset").replace("  ensures PROP;\n", "")
    text = text.replace("seq(wclk, wrst) { a <= d; }", "seq(wclk, wrst) { a <= d; mem[d[1:0]] <= d; }")
    text = text.replace("{\n", "{\n  reg mem: u8[4];\n", 1)
    verilog, diags = lower_text(text, "m.sysr")
    assert verilog is not None, [d.message for d in diags]
    assert "always @(posedge wclk or negedge wrst) begin\n    if (!wrst) begin\n      a <= 8'd0;" in verilog
    assert "always @(posedge wclk) begin\n    if (wrst) begin\n      mem[d[1:0]] <= d;" in verilog
    assert "always @(posedge rclk) begin\n    if (rrst) begin\n      b <= 8'd0;" in verilog


def _run_testbench(verilog: str, tmp_path: Path) -> str:
    (tmp_path / "fifo.v").write_text(verilog)
    subprocess.run(["iverilog", "-g2012", "-o", str(tmp_path / "sim"), str(tmp_path / "fifo.v"), str(TESTBENCH)],
                   check=True, capture_output=True, timeout=60)
    return subprocess.run(["vvp", "-n", str(tmp_path / "sim")], capture_output=True, text=True, timeout=60).stdout


@needs_icarus
@pytest.mark.parametrize("corrupt, failure", [
    # the full flag from the write pointer a cycle late, as ChipBench's reference computes it
    (lambda v: v.replace("assign wfull = wgray ==", "reg [4:0] wlate;\n  always @(posedge wclk) wlate <= wgray;\n"
                                                   "  assign wfull = wlate =="), "FAIL overflow"),
])
def test_the_testbench_fails_a_broken_fifo(corrupt, failure, tmp_path: Path) -> None:
    verilog, _ = lower_text(FIFO.read_text(), FIFO.name)
    bad = corrupt(verilog)
    assert bad != verilog, "the corruption did not apply"
    assert failure in _run_testbench(bad, tmp_path)


FIFO_PORTS = [Port("wclk", "input", 1), Port("rclk", "input", 1), Port("wrstn", "input", 1), Port("rrstn", "input", 1),
              Port("winc", "input", 1), Port("rinc", "input", 1), Port("wdata", "input", 8),
              Port("wfull", "output", 1), Port("rempty", "output", 1), Port("rdata", "output", 8)]


def test_a_stub_with_a_reset_per_side() -> None:
    facts = Facts(ports=FIFO_PORTS, elaborated=True, clocks={("wclk", True), ("rclk", True)},
                  async_resets={("wrstn", False), ("rrstn", False)},
                  reset_clocks={("wrstn", "wclk", True), ("rrstn", "rclk", True)})
    text, why = stub(facts, "t")
    assert why == ""
    assert "module TopModule(wclk: clock, rclk: clock, wrstn: areset_n, rrstn: areset_n," in text
    assert "// `rclk` clocks the reference at its rising edge: `seq(rclk, rrstn) { ... }`" in text
    assert "// `wclk` clocks the reference at its rising edge: `seq(wclk, wrstn) { ... }`" in text
    codes = {d.code for d in analyze(text).diagnostics if d.severity.name == "ERROR"}
    assert codes == {"H001"}


def test_a_reset_at_both_polarities_has_no_stub() -> None:
    facts = Facts(ports=FIFO_PORTS, elaborated=True, clocks={("wclk", True)},
                  async_resets={("wrstn", False), ("wrstn", True)})
    assert port_kinds(facts) == ({}, "the reference uses `wrstn` as an asynchronous reset of both polarities")


def test_several_synchronous_resets_yosys_finds() -> None:
    ports = [Port("clk", "input", 1), Port("reset", "input", 1), Port("rstn", "input", 1), Port("q", "output", 8)]
    found = Facts(ports=ports, elaborated=True, clocks={("clk", True)}, sync_resets={"reset": {True}, "rstn": {False}})
    assert port_kinds(found) == ({"clk": "clock", "reset": "reset", "rstn": "reset_n"}, "")
    named = Facts(ports=ports, elaborated=True, clocks={("clk", True)})
    assert "which are resets is unknown" in port_kinds(named)[1]


def test_amaranth_refuses_several_resets() -> None:
    text = TWO.replace("RW", "areset").replace("RR", "reset").replace("  ensures PROP;\n", "")
    text = text.replace("rclk", "wclk").replace("wclk: clock, wclk: clock", "wclk: clock")
    with pytest.raises(ValueError, match="builds designs with one reset; `m` has 2 resets"):
        from_text(text, verify=False)
    parent = text.replace("rrst: reset", "rrst: areset") + (
        "\nmodule top(wclk: clock, a: areset, d: in u8, y: out u8) {\n"
        "  inst u = m(wclk: wclk, wrst: a, rrst: a, d: d);\n  y = u.a;\n}\n")
    with pytest.raises(ValueError, match="`top` instantiates `m`, which has 2 resets"):
        from_text(parent, verify=False)
