"""A comb `match` whose targets were assigned above it (`nx = Idle; match st {...}`) lowers to a
`case` that labels every arm, with an empty `default` that keeps the value written first.

Upstream testbenches (ChipBench) release an asynchronous reset at a clock edge; Icarus then
runs the flip-flops after the testbench's blocking `rst_n = 1`, so a register never reset holds
`x` at that edge, and the references' `default: next = IDLE;` brings it to IDLE. A lowering whose
last arm is the `default` sent `x` to that arm's state instead (ChipBench Prob003 failed so). A
match without such a preset keeps its last arm as the `default`: Verilog then sees no latch.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from bench.judge.tools import find_tool
from sysr.lower import lower_text
from sysr.pipeline import Options, check

FSM = (Path(__file__).parent / "lower" / "preset_match.sysr").read_text()

TB = """`timescale 1ns/1ns
module tb;
  reg clk = 0, rst_n, go = 1;
  wire lit;
  preset_match dut(.clk(clk), .rst_n(rst_n), .go(go), .lit(lit));
  initial begin
    rst_n = 1;                       // never reset: st starts at x
    #5 clk = 1; #5 clk = 0;          // one edge from x with go high
    $display("st=%b", dut.st);
    #5 clk = 1; #5 clk = 0;
    $display("st=%b lit=%b", dut.st, lit);
  end
endmodule
"""


def simulate(verilog: str, tmp_path: Path) -> list[str]:
    (tmp_path / "d.v").write_text(verilog)
    (tmp_path / "tb.v").write_text(TB)
    subprocess.run([find_tool("iverilog"), "-g2005", "-o", str(tmp_path / "a.out"), str(tmp_path / "d.v"),
                    str(tmp_path / "tb.v")], check=True, capture_output=True, timeout=60)
    r = subprocess.run([find_tool("vvp"), "-n", str(tmp_path / "a.out")], check=True, capture_output=True,
                       text=True, timeout=60)
    return r.stdout.split()


def test_the_design_is_proven():
    outcome = check(FSM, Options())
    assert outcome.accepted, [d.message for d in outcome.diagnostics]


def test_every_variant_is_labelled_and_the_default_keeps_the_preset():
    v = lower_text(FSM, "preset_match.sysr")[0]
    assert "LIGHT_STOP: begin" in v
    assert "default: ;  // no variant: the values set above" in v


def test_a_state_never_reset_goes_to_the_preset_in_icarus(tmp_path: Path):
    assert simulate(lower_text(FSM, "preset_match.sysr")[0], tmp_path) == ["st=00", "st=01", "lit=1"]


def test_without_a_preset_the_last_arm_stays_the_default(tmp_path: Path):
    text = FSM.replace("    nx = Light::Idle;\n", "").replace(
        "Light::Idle => { if go { nx = Light::Go; } }", "Light::Idle => { nx = if go then Light::Go else Light::Idle; }"
    ).replace("Light::Stop => { if go { nx = Light::Go; } }",
              "Light::Stop => { nx = if go then Light::Go else Light::Idle; }")
    assert check(text, Options()).accepted
    v = lower_text(text, "preset_match.sysr")[0]
    assert "default: begin  // LIGHT_STOP" in v and "default: ;" not in v
    assert simulate(v, tmp_path)[0] == "st=01"  # x took the last arm: Stop goes to Go on go


# A testbench that sets an input at the clock edge itself (ChipBench's habit): Icarus runs it
# before the clocked blocks, so a `seq` block that reads the input sees the new value and one
# that reads a `wire` of it the old one (reference §8, "Reading inputs at the edge"). The lowering
# keeps the source's structure, so the two designs below, the same to the checker, differ here.
DIRECT = """module acc(clk: clock, rst_n: areset_n, v: in bool, en: in bool, n: out reg u4 = 0) {
  seq { if v && en { n <= n + 1; } }
}
"""
VIA_WIRE = DIRECT.replace("seq { if v && en {", "wire take: bool = v && en;\n  seq { if take {")

EDGE_TB = """module tb;
  reg clk = 0, rst_n = 0, v = 0, en = 1;
  wire [3:0] n;
  acc dut(.clk(clk), .rst_n(rst_n), .v(v), .en(en), .n(n));
  always #5 clk = !clk;
  initial begin
    #1 rst_n = 0; #1 rst_n = 1;
    @(posedge clk); v = 1;           // set at the edge, blocking
    @(negedge clk); $display("%0d", n);
    $finish;
  end
endmodule
"""


def run_edge_tb(text: str, tmp_path: Path) -> str:
    (tmp_path / "d.v").write_text(lower_text(text, "acc.sysr")[0])
    (tmp_path / "tb.v").write_text(EDGE_TB)
    subprocess.run([find_tool("iverilog"), "-g2005", "-o", str(tmp_path / "a.out"), str(tmp_path / "d.v"),
                    str(tmp_path / "tb.v")], check=True, capture_output=True, timeout=60)
    return subprocess.run([find_tool("vvp"), "-n", str(tmp_path / "a.out")], check=True, capture_output=True,
                          text=True, timeout=60).stdout.strip()


def test_the_lowering_keeps_the_structure_a_testbench_setting_inputs_at_the_edge_sees(tmp_path: Path):
    assert "assign take = v && en;" in lower_text(VIA_WIRE, "acc.sysr")[0]
    assert run_edge_tb(DIRECT, tmp_path) == "1"     # the edge saw v as the testbench set it there
    assert run_edge_tb(VIA_WIRE, tmp_path) == "0"   # the wire still showed v from before the edge
