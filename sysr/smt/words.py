"""A word-level first attempt at a query with division: rewrite the remainders, simplify, and see
whether the query falls apart before anything is bit-blasted.

z3 bit-blasts `/` and `%` into large circuits, and a property such as
`q = if b != 0 then a / b else 0; r = if b != 0 then a % b else a; ensures b != 0 ==> q * b + r == a;`
then takes seconds at 32 bits and times out at 64, although it is a matter of algebra: with
`a % b` written as `a - (a / b) * b`, `q * b + r` cancels to `a` under the guard. `refuted(...)`
does that rewrite on the query's assertions and runs z3's simplifiers (with the context of each
subterm, so that `b != 0` decides the `if`s); when they reduce the query to false, it is
unsatisfiable and no solver needs to run. Otherwise the caller solves the original query as
before: the rewritten form is only ever used to conclude "unsat", never for a model, and the
bit-level remainder circuit, which proves `a % b < b` much faster than the rewritten form, stays
in the query the solver sees.

The rewrite is an identity of SMT-LIB's operators at every width and for every divisor, zero
included: `bvurem(a, b) == a - bvudiv(a, b) * b` and `bvsrem(a, b) == a - bvsdiv(a, b) * b` (for
`b == 0` the product is 0 and both remainders are `a`; `bvsdiv(MIN, -1)` wraps to MIN and
`MIN - MIN * -1 == 0`), so the rewritten query is equivalent to the original, and "unsat" from
it is as sound as z3 itself (tests/test_words.py checks the identity exhaustively at small widths).
"""

from __future__ import annotations

import z3

_REMAINDERS = {z3.Z3_OP_BUREM: z3.UDiv, z3.Z3_OP_BUREM_I: z3.UDiv,
               z3.Z3_OP_BSREM: lambda a, b: a / b, z3.Z3_OP_BSREM_I: lambda a, b: a / b}
_typed = z3.z3._to_expr_ref  # a native term as the typed Python term (what z3.substitute returns)
_BUDGET_S = 1.0  # at most this long for the simplification, within the query's own budget


def remainders(terms) -> list:
    """The remainder subterms (`bvurem`, `bvsrem`) of the terms, each once."""
    seen: set[int] = set()
    found = []
    todo = list(terms)
    while todo:
        e = todo.pop()
        key = e.get_id()
        if key in seen:
            continue
        seen.add(key)
        if not z3.is_app(e):
            continue
        if e.decl().kind() in _REMAINDERS:
            found.append(e)
        todo.extend(e.children())
    return found


def rewritten(terms) -> list:
    """The terms with each remainder `a % b` replaced by `a - (a / b) * b` (an identity)."""
    pairs = []
    for r in remainders(terms):
        a, b = r.arg(0), r.arg(1)
        pairs.append((r, a - _REMAINDERS[r.decl().kind()](a, b) * b))
    if not pairs:
        return list(terms)
    # The pairs go to z3 as one pair of arrays for every term: `z3.substitute(t, *pairs)` would
    # check and convert every pair again in Python for each term, which for a query of many
    # assertions and many remainders (a loop over the cells of a grid) took most of its time.
    n = len(pairs)
    old, new = (z3.Ast * n)(), (z3.Ast * n)()
    for i, (r, v) in enumerate(pairs):
        old[i], new[i] = r.as_ast(), v.as_ast()
    return [_typed(z3.Z3_substitute(t.ctx_ref(), t.as_ast(), n, old, new), t.ctx) for t in terms]


def refuted(terms, ctx: z3.Context, budget_s: float) -> bool:
    """True when the conjunction of `terms` simplifies to false once its remainders are rewritten
    (the query is unsatisfiable); False when that does not settle it (nothing is concluded)."""
    goal = z3.Goal(ctx=ctx)
    goal.add(*rewritten(terms))
    tactic = z3.TryFor(z3.Then(z3.Tactic("simplify", ctx), z3.Tactic("propagate-values", ctx),
                               z3.Tactic("ctx-simplify", ctx), z3.Tactic("simplify", ctx)),
                       max(1, int(min(budget_s, _BUDGET_S) * 1000)))
    result = tactic(goal)  # a Z3Exception when out of time or memory: the caller's to judge
    return len(result) == 1 and result[0].inconsistent()
