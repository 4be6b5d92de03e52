"""Registers with a reset value start at it in the lowered Verilog (reference §8).

The checker's cycle 0 is the reset state (§6.1), so `sysr lower` declares every register that
has a reset value with that value as its Verilog initial value: `reg [3:0] n = 4'd9;`,
`output reg [7:0] q = 8'h34`, `reg [1:0] s = ST_BUSY;`, a register array per element as one
replicated vector (`reg [31:0] r = {4{8'h5a}};`). Icarus gives it at time 0 (a testbench that
never resets reads the reset values, tests/test_differential.py), Yosys keeps it as the `init`
attribute and adds no cell for it. Registers without a reset value, memories and ghost state
are declared as before; `--no-reset-init` leaves reset values to the reset alone (power-up
values stay: they are the design's meaning). `--formal` does not set a register twice: its
`initial` block sets only what the declarations do not.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.checker.smtbmc import formal_flow
from bench.judge.tools import find_tool
from sysr.lower import lower_text

ROOT = Path(__file__).parent.parent

DESIGN = """enum St { Idle, Busy, Done }
module m(clk: clock, rst: reset, go: in bool, a: in u8, q: out reg u8 = 0x34, st: out St, y: out u8,
         h: out reg u8) {
  reg s: St = St::Busy;
  reg n: u4 = 9;
  reg r: u8[4] = 0x5a;
  reg p: u8;
  reg c: u8 initial 5;
  reg mem: u8[16];
  st = s;
  y = r[n[1:0]] ^ p ^ c ^ mem[n];
  seq {
    c <= c + 1;
    p <= a;
    h <= a;
    if go { q <= q + a; n <= n - 1; r[n[1:0]] <= a; mem[a[3:0]] <= a; }
    match s { St::Idle => { if go { s <= St::Busy; } }, St::Busy => { s <= St::Done; }, St::Done => { s <= St::Idle; } }
  }
  ghost reg seen: u8 = 7;
  ghost seq { seen <= a; }
  ensures true || seen == 0;
}
"""

WITH = ["output reg [7:0] q = 8'h34,", "output reg [7:0] h\n", "reg [1:0] s = ST_BUSY;", "reg [3:0] n = 4'd9;",
        "reg [31:0] r = {4{8'h5a}};", "reg [7:0] p;", "reg [7:0] c = 8'd5;", "reg [7:0] mem [0:15];"]
WITHOUT = ["output reg [7:0] q,", "output reg [7:0] h\n", "reg [1:0] s;", "reg [3:0] n;", "reg [31:0] r;",
           "reg [7:0] p;", "reg [7:0] c = 8'd5;", "reg [7:0] mem [0:15];"]


def lowered(text: str = DESIGN, **opts) -> str:
    code, diags = lower_text(text, "m.sysr", **opts)
    assert code is not None, [d.message for d in diags]
    return code


def test_registers_with_reset_values_are_declared_with_them():
    code = lowered()
    for line in WITH:
        assert line in code, line
    assert "seen" not in code  # ghost state is not lowered
    assert "s <= ST_BUSY;" in code and "r <= {4{8'h5a}};" in code  # the reset branch writes the same text


def test_no_reset_init_leaves_them_to_the_reset_and_keeps_power_up_values(tmp_path: Path):
    src = tmp_path / "m.sysr"
    src.write_text(DESIGN)
    r = subprocess.run([sys.executable, "-m", "sysr.cli", "lower", "--no-reset-init", str(src)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout == lowered(reset_init=False)
    for line in WITHOUT:
        assert line in r.stdout, line
    assert "s <= ST_BUSY;" in r.stdout


def test_a_port_names_no_localparam_before_it_is_declared():
    """A registered output's initial value comes before the localparams: a literal, where the
    reset branch names a variant or a const."""
    text = ("enum St { A, B }\nconst K: u8 = 3;\nmodule m(clk: clock, rst: reset, d: in St, s: out reg St = St::B, "
            "k: out reg u8 = K) {\n  seq { s <= d; k <= k + 1; }\n}\n")
    code = lowered(text)
    assert "output reg s = 1'b1," in code and "output reg [7:0] k = 8'd3\n" in code
    assert "s <= ST_B;" in code and "k <= K;" in code


def yosys(script: str, verilog: str, tmp_path: Path) -> str:
    (tmp_path / "d.v").write_text(verilog)
    r = subprocess.run([find_tool("yosys"), "-q", "-p", f"read_verilog d.v; {script}"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_icarus_compiles_them_cleanly(tmp_path: Path):
    (tmp_path / "d.v").write_text(lowered())
    r = subprocess.run([find_tool("iverilog"), "-g2005", "-Wall", "-o", "sim", "d.v"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and not r.stderr, r.stderr


def test_yosys_keeps_them_as_init_attributes(tmp_path: Path):
    yosys("proc; write_rtlil d.il", lowered(), tmp_path)
    il = (tmp_path / "d.il").read_text()
    found = re.findall(r"attribute \\init (\S+)\n(?:\s*attribute .*\n)*\s*wire width \d+ (?:output \d+ )?\\(\w+)", il)
    inits = {name: value for value, name in found}
    assert inits == {"q": "8'00110100", "s": "2'01", "n": "4'1001", "r": "1515870810", "c": "8'00000101"}


def cells(verilog: str, tmp_path: Path) -> int:
    out = yosys("synth -top m; tee -o /dev/stdout stat", verilog, tmp_path)
    return int(re.findall(r"Number of cells:\s+(\d+)", out)[-1])


def test_initial_values_add_no_cells(tmp_path: Path):
    """Without an enum state register (whose initial value keeps Yosys from re-encoding it as an
    FSM, §8), no more cells with initial values than without (here fewer: Yosys 0.23 maps more
    registers to flip-flops with an enable when the initial value is the reset value)."""
    text = DESIGN.replace("st = s;", "st = St::Idle;").replace("reg s: St = St::Busy;", "")
    text = re.sub(r"\n    match s \{.*\n", "\n", text)
    assert 50 < cells(lowered(text), tmp_path) <= cells(lowered(text, reset_init=False), tmp_path)


def initial_block(code: str) -> list[str]:
    m = re.search(r"^  initial begin\n(.*?)^  end\n", code, re.M | re.S)
    return [] if m is None else [line.split("=")[0].strip() for line in m.group(1).splitlines()]


def test_formal_sets_each_register_once():
    """The declarations start the registers with reset values (ghost ones too); the `initial`
    block clears only `prev_valid`. Without initial values it sets every register."""
    text = DESIGN.replace("ensures true || seen == 0;", "ensures prev(seen) == prev(seen);")
    code = lowered(text, formal=True)
    assert "reg [7:0] seen = 8'd7;" in code and initial_block(code) == ["prev_valid"]
    code = lowered(text, formal=True, reset_init=False)
    assert "reg [7:0] seen;" in code
    assert initial_block(code) == ["q", "s", "n", "r", "seen", "prev_valid"]


@pytest.mark.parametrize("reset_init", [True, False])
def test_smtbmc_proves_the_formal_output_either_way(reset_init: bool, tmp_path: Path):
    code = lowered((ROOT / "tests" / "formal" / "enum_state.sysr").read_text(), formal=True, reset_init=reset_init)
    flow = formal_flow(code, 10, 2, tmp_path)
    assert flow.verdict == "proven", flow
