"""Extern modules with parameters (reference §4.9): `extern module delay<W: int = 8>(...)`.

- Each binding is checked as an extern (a contract, no body: no A006 for its registered output)
  and its parent is proven through it (examples/delay_pair.sysr);
- the lowering instantiates the user's Verilog module with every parameter of the binding set,
  `delay #(.W(4)) short (`, and names the module once; compiled with examples/delay.v (whose own
  default W is 1) it runs in Icarus as the contract says;
- `--formal` has a model per binding (`delay__W4`) under `ifdef FORMAL`, the user's module
  otherwise;
- the Amaranth back end's `Instance` sets the parameters (`p_W`).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from bench.judge.tools import find_tool
from sysr.lower import lower_text, needed_externs
from sysr.pipeline import Options, check

ROOT = Path(__file__).resolve().parent.parent
PAIR = ROOT / "examples" / "delay_pair.sysr"
DELAY_V = ROOT / "examples" / "delay.v"

TESTBENCH = """module tb;
  reg clk = 0;
  reg [3:0] a = 0;
  reg [11:0] b = 0;
  wire [3:0] x;
  wire [11:0] y;
  wire same;
  delay_pair dut(.clk(clk), .a(a), .b(b), .x(x), .y(y), .same(same));
  integer i;
  initial begin
    for (i = 1; i <= 3; i = i + 1) begin
      a = i * 5; b = i * 1000 + (i == 2 ? 0 : 1);
      #5 clk = 1; #5 clk = 0;
      $display("%0d %0d %0d", x, y, same);
    end
    a = 9; b = 9; #5 clk = 1; #5 clk = 0;
    $display("%0d %0d %0d", x, y, same);
  end
endmodule
"""


def run(tmp_path: Path, *files: str, tb: str = TESTBENCH) -> list[str]:
    (tmp_path / "tb.v").write_text(tb)
    r = subprocess.run([find_tool("iverilog"), "-g2005", "-Wall", "-o", "sim", "tb.v", *files],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr.strip(), r.stderr
    r = subprocess.run([find_tool("vvp"), "-n", "sim"], cwd=tmp_path, capture_output=True, text=True)
    return r.stdout.splitlines()


EXPECTED = ["5 1001 0", "10 2000 0", "15 3001 0", "9 9 1"]


def test_the_parent_is_proven_through_each_binding():
    outcome = check(PAIR.read_text(), Options())
    assert outcome.accepted, [d.message for d in outcome.diagnostics]
    wrong = check(PAIR.read_text().replace("ensures x == prev(a) && y == prev(b);", "ensures y == b;"), Options())
    assert [d.code for d in wrong.diagnostics if d.severity.name == "ERROR"] == ["V002"]


def test_the_lowering_sets_the_parameters_of_the_users_module(tmp_path: Path):
    verilog, diags = lower_text(PAIR.read_text(), "delay_pair.sysr")
    assert verilog is not None, [d.message for d in diags]
    assert "delay #(.W(4)) short (" in verilog and "delay #(.W(12)) long (" in verilog
    assert needed_externs(verilog) == ["delay"] and "module delay (" not in verilog
    (tmp_path / "pair.v").write_text(verilog)
    assert run(tmp_path, "pair.v", str(DELAY_V)) == EXPECTED


def test_formal_has_a_model_per_binding_and_the_users_module_otherwise(tmp_path: Path):
    verilog, _ = lower_text(PAIR.read_text(), "delay_pair.sysr", formal=True)
    assert "`ifdef FORMAL\n  delay__W4 short (\n  `else\n  delay #(.W(4)) short (\n  `endif" in verilog
    assert "module delay__W4 (" in verilog and "module delay__W12 (" in verilog
    (tmp_path / "pair.v").write_text(verilog)
    assert run(tmp_path, "pair.v", str(DELAY_V)) == EXPECTED  # without FORMAL: the user's module


def test_amaranth_sets_the_instance_parameters(tmp_path: Path):
    from amaranth.back import rtlil
    import sysr.amaranth
    component = sysr.amaranth.load(str(PAIR))
    (tmp_path / "pair.il").write_text(rtlil.convert(component, name="delay_pair"))
    r = subprocess.run([find_tool("yosys"), "-q", "-p", f"read_rtlil pair.il; read_verilog {DELAY_V}; "
                        "hierarchy -check -top delay_pair; proc; opt_clean; write_verilog -noattr pair.v"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with_rst = TESTBENCH.replace(".clk(clk),", ".clk(clk), .rst(1'b0),")  # the domain's reset port
    assert run(tmp_path, "pair.v", tb=with_rst) == EXPECTED
