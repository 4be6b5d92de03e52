"""Shift-and-add products (sysr.smt.products): a chain of steps is given to the solver as `x * y`
only when every step is what it must be; anything else stays the chain it is."""

from __future__ import annotations

from pathlib import Path

import z3

from sysr.elab import elaborate
from sysr.pipeline import Options, analyze, check
from sysr.smt import products
from sysr.smt.encode import CycleEncoder, make_vars

SIGNED = """
module smul(a: in s8, b: in s8, p: out s16) {
  comb {
    p = 0;
    for i in 0..7 { if b[i] { p = p + ((a as s16) << i); } }
    if b[7] { p = p - ((a as s16) << 7); }
  }
}
"""


def encoded(text: str, signal: str):
    system = elaborate(analyze(text).design)
    ctx = z3.Context()
    enc = CycleEncoder(system, make_vars(system, "c0_", ctx), ctx)
    return enc.enc(system.comb[signal]), ctx


def test_a_signed_chain_becomes_the_product() -> None:
    term, ctx = encoded(SIGNED, "p")
    a, b = z3.BitVec("a@c0_", 8, ctx), z3.BitVec("b@c0_", 8, ctx)
    assert term.eq(z3.SignExt(8, a) * z3.SignExt(8, b))


def test_an_unsigned_chain_of_conditional_terms_becomes_the_product() -> None:
    text = """
module umul(x: in u6, y: in u6, p: out u12) {
  comb { p = 0; for i in 0..6 { p = p + (if y[i] then (x as u12) << i else 0); } }
}
"""
    term, ctx = encoded(text, "p")
    x, y = z3.BitVec("x@c0_", 6, ctx), z3.BitVec("y@c0_", 6, ctx)
    assert term.eq(z3.ZeroExt(6, x) * z3.ZeroExt(6, y))


def test_a_partial_chain_is_the_product_of_the_low_bits() -> None:
    text = """
module part(x: in u8, y: in u8, p: out u16) {
  comb { p = 0; for i in 0..4 { if y[i] { p = p + ((x as u16) << i); } } }
}
"""
    term, ctx = encoded(text, "p")
    x, y = z3.BitVec("x@c0_", 8, ctx), z3.BitVec("y@c0_", 8, ctx)
    assert term.eq(z3.ZeroExt(8, x) * z3.ZeroExt(12, z3.Extract(3, 0, y)))


def test_chains_that_are_not_products_stay_chains() -> None:
    # no step is a product step: nothing is replaced
    for text in [SIGNED.replace("p = 0;", "p = 1;"),                    # not from zero
                 SIGNED.replace("((a as s16) << i)", "((a as s16) << i) + 1")]:
        term, _ = encoded(text, "p")
        assert not any(z3.is_app_of(t, z3.Z3_OP_BMUL) for t in _subterms(term)), text
    # bits out of order: no product of `b` (at most one of a single bit of `b >> 1`, which is one)
    term, _ = encoded(SIGNED.replace("if b[i]", "if b[(i as u3) ^ 1]"), "p")
    assert not z3.is_app_of(term, z3.Z3_OP_BMUL)
    # a wrong last step: the steps before it are the product of bits 0..6, the last stays a step
    term, ctx = encoded(SIGNED.replace("<< 7", "<< 6"), "p")
    a, b = z3.BitVec("a@c0_", 8, ctx), z3.BitVec("b@c0_", 8, ctx)
    assert z3.is_app_of(term, z3.Z3_OP_ITE)
    assert term.arg(2).eq(z3.SignExt(8, a) * z3.ZeroExt(9, z3.Extract(6, 0, b)))


def test_each_step_lemma_is_proven_once() -> None:
    products._proven.clear()
    encoded(SIGNED, "p")
    assert sorted(products._proven) == [(16, k, k == 7, 8) for k in range(8)]
    assert all(products._proven.values())


def _subterms(t):
    seen, todo = set(), [t]
    while todo:
        u = todo.pop()
        if u.get_id() in seen:
            continue
        seen.add(u.get_id())
        yield u
        todo.extend(u.children())


def test_the_encoded_value_is_the_evaluators_on_every_input() -> None:
    """Whatever was replaced, the term means what the design computes (sysr.evaluate)."""
    from sysr.evaluate import Evaluator
    designs = [SIGNED, SIGNED.replace("<< 7", "<< 6"), SIGNED.replace("if b[i]", "if b[(i as u3) ^ 1]"),
               SIGNED.replace("p = p - ", "p = p + ")]
    for text in designs:
        system = elaborate(analyze(text).design)
        ev = Evaluator(system)
        ctx = z3.Context()
        variables = make_vars(system, "c0_", ctx)
        term = CycleEncoder(system, variables, ctx).enc(system.comb["p"])
        for a in range(0, 256, 7):
            for b in range(0, 256, 11):
                got = z3.simplify(z3.substitute(term, (variables["a"], z3.BitVecVal(a, 8, ctx)),
                                                (variables["b"], z3.BitVecVal(b, 8, ctx))))
                assert got.as_long() == ev.eval(system.comb["p"], {"a": a, "b": b}, {}), (text, a, b)


def test_a_16x16_multiplier_and_the_pipelined_mac_are_proven() -> None:
    """As one query z3 gives up on the 16x16 product at the default 30 s; step by step it is
    proven at once (benchmarks/mac_bench.py times both designs)."""
    smul16 = SIGNED.replace("s8", "s16").replace("s16)", "s32)").replace("p: out s16", "p: out s32")
    smul16 = smul16.replace("0..7", "0..15").replace("b[7]", "b[15]").replace("<< 7", "<< 15")
    smul16 = smul16.replace("  }\n}", "  }\n  ensures p == (a as s32) * (b as s32);\n}")
    assert "(a as s32) << 15" in smul16 and "ensures" in smul16
    out = check(smul16, Options(time_limit=60))
    assert out.accepted and [p["status"] for p in out.properties] == ["proven"]
    mac = Path(__file__).resolve().parent.parent / "benchmarks" / "mac_pipe.sysr"
    out = check(mac.read_text(), Options(time_limit=60))
    assert out.accepted and {p["status"] for p in out.properties} == {"proven"}


def test_a_multiplication_the_solver_gives_up_on_is_named_with_the_ways_through() -> None:
    horner = """
module m(a: in u12, b: in u12, p: out u24) {
  comb {
    p = 0;
    for i in 0..12 { p = (p << 1) + (if b[11 - (i as u4)] then a as u24 else 0); }
  }
  ensures p == (a as u24) * (b as u24);
}
"""
    out = check(horner, Options(timeout=1))
    [d] = out.diagnostics
    assert d.code == "V003"
    assert d.notes[0].startswith("it involves a 24-bit multiplication")
    assert "for i in 0..N { if b[i] { p = p + (a << i); } }" in d.notes[0] and "§7.7" in d.notes[0]
    assert d.notes[1] == "raise --timeout (now 1 s), or split the property"
    # no note where nothing multiplies, or only narrow values (or by a constant)
    narrow = """
module n(clk: clock, rst: reset, a: in u4, b: in u4, y: out reg u7 = 0) {
  seq { y <= (a as u7) * (b as u7) + (a as u7) * 3; }
  ensures y == y;
}
"""
    system = elaborate(analyze(narrow).design)
    assert products.multiplication_note(system, system.props[0].expr) is None
    system = elaborate(analyze(narrow.replace("u4", "u8").replace("u7", "u16")).design)
    assert "16-bit multiplication" in products.multiplication_note(system, system.props[0].expr)
