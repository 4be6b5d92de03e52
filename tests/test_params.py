"""Module parameters (§4.8): bindings checked and proven one by one, their diagnostics, `--param`,
and the lowering of two bindings of one FIFO compiled and simulated in Icarus.

The probe of issue 25: a FIFO parameterized in width and depth, instantiated twice with
different bindings (examples/param_fifo.sysr), is proven, lowered, compiled and simulated; a
property false only through one binding is V002 for that binding, and the diagnostic names it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.judge.tools import find_tool
from sysr.cli import main
from sysr.lower import lower_text
from sysr.pipeline import Options, analyze, check

ROOT = Path(__file__).resolve().parent.parent
FIFO = ROOT / "examples" / "param_fifo.sysr"

LIMIT = """
module limit<MAX: int = 9>(clk: clock, rst: reset, en: in bool, count: out reg u4 = 0) {
  seq { if en && count != MAX { count <= count + 1; } }
  ensures count <= 9;
}

module top(clk: clock, rst: reset, go: in bool, a: out u4, b: out u4) {
  inst nine = limit(clk: clk, rst: rst, en: go);
  inst twelve = limit<MAX = 12>(clk: clk, rst: rst, en: go);
  a = nine.count;
  b = twelve.count;
}
"""


def codes(text: str, **kw) -> list[str]:
    return [d.code for d in analyze(text, **kw).diagnostics]


def messages(text: str, **kw) -> list[str]:
    return [f"{d.code} {d.message} | " + " | ".join(d.notes) for d in analyze(text, **kw).diagnostics]


# ---- the probe: two bindings of one FIFO -----------------------------------------------------

def test_both_bindings_of_the_fifo_are_proven():
    out = check(FIFO.read_text(), Options())
    assert out.accepted, [f"{d.code} {d.message}" for d in out.diagnostics]
    assert list(out.hierarchy.modules) == ["fifo<W = 16, DEPTH = 5>", "fifo<W = 8, DEPTH = 4>", "fifo_pair"]
    proven = {(p["module"], p["text"]) for p in out.properties if p["status"] == "proven"}
    for binding in ("fifo<W = 16, DEPTH = 5>", "fifo<W = 8, DEPTH = 4>"):
        assert (binding, "count <= DEPTH") in proven
        assert (binding, "!(full && empty)") in proven


TESTBENCH = """
module tb;
  reg clk = 0, rst = 1, push = 0, pop = 0;
  reg [15:0] a = 0;
  reg [7:0] b = 0;
  wire [15:0] qa;
  wire [7:0] qb;
  wire full, empty;
  integer i, errors = 0;
  fifo_pair dut(.clk(clk), .rst(rst), .push(push), .a(a), .b(b), .pop(pop), .qa(qa), .qb(qb),
                .full(full), .empty(empty));
  always #5 clk = ~clk;
  initial begin
    @(negedge clk) rst = 0;
    if (!empty || full) begin errors = errors + 1; $display("after reset: empty=%b full=%b", empty, full); end
    for (i = 0; i < 6; i = i + 1) begin   // 6 pushes: the 4-entry FIFO takes 4, the 5-entry one 5
      push = 1; a = 16'h1000 + i; b = 8'h20 + i;
      @(negedge clk);
      if (i == 3 && !full) begin errors = errors + 1; $display("not full after 4 pushes"); end
    end
    push = 0;
    for (i = 0; i < 6; i = i + 1) begin
      if (i < 5 && qa !== 16'h1000 + i) begin errors = errors + 1; $display("qa %0d: %h", i, qa); end
      if (i < 4 && qb !== 8'h20 + i) begin errors = errors + 1; $display("qb %0d: %h", i, qb); end
      pop = 1;
      @(negedge clk);
    end
    pop = 0;
    if (!empty) begin errors = errors + 1; $display("not empty at the end"); end
    if (errors == 0) $display("PASS"); else $display("FAIL %0d", errors);
    $finish;
  end
endmodule
"""


def test_the_fifo_pair_lowers_compiles_and_simulates(tmp_path: Path):
    code, diags = lower_text(FIFO.read_text(), FIFO.name)
    assert code is not None, [f"{d.code} {d.message}" for d in diags]
    assert "module fifo__W16_DEPTH5 (" in code and "module fifo__W8_DEPTH4 (" in code
    assert "fifo__W16_DEPTH5 wide (" in code and "fifo__W8_DEPTH4 narrow (" in code
    (tmp_path / "dut.v").write_text(code)
    (tmp_path / "tb.v").write_text(TESTBENCH)
    r = subprocess.run([find_tool("iverilog"), "-g2005", "-Wall", "-o", "sim", "dut.v", "tb.v"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stdout + r.stderr
    r = subprocess.run([find_tool("vvp"), "-n", "sim"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert "PASS" in r.stdout, r.stdout + r.stderr


# ---- a property false through one binding --------------------------------------------------

def test_a_property_false_in_one_binding_is_V002_for_it():
    out = check(LIMIT, Options())
    errors = [d for d in out.diagnostics if d.severity.name == "ERROR"]
    assert [d.code for d in errors] == ["V002"]
    assert errors[0].notes[0] == "in `limit<MAX = 12>` (instance `twelve` of `top`)"
    status = {(p["module"], p["text"]): p["status"] for p in out.properties}
    assert status[("limit<MAX = 9>", "count <= 9")] == "proven"
    assert status[("limit<MAX = 12>", "count <= 9")] == "refuted"


def test_json_names_the_binding_of_each_property(capsys):
    path = Path(__file__).parent / "params_limit.sysr"
    try:
        path.write_text(LIMIT)
        assert main(["check", "--json", str(path)]) == 1
    finally:
        path.unlink()
    doc = json.loads(capsys.readouterr().out)
    assert {p["module"] for p in doc["properties"]} == {"limit<MAX = 9>", "limit<MAX = 12>"}


# ---- --param ---------------------------------------------------------------------------------

def test_param_sets_the_top_and_is_checked():
    text = FIFO.read_text()
    out = check(text, Options(top="fifo", params={"W": 4, "DEPTH": 3}))
    assert out.accepted
    assert "fifo<W = 4, DEPTH = 3>" in out.hierarchy.modules
    assert out.hierarchy.top == "fifo<W = 4, DEPTH = 3>"
    assert messages(text, top="fifo", params={"DEPTH": 3, "WIDTH": 8}) == [
        "N008 `fifo` has no parameter `WIDTH`; did you mean `DEPTH`? | its parameters: `W`, `DEPTH`"]


def test_the_top_keeps_its_parameters_and_refuses_others(tmp_path: Path):
    code, _ = lower_text(FIFO.read_text(), FIFO.name, top="fifo", params={"W": 4, "DEPTH": 8})
    assert code.startswith("// Generated by sysr from param_fifo.sysr; do not edit.\n"
                           "module fifo #(\n  parameter W = 4,\n  parameter DEPTH = 8\n) (\n")
    (tmp_path / "dut.v").write_text(code)
    for value, ok in (("4", True), ("5", False)):
        (tmp_path / "tb.v").write_text(
            "module tb; reg clk = 0; reg rst = 1; wire [3:0] q; wire f, e; wire [3:0] n;\n"
            f"fifo #(.W({value}), .DEPTH(8)) u(.clk(clk), .rst(rst), .push(1'b0), .din(4'd0), .pop(1'b0),\n"
            "  .dout(q), .full(f), .empty(e), .count(n));\nendmodule\n")
        r = subprocess.run([find_tool("iverilog"), "-g2005", "-Wall", "-o", "sim", "dut.v", "tb.v"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)
        if ok:
            assert r.returncode == 0 and r.stderr == "", r.stdout + r.stderr
        else:
            assert r.returncode != 0 and "sysr_checked_with_W4_DEPTH8" in r.stdout + r.stderr
    r = subprocess.run([find_tool("yosys"), "-q", "-p", "read_verilog dut.v; hierarchy -check -top fifo; proc; "
                        "check -assert"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def test_param_on_the_command_line(tmp_path: Path):
    src = tmp_path / "f.sysr"
    src.write_text(FIFO.read_text())

    def sysr(*args):
        return subprocess.run([sys.executable, "-m", "sysr.cli", *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
    r = sysr("lower", str(src), "--top", "fifo", "--param", "W=12", "--param", "DEPTH=0x4")
    assert r.returncode == 0, r.stderr
    assert "parameter W = 12,\n  parameter DEPTH = 4\n" in r.stdout and "input wire [11:0] din" in r.stdout
    r = sysr("check", "--no-verify", str(src), "--top", "fifo", "--param", "W=0")
    assert r.returncode == 1 and "error[T011]: `u[W]` has width 0 in `fifo<W = 0, DEPTH = 16>`" in r.stdout
    r = sysr("check", str(src), "--param", "W")
    assert r.returncode == 2 and "expected NAME=VALUE" in r.stderr


# ---- the language server -----------------------------------------------------------------------

def test_hover_and_definition_through_parameters():
    from sysr.lsp.symbols import design_at, symbol_at
    text = FIFO.read_text()
    h = analyze(text).hierarchy
    lines = text.splitlines()

    def at(line_has: str, word: str):
        i = next(n for n, line in enumerate(lines) if line_has in line)
        col = lines[i].index(word) + 1
        return symbol_at(design_at(h, i + 1, col), i + 1, col, text)
    use = at("full = count == DEPTH", "DEPTH")
    decl_line = next(n for n, line in enumerate(lines) if line.startswith("module fifo<")) + 1
    assert use.text == "parameter `DEPTH`: `int` = 5 in `fifo<W = 16, DEPTH = 5>`"
    assert use.definition.line == decl_line
    assert at("const AW", "AW").text == "`int` const `AW`: `int` = 3 in `fifo<W = 16, DEPTH = 5>`"
    setting = at("inst narrow", "DEPTH")
    assert setting.text == "parameter `DEPTH` of `fifo`: `int` = 4 in `fifo<W = 8, DEPTH = 4>`"
    assert setting.definition.line == decl_line
    assert at("reg mem", "u[W]").text == "type `u16` (16 bits, unsigned)"


# ---- an imported suite's stub ------------------------------------------------------------------

# A reference in the shape of ChipBench's synchronous FIFO (written for this test): WIDTH and DEPTH.
REFERENCE_FIFO = """
module TopModule #(parameter WIDTH = 8, parameter DEPTH = 16) (
  input clk, input rst_n, input winc, input rinc, input [WIDTH-1:0] wdata,
  output wfull, output rempty, output reg [WIDTH-1:0] rdata
);
  reg [WIDTH-1:0] mem [0:DEPTH-1];
  reg [$clog2(DEPTH):0] cnt;
  assign wfull = cnt == DEPTH;
  assign rempty = cnt == 0;
  always @(posedge clk)
    if (!rst_n) begin cnt <= 0; rdata <= 0; end
    else begin cnt <= cnt + (winc && !wfull) - (rinc && !rempty); rdata <= mem[0]; end
endmodule
"""


def test_a_stub_has_the_references_parameters():
    from bench.suites.facts import of_reference
    from bench.suites.stub import stub
    facts = of_reference(REFERENCE_FIFO)
    assert (facts.params, facts.param_widths) == ({"WIDTH": 8, "DEPTH": 16}, {"wdata": "WIDTH", "rdata": "WIDTH"})
    text, why = stub(facts, "TopModule: a FIFO")
    assert why == "" and "module TopModule<WIDTH: int = 8, DEPTH: int = 16>(" in text
    assert "wdata: in u[WIDTH]" in text and "rdata: out u[WIDTH]" in text
    code, _ = lower_text(text.replace("?wfull", "false").replace("?rempty", "true").replace("?rdata", "0"), "s.sysr")
    assert "module TopModule #(\n  parameter WIDTH = 8,\n  parameter DEPTH = 16\n) (" in code


REFERENCE_FSM = """
module TopModule (input clk, input in, input areset, output out);
  parameter A = 0, B = 1;
  reg state;
  always @(posedge clk or posedge areset)
    if (areset) state <= B;
    else state <= in ? state : ~state;
  assign out = state == B;
endmodule
"""


def test_parameters_of_a_references_body_stay_out_of_the_stub():
    # states named by body parameters are no part of the task's interface (they confused models)
    from bench.suites.facts import of_reference
    from bench.suites.stub import stub
    facts = of_reference(REFERENCE_FSM)
    assert facts.params == {}
    text, why = stub(facts, "TopModule: an FSM")
    assert why == "" and "module TopModule(" in text and "int" not in text


# ---- what a parameter may be, and the diagnostics ----------------------------------------------

def test_exact_constants_and_the_branch_taken():
    text = """
    module m<W: int = 8, DEPTH: int = 16>(a: in u[W], y: out u4, z: out u[W], c: out u8) {
      const HALF: int = (DEPTH * 2) / 4;       // 8, not (32 mod 16) / 4
      y = HALF;
      z = if W > 4 then a[W - 1:W - 4] as u[W] else a;  // the other branch is not checked
      c = clog2(DEPTH) as u8 + (DEPTH - 1) as u8;
      ensures y == 8;
      ensures c == 19;
    }
    """
    for w in (4, 8, 16):
        out = check(text, Options(params={"W": w}))
        assert out.accepted, (w, [f"{d.code} {d.message}" for d in out.diagnostics])


def test_a_statement_if_on_parameters_is_the_branch_it_takes():
    text = """
    module m<W: int = 4>(a: in u[W], y: out u8) {
      comb {
        if W > 8 { let lo: u8 = a[7:0]; y = lo; }  // a[7:0] is out of range for W <= 8: not checked
        else { y = a as u8; }
      }
      ensures W <= 8 ==> y == a as u8;
    }
    """
    for w in (4, 12):
        out = check(text, Options(params={"W": w}))
        assert out.accepted, (w, [f"{d.code} {d.message}" for d in out.diagnostics])
    verilog, _ = lower_text(text, "m.sysr", params={"W": 4})
    assert "y = {4'd0, a};" in verilog and "a[7:0]" not in verilog
    # a branch whose `let` a later `let` would see stays an `if`, checked as before
    clash = text.replace("else { y = a as u8; }", "else { let lo: u8 = a as u8; y = lo; }\n        let lo: u8 = y; q = lo;"
                         ).replace("y: out u8)", "y: out u8, q: out u8)")
    assert [m[:4] for m in messages(clash)] == ["T005"]


@pytest.mark.parametrize("text, expected", [
    ("module inc<STEP: int = 1>(x: in u8, y: out u8) { y = x + STEP; }\n"
     "module m(a: in u8, y: out u8) { inst i = inc<STPE = 2>(x: a); y = i.y; }",
     "N008 `inc` has no parameter `STPE`; did you mean `STEP`? | its parameters: `STEP`"),
    ("module inc<STEP: int>(x: in u8, y: out u8) { y = x + STEP; }\n"
     "module m(a: in u8, y: out u8) { inst i = inc(x: a); y = i.y; }",
     "A013 instance `i` does not set the parameter `STEP` of `inc`, which has no default | set it "
     "(`inc<STEP = ...>(...)`), or give it a default (`STEP: int = 8`)"),
    ("module inc<STEP: int>(x: in u8, y: out u8) { y = x + STEP; }",
     "A013 `--param` does not set the parameter `STEP` of `inc`, which has no default | pass `--param STEP=VALUE`, "
     "or give it a default (`STEP: int = 8`)"),
    ("module inc<STEP: int = 1>(x: in u8, y: out u8) { y = x + STEP; }\n"
     "module m(a: in u8, y: out u8) { inst i = inc<STEP = 1, STEP = 2>(x: a); y = i.y; }",
     "A013 parameter `STEP` of instance `i` is set twice | "),
    ("module inc<STEP: int = 1>(x: in u8, y: out u8) { y = x + STEP; }\n"
     "module m(a: in u8, y: out u8) { inst i = inc<STEP = a>(x: a); y = i.y; }",
     "T010 the value of parameter `STEP` must be a constant: parameters, `int` consts, literals and `clog2`, not "
     "`a` | a parameter is fixed when the design is built; a value that changes is an input port"),
    ("module m<W: int = 8>(a: in u[W - 8], y: out bool) { y = true; }",
     "T011 `u[W - 8]` has width 0 in `m<W = 8>`: widths go from 1 to 4096 | "),
    ("module m<DEPTH: int = 16>(a: in u4, y: out bool) { y = a < DEPTH; }",
     "T002 `DEPTH` is 16 here, which does not fit in `u4` | `u4` holds 0 to 15 | a parameter takes its type from "
     "the context, like a literal (§4.8): widen the other side to a type that holds 16, `x as u5 < DEPTH` (`as u33` "
     "holds every binding of 32 bits; synthesis drops the constant high bits) | or compare with a value that fits: "
     "`x <= DEPTH - 1` rather than `x < DEPTH`"),
    ("module m<DEPTH: int = 300>(a: in u8, y: out bool) { y = a < DEPTH; }",  # DEPTH - 1 does not fit either
     "T002 `DEPTH` is 300 here, which does not fit in `u8` | `u8` holds 0 to 255 | a parameter takes its type "
     "from the context, like a literal (§4.8): widen the other side to a type that holds 300, `x as u9 < DEPTH` "
     "(`as u33` holds every binding of 32 bits; synthesis drops the constant high bits)"),
    ("module m<W: int = 8>(a: in u8, y: out u16) { y = {a, W}; }",
     "T003 `W` (8 here) in a concatenation needs a width | give it one: `W as u8` (§4.8)"),
    ("module m(a: in u8, y: out u8) { y = clog2(a); }",
     "T010 `clog2` needs a constant: parameters, `int` consts and literals, not `a` | "),
    ("module m<W: u8 = 8>(a: in u8, y: out u8) { y = a; }",
     "N003 a parameter's type is `int`, not `u8` | write `W: int`; its value takes a type where it is used (§4.8)"),
    ("module m<a: int = 8>(a: in u8, y: out u8) { y = a; }",
     "N002 `a` is already the name of a parameter | it stands for its value everywhere in the module: give this "
     "one a name of its own"),
    ("module m<N: int = 0>(a: in u8, y: out u8) { y = a + 64 / N; }",
     "T020 `64 / N` divides by zero in `m<N = 0>` | "),
])
def test_diagnostics(text: str, expected: str):
    assert expected in messages(text), messages(text)


@pytest.mark.parametrize("text", [
    "const N: int = 3;\nmodule m(a: in u8, y: out u8) { comb { let N: u8 = a; y = N; } }",
    "const N: int = 3;\nfn f(N: u8) -> u8 { N + 1 }\nmodule m(a: in u8, y: out u8) { y = f(a); }",
    "module m<W: int = 3>(a: in u8, y: out u8) { const AW: int = W + 1; comb { y = 0; for AW in 0..4 { y = y + 1; } } }",
    "module m<W: int = 3>(W: in u8, y: out u8) { y = W; }",
])
def test_a_name_that_would_be_replaced_is_N002(text: str):
    """A parameter or `int` const stands for its value everywhere in its scope: a local, port or
    fn parameter of the same name would silently read that value, so it is refused."""
    assert "N002" in codes(text), messages(text)


def test_int_is_not_a_signal_type():
    got = messages("module m(a: in int, y: out bool) { y = true; }")
    assert any(m.startswith("N003 unknown type `int`") and "`int` is the type of module parameters and `int` "
               "consts only (§4.8)" in m for m in got), got


def test_a_diagnostic_of_some_bindings_names_them():
    text = """
    module pad<W: int = 8>(a: in u[W], y: out u8) { y = a as u8 + 200; }
    module top(a: in u8, b: in u4, y: out u8, z: out u8) {
      inst p = pad(a: a);
      inst q = pad<W = 4>(a: b);
      y = p.y;
      z = q.y;
    }
    """
    assert codes(text) == []
    text2 = text.replace("a as u8 + 200", "(a + 200) as u8")
    assert messages(text2) == ["T002 the literal `200` does not fit in `u4` | `u4` holds 0 to 15 | in `pad<W = 4>`"]


def test_int_consts_at_file_level_and_in_fns():
    text = """
    const N: int = 12;
    fn bump(x: u8) -> u8 { x + N }
    module m<K: int = N * 2>(a: in u8, y: out u8, z: out u[clog2(K)]) {
      y = bump(a);
      z = K - 1;
      ensures z == 23;
    }
    """
    out = check(text, Options())
    assert out.accepted, [f"{d.code} {d.message}" for d in out.diagnostics]


def test_a_cycle_through_parameters_is_A012_not_a_hang():
    text = """
    module r<N: int = 3>(x: in u8, y: out u8) { inst s = r<N = N + 1>(x: x); y = s.y; }
    module m(a: in u8, y: out u8) { inst i = r(x: a); y = i.y; }
    """
    assert "A012" in codes(text)
