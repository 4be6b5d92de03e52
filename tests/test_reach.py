"""The language's second-wave reach: asynchronous resets, division and raw identifiers.

One test per promise a user relies on, beside the verdict cases in tests/verify/ and the
lowering cases in tests/lower/:

- an asynchronous-reset counter is proven, and its lowering clears the count as soon as the
  reset rises (between clock edges, with the clock low or high), keeps it through an edge, and
  counts again from the reset value after the release; for both polarities, in Icarus;
- while an asynchronous reset is active registers read as their reset values in the evaluator
  (and so in traces), memories keep their contents; logic may read a reset of every kind, and an
  output forced while an active-low asynchronous reset is low follows it between the edges;
- a constant zero divisor is T020 wherever it is written;
- a raw identifier `r#match` is the name `match` (a port of that name in the Verilog),
  diagnostics spell it as it must be written, and the set of words that need `r#` is exactly
  the set of keywords the parser reads where a name may stand;
- `sysr check --json` lists the ports with their kinds.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.judge.tools import find_tool
from sysr import elab as E
from sysr.evaluate import Evaluator
from sysr.front import syntax as S
from sysr.front.parse import _parser, parse
from sysr.lower import lower_text
from sysr.pipeline import Options, analyze, check

ROOT = Path(__file__).resolve().parent.parent


def codes(text: str) -> list[str]:
    return sorted({d.code for d in analyze(text).diagnostics if d.severity.name == "ERROR"})


# ---- asynchronous resets ------------------------------------------------------------------

COUNTER = """module counter(clk: clock, {rst}: {kind}, en: in bool, count: out reg u8 = 7) {{
  seq {{ if en {{ count <= count + 1; }} }}
  ensures {active} ==> count == 7;
  ensures prev(en) ==> count == prev(count) + 1;
}}
"""

# Each line: (when, what): `S name` samples the count, other lines are Verilog statements. The
# reset rises in the middle of a low phase, then of a high phase, and falls in a low phase.
SCRIPT = """
  #1 RELEASE; en = 1;
  repeat (5) begin #5 clk = 1; #5 clk = 0; end
  $display("counted %0d", count);
  #2 ASSERT; #1 $display("low %0d", count);
  #2 clk = 1; #1 $display("edge %0d", count); #2 clk = 0;
  #3 RELEASE; #1 $display("released %0d", count);
  #1 clk = 1; #1 $display("next %0d", count);
  #2 ASSERT; #1 $display("high %0d", count);
  #1 clk = 0; #1 RELEASE;
  #5 clk = 1; #1 $display("again %0d", count);
