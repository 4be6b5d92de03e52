"""Wide buses (up to 4,096 bits) and loops in fns (§4.6), through every back end.

The designs of tests/lower written for them (a CRC-16 and a Gray decoder written as loops in
fns, a 256-to-1 multiplexer of a 1,024-bit bus, rule 90 and rule 110 on 512 cells) are proven
by tests/test_verify.py's machinery here, lowered to their expected files by tests/test_lower.py
and confirmed by yosys-smtbmc in tests/test_formal.py. Here each one is also simulated: by the
evaluator in `sysr sim` with every property checked every cycle, by Icarus on the lowered
Verilog and by Amaranth's simulator, both compared with the evaluator cycle by cycle. The unit
tests below pin down what the fn unrolling promises: the value of a known CRC, a body written
with `if`s and bit writes equal to the same computation written as expressions, a design at
the new width limit, and the unrolled chain's names in the lowered Verilog.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import amaranth_sim
from diff_prepare import prepare
from gen_designs import Generated
from icarus_harness import lower_case, needs_icarus, simulate as icarus_simulate, compare
from sysr.lower import lower_text
from sysr.pipeline import Options, analyze, check
from sysr.sim import SimOptions, simulate
from z3_harness import z3_disagreements

LOWER = Path(__file__).parent / "lower"
DESIGNS = {name: (LOWER / f"{name}.sysr").read_text() for name in ("crc16", "gray", "mux1024", "rule90", "rule110")}
CYCLES = 12


def accepted(text: str) -> list[str]:
    out = check(text, Options())
    return [f"{d.code} {d.message}" for d in out.diagnostics if d.severity.name == "ERROR"]


@pytest.mark.parametrize("name", ["crc16", "gray", "mux1024", "rule90"])
def test_proven(name: str) -> None:
    assert accepted(DESIGNS[name]) == []


@pytest.mark.parametrize("name", list(DESIGNS))
def test_random_simulation_keeps_every_property(name: str) -> None:
    r = simulate(DESIGNS[name], SimOptions(cycles=60, seed=3))
    assert not r.diagnostics
    assert r.failure is None, (r.failure.kind, r.failure.cycle)


@needs_icarus
@pytest.mark.parametrize("name", list(DESIGNS))
def test_icarus_agrees_with_the_evaluator(name: str) -> None:
    prep = prepare(Generated(DESIGNS[name], name), 7, CYCLES)
    case = lower_case(prep, 0, None)
    assert compare(case, icarus_simulate([case], CYCLES)) == []


@pytest.mark.parametrize("reset", ["domain", "port"])
@pytest.mark.parametrize("name", list(DESIGNS))
def test_amaranth_agrees_with_the_evaluator(name: str, reset: str) -> None:
    prep = prepare(Generated(DESIGNS[name], name), 7, CYCLES)
    case = amaranth_sim.make_case(prep, 0, reset)
    assert amaranth_sim.disagreements(case, amaranth_sim.simulate([case], CYCLES)) == []


@pytest.mark.parametrize("name", ["crc16", "gray", "mux1024"])  # (512-bit rules: minutes in this harness)
def test_z3_encoding_agrees_with_the_evaluator(name: str) -> None:
    assert z3_disagreements(prepare(Generated(DESIGNS[name], name), 7, CYCLES)) == []


# ---- fn loops --------------------------------------------------------------------------

CRC = DESIGNS["crc16"].split("module crc16")[0]


def test_a_crc_loop_computes_the_standard_check_value() -> None:
    """CRC-16/CCITT-FALSE of "123456789" is 0x29b1: proven as a property over constants, and a
    wrong expected value is refuted."""
    good = CRC + "module m(a: in bool, y: out bool) { y = a; ensures crc16_9(0x313233343536373839) == 0x29b1; }\n"
    bad = good.replace("0x29b1", "0x29b2")
    assert accepted(good) == []
    assert [line.split()[0] for line in accepted(bad)] == ["V002"]


STATEMENTS = """
fn f(x: u8, s: s6) -> u8 {
  let mut y: u8 = x;
  let mut t: s6 = s;
  for i in 0..4 {
    if x[i] {
      y[7 - (i as u3)] = !y[i];
      t[3:2] = (i as u2);
    } else if s < 0 {
      y = y + (i as u8);
    } else {
      let k = i + 1;
      y[k] = true;
    }
  }
  y ^ (t as u8)
}
"""
EXPRESSIONS = """
fn step(y: u8, t: s6, x: u8, s: s6, i: u2) -> u14 {
  let y1 = if x[i] then (y & ~(1u8 << (7 - i as u3))) | ((if y[i] then 0u8 else 1u8) << (7 - i as u3))
           else if s < 0 then y + (i as u8)
           else y | (1u8 << ((i + 1) as u3));
  let t1 = if x[i] then (t & ~(0b1100s6)) | ((i as s6) << 2) else t;
  {y1, t1 as u6}
}
fn g(x: u8, s: s6) -> u8 {
  let r0 = step(x, s, x, s, 0);
  let r1 = step(r0[13:6], r0[5:0] as s6, x, s, 1);
  let r2 = step(r1[13:6], r1[5:0] as s6, x, s, 2);
  let r3 = step(r2[13:6], r2[5:0] as s6, x, s, 3);
  r3[13:6] ^ ((r3[5:0] as s6) as u8)
}
"""


def test_a_body_of_statements_means_the_same_as_its_expressions() -> None:
    """Writes of bits and slices under `if`/`else if`/`else` in a loop, a `let` in a branch, a
    signed variable: proven equal, for every input, to the same steps written as expressions."""
    text = STATEMENTS + EXPRESSIONS + "module m(x: in u8, s: in s6, y: out u8) { y = f(x, s); ensures y == g(x, s); }\n"
    assert accepted(text) == []
    wrong = text.replace("y = y + (i as u8);", "y = y + (i as u8) + 1;")
    assert [line.split()[0] for line in accepted(wrong)] == ["V002"]


def test_the_lowered_chain_names_each_step_after_its_variable() -> None:
    code, diags = lower_text(DESIGNS["gray"], "gray.sysr")
    assert code is not None, diags
    assert "wire [15:0] gray_to_bin_b = {g[15], 15'd0};" in code
    assert "wire [15:0] gray_to_bin_b_1 = {gray_to_bin_b[15], gray_to_bin_b[15] ^ g[14], gray_to_bin_b[13:0]};" in code
    assert "#" not in code


def test_the_printer_keeps_the_written_statements() -> None:
    from sysr.front.parse import parse
    from sysr.front.printer import print_file
    text = CRC + "module m(a: in u8, y: out u16) { y = crc16_byte(0, a); }\n"
    printed = print_file(parse(text)[0])
    assert "let mut crc = crc_in;" in printed and "for i in 0..8 {" in printed
    assert analyze(printed).accepted


# ---- wide buses ------------------------------------------------------------------------

def test_the_widest_type_is_4096_bits() -> None:
    ok = "module m(a: in u4096, b: in s4096, y: out u4096, z: out bool) {\n" \
         "  y = a ^ (b as u4096);  z = {a, b}[8191];\n  ensures y[4095] == (a[4095] ^ b[4095]);\n}\n"
    assert accepted(ok.replace("z = {a, b}[8191];", "z = b < 0;")) == []
    codes = [line.split()[0] for line in accepted(ok)]
    assert codes == ["T011"]  # the concatenation is 8,192 bits
    assert [line.split()[0] for line in accepted("module m(a: in u4097, y: out bool) { y = a[0]; }\n")] == ["T011"]


def test_a_literal_of_the_widest_type_in_binary_is_read() -> None:
    ones = "0b" + "1" * 4096
    text = f"module m(a: in u4096, y: out bool) {{ y = a == {ones}; ensures y == and_reduce(a); }}\n"
    assert accepted(text) == []


# ---- fn bodies against comb blocks --------------------------------------------------------

def fn_and_comb(seed: int) -> str:
    """A random fn of statements (tests/gen_designs.py) and the same statements in a `comb`
    block, each `let mut` a wire: two independent elaborations of one meaning (the fn is
    unrolled by the checker into a chain of `let`s, the block by the statement elaborator), and
    a property that they agree."""
    from gen_base import RandomChooser, Scope, Val
    from gen_designs import DesignGen
    g = DesignGen(RandomChooser(seed))
    items = [g.enum_decl()]
    consts_text, consts = g.const_decls(g.ch.int(0, 2))
    params = [(g.fresh("p"), g.any_type(wide=False)) for _ in range(g.ch.int(1, 3))]
    sc = Scope(vals=tuple(consts) + tuple(Val(p, t) for p, t in params), match=True)
    lines, sc = g.fn_statements([], sc)
    ret = g.any_type(wide=False)
    body = g.expr(ret, g.depth, sc)
    sig = ", ".join(f"{p}: {g.type_name(t)}" for p, t in params)
    items += consts_text + [f"fn f({sig}) -> {g.type_name(ret)} {{\n  " + "\n  ".join(lines) + f"\n  {body}\n}}"]
    wires, comb = [], []
    for line in lines:
        if line.startswith("let mut "):
            name, rest = line[len("let mut "):].split(":", 1)
            ty, value = rest.split(" = ", 1)
            wires.append(f"  wire {name}:{ty};")
            comb.append(f"{name} = {value}")
        else:
            comb.append(line)
    ports = ", ".join(f"{p}: in {g.type_name(t)}" for p, t in params)
    args = ", ".join(p for p, _ in params)
    items.append(f"module m({ports}, y: out {g.type_name(ret)}, z: out {g.type_name(ret)}) {{\n" + "\n".join(wires)
                 + "\n  comb {\n    " + "\n    ".join(comb) + f"\n    z = {body};\n  }}\n  y = f({args});\n"
                 "  ensures y == z;\n}")
    return "\n".join(items) + "\n"


@pytest.mark.parametrize("seed", range(60))
def test_a_random_fn_body_means_what_the_same_comb_block_means(seed: int) -> None:
    text = fn_and_comb(seed)
    out = check(text, Options())
    errors = [f"{d.code} {d.message}" for d in out.diagnostics if d.severity.name == "ERROR"]
    assert errors == [], text


# ---- the editor ----------------------------------------------------------------------------

def test_hover_and_definition_inside_a_fn_loop() -> None:
    """The language server reads the fn as written: its variables, loop variable and `let`s."""
    from sysr.lsp.symbols import symbol_at
    text = CRC + "module m(a: in u8, y: out u16) { y = crc16_byte(0, a); }\n"
    lines = text.splitlines()

    def at(needle: str, nth: int = 0) -> tuple[int, int]:
        hits = [(n + 1, line.index(needle) + 1) for n, line in enumerate(lines) if needle in line]
        return hits[nth]
    d = analyze(text).design
    crc = symbol_at(d, *at("crc = crc << 1"))
    assert crc is not None and "`crc`: `u16`" in crc.text
    assert (crc.definition.line, crc.definition.column) == (at("let mut crc")[0], at("let mut crc")[1] + 8)
    i = symbol_at(d, *at("data[7 - i]", 0))
    loop_var = symbol_at(d, at("data[7 - i]")[0], lines[at("data[7 - i]")[0] - 1].index("- i") + 3)
    assert i is not None and loop_var is not None and "loop variable `i`: `u3`" in loop_var.text


FIELDS = """enum Op { Add, Sub, Nop }
struct I { op: Op, v: u4 }
struct W { i: I, ok: bool }
fn f(x: u4) -> W {
  let mut w: W = W { i: I { op: Op::Nop, v: 0 }, ok: false };
  w.i.v = x;
  if x > 3 { w.i.op = Op::Sub; }
  w.ok = true;
  w
}
module m(x: in u4, y: out W) {
  y = f(x);
  ensures y.i.v == x && y.ok && (x > 3 ==> y.i.op == Op::Sub) && (x <= 3 ==> y.i.op == Op::Nop);
}
"""


def test_a_fn_assigns_fields_of_its_struct_variables() -> None:
    assert accepted(FIELDS) == []
    assert [line.split()[0] for line in accepted(FIELDS.replace("if x > 3", "if x > 4"))] == ["V002"]
    code, diags = lower_text(FIELDS, "fields.sysr")
    assert code is not None, diags
    assert "wire [6:0] f_w = {2'd2, x, 1'b0};" in code  # `w.i.v = x`: bits 4..1 of `w`, op and ok constant
    assert "wire [6:0] f_w_1 = f_if ? {2'd1, f_w[4:0]} : f_w;" in code  # `w.i.op = Op::Sub` under the `if`
    prep = prepare(Generated(FIELDS, "m"), 7, CYCLES)
    case = lower_case(prep, 0, None)
    assert compare(case, icarus_simulate([case], CYCLES)) == []


STRUCT_LET = """
struct P { d: u8, n: s12, ok: bool }
fn f(a: bool, b: u8) -> u8 {
  let mut acc: u8 = 0;
  if a { let t: P = P { d: b, n: 5, ok: true }; acc = t.d + 1; }
  acc
}
module m(a: in bool, b: in u8, y: out u8) {
  y = f(a, b);
  ensures a ==> y == b + 1;
  ensures !a ==> y == 0;
}
"""


def test_a_struct_let_inside_an_if_of_a_fn() -> None:
    """A `let` of a struct type in a branch of a fn's `if` (the unrolled chain computes it under
    the branch's condition, zero bits otherwise): checked, proven and lowered (it once stopped
    the elaboration: the zero was a bare literal, no struct)."""
    assert accepted(STRUCT_LET) == []
    code, diags = lower_text(STRUCT_LET, "let.sysr")
    assert code is not None and "a ? {b, 12'd5, 1'b1} : 21'd0" in code, diags
