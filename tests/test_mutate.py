"""The mutators (bench/mutation/mutate_sysr.py, bench/mutation/mutate_verilog.py): each operator makes the change it
names, properties and ghost state are never mutated, static-check failures are discarded with
their codes, and a seed fixes the mutants.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.mutation import mutate_sysr, mutate_verilog
from bench.mutation.sites import ordered
from sysr.front import syntax as S
from sysr.front.parse import parse
from sysr.front.printer import print_file, same_tree

ROOT = Path(__file__).resolve().parent.parent
REFS = sorted(ROOT.glob("tasks/*/ref.sysr"))

SYSR = """\
enum Mode { Idle, Run, Stop }
const LIMIT: u8 = 200;
fn step(x: u8) -> u8 { x + 1 }
fn spec_next(x: u8) -> u8 { x + 1 }
module m(clk: clock, rst: reset, a: in u8, go: in bool, y: out u8, z: out bool, r: out reg u4 = 3) {
  reg mode: Mode = Mode::Idle;
  reg cnt: u8 = 0;
  reg last: u8 = 0;
  y = a & 0x0f;
  z = cnt < LIMIT;
  seq {
    if go { cnt <= step(cnt); } else if a == 0 { cnt <= 0; } else { cnt <= cnt; }
    match mode {
      Mode::Idle => { mode <= Mode::Run; },
      Mode::Run => { mode <= Mode::Stop; },
      _ => { mode <= Mode::Idle; },
    }
    last <= a;
    r <= a[7:4];
    if a[0] { r <= 0; }
  }
  ghost reg seen: u8 = 0;
  ghost seq { seen <= seen + 1; }
  requires a != 255;
  ensures y <= 15;
  invariant cnt <= 200 || cnt > 0;
  assert spec_next(cnt) != 0 || cnt == 255;
}
"""


def _sites(text: str):
    return mutate_sysr.sites(parse(text)[0])


def _mutant(text: str, operator: str, what: str) -> str:
    hits = [s for s in _sites(text) if s.operator == operator and what in s.what]
    assert hits, (operator, what, sorted({s.what for s in _sites(text) if s.operator == operator}))
    return hits[0].make()


@pytest.mark.parametrize("operator, what, expect", [
    ("operator", "`&` -> `|`", "y = a | 0x0f;"),
    ("comparison", "`<` -> `<=`", "z = cnt <= LIMIT;"),
    ("constant", "`0x0f` -> `0x10`", "y = a & 0x10;"),
    ("constant", "`Mode::Run` -> `Mode::Stop`", "Mode::Idle => {\n        mode <= Mode::Stop;"),
    ("constant", "`1` -> `2`", "fn step(x: u8) -> u8 {\n  x + 2\n}"),  # a fn only logic uses
    ("constant", "`200` -> `201`", "const LIMIT: u8 = 201;"),                # a const only logic uses
    ("negate", "condition `go` negated", "if !go {"),
    ("swap-branches", "then and else of `if a == 0`", "} else if a == 0 {\n      cnt <= cnt;\n    } else {\n      cnt <= 0;"),
    ("swap-conditions", "`if go` and `else if a == 0` swapped",
     "if a == 0 {\n      cnt <= 0;\n    } else if go {\n      cnt <= step(cnt);\n    } else {"),
    ("swap-arms", "`Mode::Idle` and `Mode::Run`", "Mode::Idle => {\n        mode <= Mode::Stop;\n      },\n"
                                                 "      Mode::Run => {\n        mode <= Mode::Run;"),
    ("drop-assign", "`last <= a;` dropped", "    }\n    r <= a[7:4];"),
    ("dup-assign", "`r <= a[7:4];` repeated after the next statement", "r <= 0;\n    }\n    r <= a[7:4];\n  }"),
    ("dup-assign", "`r <= 0;` repeated after its enclosing `if`", "r <= 0;\n    }\n    r <= 0;\n  }"),
    ("index", "`a[7:4]` -> `a[6:3]`", "r <= a[6:3];"),
    ("index", "`a[0]` -> `a[1]`", "if a[1] {"),
    ("reset", "`3` -> `4`", "r: out reg u4 = 4"),
    ("reset", "`Mode::Idle` -> `Mode::Run`", "reg mode: Mode = Mode::Run;"),
    ("late", "`y` registered", "y = y_late;\n  reg y_late: u8 = 0;\n  seq {\n    y_late <= a & 0x0f;\n  }"),
    ("early", "`last` combinational", "wire last: u8 = a;"),
])
def test_each_sysr_operator_makes_its_change(operator: str, what: str, expect: str) -> None:
    mutant = _mutant(SYSR, operator, what)
    assert expect in mutant, mutant
    assert mutant != print_file(parse(SYSR)[0])


def _spec_parts(tree: S.SourceFile):
    """Everything a mutation must leave alone: properties, ghost state and logic, spec fns."""
    module = next(it for it in tree.items if isinstance(it, S.Module))
    logic = mutate_sysr.logic_only(tree, module)
    specs = [it for it in module.items if isinstance(it, S.Spec) or getattr(it, "ghost", False)]
    fns = [it for it in tree.items if isinstance(it, (S.FnDecl, S.ConstDecl)) and it.name not in logic]
    return specs + fns


def test_spec_fns_and_shared_consts_are_not_mutable() -> None:
    tree = parse(SYSR)[0]
    module = tree.items[-1]
    assert mutate_sysr.logic_only(tree, module) == {"step", "LIMIT"}
    shared = SYSR.replace("assert spec_next(cnt)", "assert step(cnt) != 1 || spec_next(cnt)")
    tree = parse(shared)[0]
    assert mutate_sysr.logic_only(tree, tree.items[-1]) == {"LIMIT"}  # step is now used by a property too
    assert not any("x + 2" in s.make() for s in _sites(shared))


@pytest.mark.parametrize("path", REFS, ids=[p.parent.name for p in REFS])
def test_no_mutant_touches_a_property_or_ghost_state(path: Path) -> None:
    tree = parse(path.read_text())[0]
    want = _spec_parts(tree)
    sites = ordered(mutate_sysr.sites(tree), 1)[:80]  # every operator the design offers, 80 mutants at most
    assert sites
    for s in sites:
        got = _spec_parts(parse(s.make())[0])
        assert len(got) == len(want) and all(same_tree(a, b) for a, b in zip(want, got)), (s.operator, s.what)


def test_a_struct_design_is_mutated_and_its_field_targets_named() -> None:
    """Field reads, literals and field targets (`s2.off <= 0;`) go through the mutator: every
    mutant prints and parses, and a dropped field target is named as written."""
    text = (ROOT / "examples" / "struct_pipe.sysr").read_text()
    sites = ordered(mutate_sysr.sites(parse(text)[0]), 1)
    assert sites and all(parse(s.make())[0] is not None for s in sites)
    assert "`s2.off <= 0;` dropped" in {s.what for s in sites}


def test_static_failures_are_discarded_with_their_codes() -> None:
    text = """module m(a: in u8, c: in bool, y: out u8) {
  comb { y = 0; if c { y = a; } }
  ensures c ==> y == a;
}
"""
    ms = mutate_sysr.mutants(text, 50, seed=1)
    dropped = {d.what: d.why for d in ms.discarded}
    assert dropped["`y = 0;` dropped"] == "A001"  # a latch: says nothing about the properties
    assert all(not mutate_sysr.static_errors(m.text) for m in ms.mutants)
    assert len(ms.mutants) + len(ms.discarded) <= ms.sites


def test_a_seed_fixes_the_mutants() -> None:
    text = (ROOT / "tasks" / "fifo" / "ref.sysr").read_text()
    a, b = mutate_sysr.mutants(text, 12, seed=3), mutate_sysr.mutants(text, 12, seed=3)
    assert [m.text for m in a.mutants] == [m.text for m in b.mutants]
    assert [m.diff for m in a.mutants] == [m.diff for m in b.mutants]
    c = mutate_sysr.mutants(text, 12, seed=4)
    assert [m.text for m in c.mutants] != [m.text for m in a.mutants]
    # the first mutants spread over the operators instead of following the most common one
    assert len({m.operator for m in a.mutants}) >= 8


def test_order_is_a_round_robin_over_operators() -> None:
    from bench.mutation.sites import Site

    sites = [Site(op, i, f"{op}{i}", lambda: "") for op in ("a", "b") for i in range(3)] + [Site("c", 0, "c0", lambda: "")]
    got = [s.operator for s in ordered(sites, 5)]
    assert sorted(got[:3]) == ["a", "b", "c"] and sorted(got[3:5]) == ["a", "b"]


def test_diffs_show_only_the_change() -> None:
    ms = mutate_sysr.mutants((ROOT / "tasks" / "traffic" / "ref.sysr").read_text(), 20, seed=1)
    for m in ms.mutants:
        assert m.diff.startswith("--- design.sysr (original)\n+++ design.sysr (mutant)\n")
        assert 1 <= m.diff.count("\n@@ ") <= 2, m.diff  # one change (two places for a swap)
        lines = m.diff.splitlines()[2:]
        assert {l[1:] for l in lines if l.startswith("-")} <= set(ms.original.splitlines())
        assert {l[1:] for l in lines if l.startswith("+")} <= set(m.text.splitlines())


# ---- Verilog ---------------------------------------------------------------------------------

VERILOG = """\
module m (
  input wire clk, input wire rst, input wire [7:0] a, input wire go,
  output wire [7:0] y, output reg [3:0] r, output reg done
);
  localparam LIMIT = 8'd200;
  reg [7:0] cnt;
  reg [7:0] last;
  assign y = go ? a & 8'h0f : a;
  always @(posedge clk) begin
    if (rst) begin
      cnt <= 8'd0;
      r <= 4'd3;
      done <= 1'b0;
      last <= 8'd0;
    end else begin
      if (go) cnt <= cnt + 8'd1;
      else if (a == 8'd0) cnt <= 8'd0;
      case (r)
        4'd0: r <= 4'd1;
        4'd1: r <= a[7:4];
        default: r <= 4'd0;
      endcase
      last <= a;
      done <= cnt <= LIMIT;
      if (a[0]) done <= 1'b1;
    end
  end
endmodule
"""


def _v_mutant(operator: str, what: str) -> str:
    hits = [s for s in mutate_verilog.sites(VERILOG) if s.operator == operator and what in s.what]
    assert hits, (operator, what, sorted({s.what for s in mutate_verilog.sites(VERILOG) if s.operator == operator}))
    return hits[0].make()


@pytest.mark.parametrize("operator, what, expect", [
    ("operator", "`&` -> `|`", "assign y = go ? a | 8'h0f : a;"),
    ("comparison", "`<=` -> `<`", "done <= cnt < LIMIT;"),      # the comparison, not the assignment
    ("comparison", "`==` -> `!=`", "else if (a != 8'd0)"),
    ("constant", "`8'h0f` -> `8'h10`", "a & 8'h10"),
    ("constant", "`8'd200` -> `8'd201`", "localparam LIMIT = 8'd201;"),
    ("negate", "condition `go` negated", "assign y = !(go) ? a"),
    ("negate", "condition `a[0]` negated", "if (!(a[0])) done"),
    ("swap-branches", "branches of `go ? ...`", "assign y = go ? a : a & 8'h0f;"),
    ("swap-conditions", "`if (go)` and `else if (a == 8'd0)`", "if (a == 8'd0) cnt <= 8'd0;\n      else if (go) cnt <= cnt + 8'd1;"),
    ("swap-arms", "`4'd0` and `4'd1`", "4'd0: r <= a[7:4];\n        4'd1: r <= 4'd1;"),
    ("drop-assign", "`last <= a;` dropped", "endcase\n      \n      done <= cnt <= LIMIT;"),
    ("drop-assign", "`cnt <= cnt + 8'd1;` dropped", "if (go) ;"),
    ("dup-assign", "`done <= cnt <= LIMIT;` repeated after the next statement",
     "if (a[0]) done <= 1'b1;\n      done <= cnt <= LIMIT;"),
    ("dup-assign", "`done <= 1'b1;` repeated after its enclosing `if`", "if (a[0]) done <= 1'b1;\n      done <= 1'b1;"),
    ("index", "`[7:4]` -> `[6:3]`", "4'd1: r <= a[6:3];"),
    ("index", "`[0]` -> `[1]`", "if (a[1]) done"),
    ("reset", "`4'd3` -> `4'd4`", "r <= 4'd4;"),
    ("late", "`y` registered", "reg [7:0] y_late;\n  assign y = y_late;\n  always @(posedge clk) if (rst) y_late <= 0; "
                               "else y_late <= go ? a & 8'h0f : a;"),
    ("early", "`last` combinational", "reg [7:0] cnt;\n  wire [7:0] last;"),
])
def test_each_verilog_operator_makes_its_change(operator: str, what: str, expect: str) -> None:
    mutant = _v_mutant(operator, what)
    assert expect in mutant, mutant


def _reset_branch(text: str) -> str:
    return text.split("if (rst) begin")[1].split("end else begin")[0]


def test_verilog_reset_branch_is_only_given_other_reset_values() -> None:
    sites = mutate_verilog.sites(VERILOG)
    assert sum(s.operator == "reset" for s in sites) == 5  # 4'd3 up and down, the zeros up
    for s in sites:
        changed = _reset_branch(s.make()) != _reset_branch(VERILOG)
        assert changed == (s.operator in ("reset", "early")), (s.operator, s.what)
    early = _v_mutant("early", "`last` combinational")
    assert "last <= 8'd0;" not in early and "assign last = a;" in early


def test_verilog_comments_survive_and_the_stream_is_seeded() -> None:
    text = (ROOT / "tasks" / "fifo" / "ref.v").read_text()
    a, n = mutate_verilog.mutant_stream(text, 2)
    first = [c.text for _, c in zip(range(10), a)]
    again = [c.text for _, c in zip(range(10), mutate_verilog.mutant_stream(text, 2)[0])]
    assert first == again and n > 30
    assert all("// next slot to write" in t for t in first)


def test_verilog_tokens_and_outline() -> None:
    from bench.verilog.parse import outline, significant

    toks = [(t.kind, t.text) for t in significant("always @(*) x <= a<=8'hF0 ? 4'b1010 : {2{b}};")]
    assert ("based", "8'hF0") in toks and ("based", "4'b1010") in toks
    assert [t for k, t in toks if k == "op"][:4] == ["@", "(", "*", ")"]  # `(*` here is no attribute
    assert toks.count(("op", "<=")) == 2
    o = outline("module m(input a, output y); wire w = a, v = !a; assign y = w;\n"
                "always @(posedge clk) begin if (rst) q <= 0; else case (s) 1, 2: q <= 1; default: ; endcase end\n"
                "endmodule\n")
    assert len(o.assigns) == 3 and [a.net for a in o.assigns] == [True, True, False]
    (alw,) = o.always
    assert alw.clock == "clk" and alw.body.kind == "block"
    (first,) = alw.body.children
    assert first.kind == "if" and [c.kind for c in first.children] == ["assign", "case"]
    case = first.children[1]
    assert case.labels[1] is None and [c.kind for c in case.children] == ["assign", "null"]


def test_verilog_loop_steps_are_left_alone() -> None:
    text = ("module m(input [3:0] a, output reg [2:0] n);\n  integer i;\n"
            "  always @* begin n = 0; for (i = 0; i < 4; i = i + 1) if (a[i]) n = n + 1; end\nendmodule\n")
    whats = {s.what for s in mutate_verilog.sites(text) if "for" not in s.what}
    assert "`<` -> `<=`" in whats and "`4` -> `5`" in whats  # the bound
    heads = [s.make().split("for (")[1].split(")")[0] for s in mutate_verilog.sites(text)]
    assert all(h.endswith("i = i + 1") for h in heads)
