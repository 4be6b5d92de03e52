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
