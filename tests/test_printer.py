"""The sysr printer (sysr/front/printer.py): printed text re-parses to the same tree.

Mutants are written with it (bench/mutation/mutate_sysr.py), so a printing slip would make a mutant
mean something other than the mutation recorded for it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sysr.front import syntax as S
from sysr.front.parse import parse
from sysr.front.printer import PrintError, expr, print_file, same_tree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

CORPUS = sorted({*ROOT.glob("tasks/*/*.sysr"), *ROOT.glob("examples/*.sysr"), *ROOT.glob("tests/seeded/*.sysr"),
                 *ROOT.glob("tests/cases/good/*.sysr"), *ROOT.glob("tests/lower/*.sysr"),
                 *ROOT.glob("tests/verify/*.sysr")})


def _round_trip(text: str) -> None:
    tree, diags = parse(text)
    assert tree is not None, diags
    printed = print_file(tree)
    again, diags = parse(printed)
    assert again is not None, (diags, printed)
    assert same_tree(tree, again), printed
    assert print_file(again) == printed  # printing is stable


@pytest.mark.parametrize("path", CORPUS, ids=[str(p.relative_to(ROOT)) for p in CORPUS])
def test_every_design_round_trips(path: Path) -> None:
    _round_trip(path.read_text())


def test_generated_designs_round_trip() -> None:
    from gen_designs import design_from_seed

    for seed in range(60):
        _round_trip(design_from_seed(seed).text)


def _e(text: str) -> S.Expr:
    tree, diags = parse(f"module m(a: in u8, y: out u8) {{ y = {text}; }}")
    assert tree is not None, diags
    return tree.items[0].items[0].value


@pytest.mark.parametrize("text, printed", [
    ("a - (b - c)", "a - (b - c)"),           # left-associative: the right operand keeps its parentheses
    ("(a - b) - c", "a - b - c"),
    ("(a & m) == 0", "a & m == 0"),           # Rust's precedence, not Verilog's
    ("a & (m == 0)", "a & (m == 0)"),
    ("(a == b) == c", "(a == b) == c"),       # comparisons do not chain
    ("-(x as u16)", "-(x as u16)"),
    ("(-x) as u16", "-x as u16"),
    ("(a + b)[8:1]", "(a + b)[8:1]"),
    ("a + (if c then 1 else 2)", "a + (if c then 1 else 2)"),
    ("p ==> (q ==> r)", "p ==> q ==> r"),
    ("(p ==> q) ==> r", "(p ==> q) ==> r"),
    ("ok && (forall i: u3 :: v[i])", "ok && (forall i: u3 :: v[i])"),
    ("p ==> (forall i: u3 :: v[i])", "p ==> forall i: u3 :: v[i]"),
    ("if (if a then b else c) then d else if e then f else g", "if (if a then b else c) then d else if e then f else g"),
    ("!(a == b)", "!(a == b)"),
    ("0xffu8 + 0b1010", "0xffu8 + 0b1010"),   # literals keep how they were written
])
def test_parentheses_only_where_needed(text: str, printed: str) -> None:
    assert expr(_e(text)) == printed


def test_long_match_expression_one_arm_a_line_inside_a_block() -> None:
    arms = ", ".join(f"{i} => {i * 3}" for i in range(16))
    text = f"module m(a: in u4, y: out u8) {{ comb {{ y = match a {{ {arms} }}; }} }}"
    printed = print_file(parse(text)[0])
    assert "    y = match a {\n      0 => 0,\n" in printed
    _round_trip(text)


def test_an_unknown_node_is_an_error_not_text() -> None:
    class Future:  # a construct added to the language after the printer
        span = S.Span.unknown()

    with pytest.raises(PrintError, match="Future"):
        expr(Future())
    with pytest.raises(PrintError, match="'\\*\\*'"):
        expr(S.Binary("**", _e("a"), _e("a"), S.Span.unknown()))
    tree = parse("module m(a: in u8, y: out u8) { y = a; }")[0]
    port = tree.items[0].ports[0]
    odd = S.Module("m", (S.Port("a", "inout", None, None, port.span, port.span),), (), port.span, port.span)
    with pytest.raises(PrintError, match="'inout'"):
        print_file(S.SourceFile((odd,)))


def test_same_tree_sees_a_changed_literal() -> None:
    a = parse("module m(a: in u8, y: out u8) { y = a + 1; }")[0]
    b = parse("module m(a: in u8, y: out u8) {\n  y = a + 2;\n}")[0]
    c = parse("module m(a: in u8, y: out u8) {\n  y = a + 1;   // the same\n}")[0]
    assert not same_tree(a, b)
    assert same_tree(a, c)