"""


@pytest.mark.parametrize("kind", ["areset", "areset_n"])
def test_asynchronous_counter_clears_between_clock_edges(kind: str, tmp_path: Path):
    low = kind.endswith("_n")
    rst = "arst_n" if low else "arst"
    text = COUNTER.format(rst=rst, kind=kind, active=f"!{rst}" if low else rst)
    outcome = check(text, Options())
    assert outcome.accepted, [d.message for d in outcome.diagnostics]
    verilog, _ = lower_text(text, "counter.sysr")
    edge = "negedge" if low else "posedge"
    assert f"always @(posedge clk or {edge} {rst}) begin\n    if ({'!' if low else ''}{rst}) begin" in verilog
    on, off = (0, 1) if low else (1, 0)
    script = SCRIPT.replace("ASSERT", f"{rst} = {on}").replace("RELEASE", f"{rst} = {off}")
    tb = (f"module tb;\n  reg clk = 0, {rst} = {on}, en = 0;\n  wire [7:0] count;\n"
          f"  counter dut(clk, {rst}, en, count);\n  initial begin{script}    $finish;\n  end\nendmodule\n")
    (tmp_path / "tb.v").write_text(tb)
    (tmp_path / "counter.v").write_text(verilog)
    sim = tmp_path / "sim"
    r = subprocess.run([find_tool("iverilog"), "-g2005", "-o", str(sim), "tb.v", "counter.v"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([find_tool("vvp"), "-n", str(sim)], cwd=tmp_path, capture_output=True, text=True)
    got = dict(line.split() for line in r.stdout.splitlines() if line and not line.startswith("VCD"))
    assert got == {"counted": "12", "low": "7", "edge": "7", "released": "7", "next": "8", "high": "7",
                   "again": "8"}, r.stdout


def test_asynchronous_reset_reads_as_reset_value_in_its_cycle_and_memories_keep_contents():
    text = """module m(clk: clock, arst: areset, we: in bool, d: in u8, q: out reg u8 = 3, m0: out u8) {
  reg mem: u8[4];
  m0 = mem[0];
  seq { if we { mem[0] <= d; } q <= d; }
}
"""
    system = E.elaborate(analyze(text).design)
    ev = Evaluator(system)
    rows = [{"arst": 0, "we": 1, "d": 9}, {"arst": 1, "we": 1, "d": 5}, {"arst": 0, "we": 0, "d": 6},
            {"arst": 0, "we": 0, "d": 6}]
    cycles = ev.run(rows, ev.initial_state(memory=lambda name, i: 0))
    assert [c.shown["q"] for c in cycles] == [3, 3, 3, 6]  # cleared in the reset cycle, and after it
    assert [c.state["q"] for c in cycles] == [3, 9, 3, 6]  # what the flip-flop held before the reset
    assert [c.values["m0"] for c in cycles] == [0, 9, 9, 9]  # the write at the reset edge did not happen


def test_logic_and_specifications_may_read_a_reset_of_every_kind():
    base = "module m(clk: clock, arst: areset, a: in bool, y: out bool, q: out reg bool = false) {{ {} }}\n"
    assert codes(base.format("y = a && !arst; seq { q <= a; }")) == []
    assert codes(base.format("y = a; seq { q <= a || arst; }")) == []
    assert codes(base.format("y = a; seq { q <= a; } ensures arst ==> !q; ghost wire g: bool = arst;")) == []
    for kind in ("reset", "reset_n", "areset_n"):
        assert codes(base.format("y = a && !arst; seq { q <= a; }").replace("areset", kind)) == []


FORCED = """module forced(clk: clock, rst_n: areset_n, a: in u8, y: out u8, q: out reg u8 = 5) {
  y = if !rst_n then 0 else a;      // forced to 0 while the reset is active, at once
  seq { q <= a; }
  ensures !rst_n ==> y == 0 && q == 5;
  ensures rst_n ==> y == a;
}
"""


def test_an_output_forced_during_an_active_low_asynchronous_reset_follows_it_between_edges(tmp_path: Path):
    """The reset falls and rises between the clock edges, with the clock low and with it high:
    the forced output (and the register) follow at once, in the evaluator and in Icarus."""
    outcome = check(FORCED, Options())
    assert outcome.accepted, [d.message for d in outcome.diagnostics]
    system = E.elaborate(outcome.design)
    ev = Evaluator(system)
    rows = [{"rst_n": 1, "a": 9}, {"rst_n": 0, "a": 9}, {"rst_n": 1, "a": 7}]
    cycles = ev.run(rows)
    assert [(c.values["y"], c.shown["q"]) for c in cycles] == [(9, 5), (0, 5), (7, 5)]
    verilog, _ = lower_text(FORCED, "forced.sysr")
    assert "assign y = !rst_n ? 8'd0 : a;" in verilog
    tb = """module tb;
  reg clk = 0, rst_n = 0;
  reg [7:0] a = 8'd9;
  wire [7:0] y, q;
  forced dut(clk, rst_n, a, y, q);
  initial begin
    #1 rst_n = 1; #1 $display("start %0d %0d", y, q);
    #3 clk = 1; #1 $display("run %0d %0d", y, q);
    #1 rst_n = 0; #1 $display("high %0d %0d", y, q);
    #1 rst_n = 1; #1 $display("back %0d %0d", y, q);
    #1 clk = 0; #2 rst_n = 0; #1 $display("low %0d %0d", y, q);
    #1 a = 8'd3; #1 $display("held %0d %0d", y, q);
    #1 rst_n = 1; #1 $display("released %0d %0d", y, q);
    #1 clk = 1; #1 $display("edge %0d %0d", y, q);
    $finish;
  end
