"""The word-level first attempt at queries with division (`sysr.smt.words`).

- The rewrite it rests on, `a % b == a - (a / b) * b` for SMT-LIB's unsigned and signed
  remainders, holds for every value at small widths, zero divisors and `MIN % -1` included.
- It refutes the query of a property stated over guarded copies of `/` and `%` at 64 bits, and
  concludes nothing from a false one or from a query it cannot simplify away.
- In the checker: that property is proven without any property query reaching z3's bit-level
  solver, and a false variant is still refuted with a trace.
"""

from __future__ import annotations

import itertools

import pytest
import z3

from sysr.pipeline import Options, check
from sysr.smt import words

GUARDED = """module gdiv(a: in u{w}, b: in u{w}, q: out u{w}, r: out u{w}) {{
  q = if b != 0 then a / b else 0;
  r = if b != 0 then a % b else a;
  ensures b != 0 ==> q * b + {rhs};
}}
"""


@pytest.mark.parametrize("width", [1, 2, 3, 4])
def test_the_rewrite_is_an_identity_for_every_value(width: int) -> None:
    ctx = z3.Context()
    for x, y in itertools.product(range(1 << width), repeat=2):
        a, b = z3.BitVecVal(x, width, ctx), z3.BitVecVal(y, width, ctx)
        for rem in (z3.URem(a, b), z3.SRem(a, b)):
            (new,) = words.rewritten([rem == rem])
            assert z3.is_true(z3.simplify(new)), (width, x, y, rem)
            assert z3.simplify(rem).as_long() == z3.simplify(words.rewritten([rem])[0]).as_long()


def test_the_rewrite_is_an_identity_at_8_bits() -> None:
    ctx = z3.Context()
    a, b = z3.BitVec("a", 8, ctx), z3.BitVec("b", 8, ctx)
    for rem in (z3.URem(a, b), z3.SRem(a, b)):
        (new,) = words.rewritten([rem])
        s = z3.Solver(ctx=ctx)
        s.add(rem != new)
        assert s.check() == z3.unsat
    assert len(words.remainders([z3.URem(a, b) + z3.URem(a, b) * z3.SRem(b, a)])) == 2


def guarded_query(width: int, holds: bool):
    ctx = z3.Context()
    a, b = z3.BitVec("a", width, ctx), z3.BitVec("b", width, ctx)
    q = z3.If(b != 0, z3.UDiv(a, b), 0)
    r = z3.If(b != 0, z3.URem(a, b), a)
    prop = z3.Implies(b != 0, q * b + r == (a if holds else a + 1))
    return [z3.Not(prop)], ctx


def test_the_guarded_division_is_refuted_at_64_bits_and_a_false_one_is_not() -> None:
    terms, ctx = guarded_query(64, holds=True)
    assert words.refuted(terms, ctx, 5.0)
    terms, ctx = guarded_query(64, holds=False)
    assert not words.refuted(terms, ctx, 5.0)
    ctx = z3.Context()
    a, b = z3.BitVec("a", 8, ctx), z3.BitVec("b", 8, ctx)
    assert not words.refuted([z3.ULT(z3.URem(a, b), b), b != 0], ctx, 5.0)  # true, but not algebra


def counting_checks(monkeypatch) -> list:
    """The queries that reach z3's own solver (not the word-level attempt)."""
    calls: list = []
    real = z3.Solver.check

    def check_(self, *assumptions):
        calls.append(assumptions)
        return real(self, *assumptions)

    monkeypatch.setattr(z3.Solver, "check", check_)
    return calls


def test_the_checker_proves_the_guarded_division_without_bit_blasting(monkeypatch) -> None:
    calls = counting_checks(monkeypatch)
    out = check(GUARDED.format(w=64, rhs="r == a"), Options())
    assert out.accepted, [d.message for d in out.diagnostics]
    assert [(p["kind"], p["status"]) for p in out.properties] == [
        ("ensures", "proven"), ("divisor", "proven"), ("divisor", "proven")]
    assert [c for c in calls if not c] == []  # every property query settled at the word level


def test_a_false_guarded_division_is_still_refuted() -> None:
    out = check(GUARDED.format(w=16, rhs="r == a + 1"), Options())
    assert [d.code for d in out.diagnostics] == ["V002"]
    assert out.diagnostics[0].trace is not None


def test_a_design_without_division_does_not_try_the_word_level(monkeypatch) -> None:
    tried: list = []
    monkeypatch.setattr(words, "refuted", lambda *a: tried.append(a) or False)
    out = check("module m(a: in u8, y: out u8) {\n  y = a + 1;\n  ensures y != a;\n}\n", Options())
    assert out.accepted and tried == []
    out = check(GUARDED.format(w=8, rhs="r == a"), Options())
    assert out.accepted and tried  # ... and one that divides does


def test_many_terms_are_rewritten_each_as_z3_substitute_would() -> None:
    """The pairs are handed to z3 once for all the terms (a query of many assertions and many
    remainders, such as a loop over the cells of a grid, spent most of its time converting them
    again for each term): every term comes out as `z3.substitute` with the same pairs makes it,
    with its type (a bit-vector stays one), and a term without a remainder comes out unchanged."""
    ctx = z3.Context()
    xs = [z3.BitVec(f"x{i}", 9, ctx) for i in range(12)]
    terms = [z3.URem(x + i, 16) * 16 + z3.SRem(x, 7) == i for i, x in enumerate(xs)]
    terms += [xs[0] + xs[1] == 3, z3.URem(xs[2], xs[3])]
    pairs = [(r, r.arg(0) - (z3.UDiv(r.arg(0), r.arg(1)) if r.decl().kind() == z3.Z3_OP_BUREM
                             else r.arg(0) / r.arg(1)) * r.arg(1)) for r in words.remainders(terms)]
    got = words.rewritten(terms)
    assert len(pairs) == 12 * 2 + 1 and len(got) == len(terms)
    assert all(g.eq(z3.substitute(t, *pairs)) for g, t in zip(got, terms))
    assert got[-2].eq(terms[-2]) and isinstance(got[-1], z3.BitVecRef) and not got[-1].eq(terms[-1])