endmodule
"""
    (tmp_path / "tb.v").write_text(tb)
    (tmp_path / "forced.v").write_text(verilog)
    sim = tmp_path / "sim"
    r = subprocess.run([find_tool("iverilog"), "-g2005", "-o", str(sim), "tb.v", "forced.v"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr
    r = subprocess.run([find_tool("vvp"), "-n", str(sim)], cwd=tmp_path, capture_output=True, text=True)
    got = {w[0]: (int(w[1]), int(w[2])) for w in (line.split() for line in r.stdout.splitlines()) if len(w) == 3}
    assert got == {"start": (9, 5), "run": (9, 9), "high": (0, 5), "back": (9, 5), "low": (0, 5),
                   "held": (0, 5), "released": (3, 5), "edge": (3, 3)}, r.stdout


def test_with_several_resets_a_block_names_its_own():
    """Several resets of any kinds (reference §4.10): a block whose registers have reset values
    names its reset, and the note says how."""
    text = "module m(clk: clock, rst: reset, arst: areset, q: out reg bool = false) { seq { q <= !q; } }\n"
    diags = analyze(text).diagnostics
    assert [d.code for d in diags] == ["A008"] and "names no reset" in diags[0].message
    assert diags[0].notes == ("name the reset that resets it: `seq(clk, rst) { ... }`",)
    assert analyze(text.replace("seq {", "seq(clk, arst) {")).diagnostics == []


# ---- division ------------------------------------------------------------------------------

@pytest.mark.parametrize("where", [
    "const C: u8 = 8 / (2 - 2);\nmodule m(a: in u8, y: out u8) { y = a; }\n",
    "fn f(a: u8) -> u8 { a % 0 }\nmodule m(a: in u8, y: out u8) { y = f(a); }\n",
    "const Z: s4 = 0;\nmodule m(a: in s4, y: out s4) { y = a / Z; }\n",
    "module m(a: in u8, y: out u8) { y = a; ensures a / 0 == 0; }\n",
])
def test_a_constant_zero_divisor_is_a_static_error(where: str):
    assert codes(where) == ["T020"]


def test_division_precedence_is_that_of_multiplication():
    tree, _ = parse("module m(a: in u8, b: in u8, y: out u8) { y = a + b * a / b % 3; }\n")
    value = tree.items[0].items[0].value
    assert value.op == "+" and value.right.op == "%" and value.right.left.op == "/"
    assert value.right.left.left.op == "*"


# ---- raw identifiers ------------------------------------------------------------------------

def test_raw_keywords_are_the_keywords_the_parser_reads_where_a_name_may_stand():
    parser = _parser()
    keywords = {t.name: t.pattern.value[:-2] for t in parser.terminals if t.pattern.value.endswith(r"\b")}
    table = parser.parser.parser.parser.parse_table
    clash = {keywords[k] for acts in table.states.values() if "NAME" in acts for k in acts if k in keywords}
    assert clash == set(S.RAW_KEYWORDS)
    assert {"in", "out", "clock", "reset", "reset_n", "areset", "areset_n", "as", "then", "initial"} == \
        set(keywords.values()) - set(S.RAW_KEYWORDS)


def test_a_raw_identifier_is_the_plain_name():
    ok = "module m(match: out bool, r#seq: in bool, r#x: in bool) { r#match = seq && x; }\n"
    assert codes(ok) == []
    assert codes("module m(a: in bool, y: out bool) { comb { match = a; } }\n") == ["P001"]
    verilog, _ = lower_text(ok, "m.sysr")
    assert "  output wire match,\n  input wire seq,\n  input wire x\n" in verilog
    assert "assign match = seq && x;" in verilog


def test_diagnostics_spell_names_as_they_must_be_written():
    diags = analyze("module m(a: in bool, r#match: out bool, r#if: out bool) { r#if = a; }\n").diagnostics
    assert [(d.code, d.message) for d in diags] == [("A006", "output `r#match` is never driven")]
    assert "assign it: `r#match = ...;`" in diags[0].notes[0]
    diags = analyze("module m(r#let: in u8, y: out u8) { y = lets; }\n").diagnostics
    assert diags[0].message == "unknown name `lets`; did you mean `r#let`?"


def test_raw_prefix_without_a_name_is_explained():
    diags = analyze("module m(a: in bool, y: out bool) { y = r#1; }\n").diagnostics
    assert diags[0].code == "P002" and "r#match" in diags[0].notes[0]


# ---- the JSON interface -----------------------------------------------------------------------

def test_json_lists_ports_with_their_kinds(tmp_path: Path):
    f = tmp_path / "m.sysr"
    f.write_text("module m(clk: clock, arst_n: areset_n, r#match: out reg u4 = 0, d: in u4) {\n"
                 "  seq { r#match <= d; }\n}\n")
    r = subprocess.run([sys.executable, "-m", "sysr.cli", "check", "--json", str(f)], capture_output=True,
                       text=True, cwd=ROOT)
    ports = json.loads(r.stdout)["ports"]
    assert ports == [{"name": "clk", "kind": "clock", "type": None, "width": 1},
                     {"name": "arst_n", "kind": "areset_n", "type": "bool", "width": 1},
                     {"name": "match", "kind": "out_reg", "type": "u4", "width": 4},
                     {"name": "d", "kind": "in", "type": "u4", "width": 4}]
    assert re.search(r'"accepted": true', r.stdout)


def test_obligations_inside_prev_are_about_the_previous_cycle():
    """`prev(b) != 0 ==> prev(a / b) ...` guards the division of the previous cycle: no alarm
    about this cycle's `b`; without the guard the previous cycle's zero divisor is found (and
    an index inside `prev` works the same way)."""
    base = "module m(clk: clock, rst: reset, a: in u8, b: in u8, i: in u4, y: out u8) {{ y = a; {} }}\n"
    assert check(base.format("ensures prev(b) != 0 ==> prev(a / b) <= prev(a);")).accepted
    assert check(base.format("ensures prev(i) < 8 ==> prev(a[i[2:0]] || !a[i[2:0]]);")).accepted
    assert check(base.format("ensures prev(i) < 8 ==> prev(a[i] || !a[i]);")).accepted
    got = check(base.format("ensures prev(a / b) <= prev(a) || true;"))
    divisor = [d for d in got.diagnostics if d.code == "V002"]
    assert len(divisor) == 1 and "divisor `b` of `a / b` may be zero" in divisor[0].message
    assert divisor[0].trace.failing_row == 1  # the zero divisor was in cycle 0, seen in cycle 1
