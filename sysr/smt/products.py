"""Products computed by shifts and adds, recognized step by step and given to the solver as `*`.

A multiplier written as a loop (`p = 0; for i in 0..N { if b[i] { p = p + (x << i); } }`, the
last step a subtraction for a signed `b`) unrolls to a chain whose step k is
`ite(b[k], P + (x << k), P)` (or `P + ite(b[k], x << k, 0)`). Proving such a chain equal to
`x * b` is hard for every bit-blasting solver (two different multiplier circuits: z3 takes
seconds at 8x8 and gives up at 16x16), but each step on its own is easy. This module proves, once
per width and step, with the partial product cut loose as free variables:

- `P == X * Q  ==>  ite(c, P +- (X << k), P) == X * (Q +- (ite(c, 1, 0) << k))` (distributivity:
  z3's simplifier expands the product, so the query is decided without bit-blasting a multiplier);
- `zext(Y[k-1:0]) +- (ite(Y[k], 1, 0) << k) == ext(Y[k:0])` (bits only: `-` with a sign
  extension for the top bit of a signed factor);

and so, by induction over the steps from `P = 0`, the chain of steps 0..k equals
`X * ext(Y[k:0])`. The encoder (`sysr.smt.encode`) then writes that product in place of the
chain, so a property `p == (a as s16) * (b as s16)` meets the same term on both sides. The
replacement is the chain's value for every input (proven above, or the chain is left as it is),
so no verdict, counterexample value or trace changes; only the solver's work does.
"""

from __future__ import annotations

import threading

import z3

from . import contexts

STEP_TIMEOUT_MS = 5000  # each lemma is decided in milliseconds; past this the chain stays a chain

_proven: dict[tuple[int, int, bool, bool], bool] = {}
_lock = threading.Lock()


class Product:
    """What a term is known to equal: X * ext(Y[k-1:0]) (ext: sign extension when `signed`)."""

    __slots__ = ("x", "y", "k", "signed")

    def __init__(self, x, y, k: int, signed: bool) -> None:
        self.x, self.y, self.k, self.signed = x, y, k, signed


def step(c, a, b, known: dict[int, Product]):
    """The term `ite(c, a, b)` (or `b + ite(c, t, 0)` given as c, a = b + t, b), rewritten to a
    product when it is step k of a shift-and-add chain whose steps 0..k-1 are `b`; else None.
    `known` maps the ids of product terms made so far to what they are."""
    if not (z3.is_app_of(a, z3.Z3_OP_BADD) or z3.is_app_of(a, z3.Z3_OP_BSUB)) or a.num_args() != 2:
        return None
    minus = z3.is_app_of(a, z3.Z3_OP_BSUB)
    if not a.arg(0).eq(b):
        return None
    shifted = _shift(a.arg(1))
    bit = _bit_test(c)
    if shifted is None or bit is None:
        return None
    x, k = shifted
    y, j = bit
    w = b.size()
    if j != k or x.size() != w or k >= w:
        return None
    prior = known.get(b.get_id())
    if prior is not None:
        if prior.signed or prior.k != k or not prior.x.eq(x) or not prior.y.eq(y):
            return None
    elif not (z3.is_bv_value(b) and b.as_long() == 0 and k == 0):
        return None
    if not _lemmas(w, k, minus, y.size()):
        return None
    n = k + 1
    part = y if n == y.size() else z3.Extract(k, 0, y)
    ext = part if n == w else (z3.SignExt(w - n, part) if minus else z3.ZeroExt(w - n, part))
    out = x * ext
    known[out.get_id()] = Product(x, y, n, minus)
    return out


def _shift(t):
    """(X, k) when `t` is X << k for a constant k (as `bvshl` or a product by 2^k)."""
    if z3.is_app_of(t, z3.Z3_OP_BSHL):
        amount = z3.simplify(t.arg(1))
        if z3.is_bv_value(amount):
            return t.arg(0), amount.as_long()
    if z3.is_app_of(t, z3.Z3_OP_BMUL) and t.num_args() == 2:
        for x, m in ((t.arg(0), t.arg(1)), (t.arg(1), t.arg(0))):
            if z3.is_bv_value(m) and m.as_long() > 0 and m.as_long() & (m.as_long() - 1) == 0:
                return x, m.as_long().bit_length() - 1
    return None


def _bit_test(c):
    """(Y, k) when `c` is the test that bit k of Y is set (`Y[k:k] == 1`)."""
    if not z3.is_eq(c):
        return None
    for e, one in ((c.arg(0), c.arg(1)), (c.arg(1), c.arg(0))):
        if (z3.is_bv_value(one) and one.size() == 1 and one.as_long() == 1
                and z3.is_app_of(e, z3.Z3_OP_EXTRACT)):
            hi, lo = e.params()
            if hi == lo:
                return e.arg(0), hi
    return None


def _lemmas(w: int, k: int, minus: bool, yw: int) -> bool:
    """Whether the two lemmas of step k (width w, a `-` step or a `+` step, a factor of yw bits)
    are proven; each decided once per process, in a context of its own."""
    key = (w, k, minus, yw)
    with _lock:
        if key in _proven:
            return _proven[key]
    ok = _prove(w, k, minus, yw)
    with _lock:
        _proven[key] = ok
    return ok


def _unsat(ctx, *facts) -> bool:
    s = z3.SolverFor("QF_BV", ctx=ctx)
    s.set("timeout", STEP_TIMEOUT_MS)
    s.add(*facts)
    return s.check() == z3.unsat


def _prove(w: int, k: int, minus: bool, yw: int) -> bool:
    ctx = contexts.fresh()
    bv = lambda name, width: z3.BitVec(name, width, ctx)  # noqa: E731
    val = lambda v, width: z3.BitVecVal(v, width, ctx)  # noqa: E731
    p, q, x, c = bv("P", w), bv("Q", w), bv("X", w), z3.Bool("c", ctx)
    unit = z3.If(c, val(1, w), val(0, w)) << k
    xk = x << val(k, w)
    stepped = z3.If(c, p - xk if minus else p + xk, p)
    q2 = q - unit if minus else q + unit
    if not _unsat(ctx, p == x * q, stepped != x * q2):
        return False
    if k >= yw:
        return False
    y = bv("Y", yw)
    low = val(0, w) if k == 0 else z3.ZeroExt(w - k, z3.Extract(k - 1, 0, y))
    top = z3.If(z3.Extract(k, k, y) == val(1, 1), val(1, w), val(0, w)) << k
    part = z3.Extract(k, 0, y) if k + 1 < yw else y
    n = k + 1
    ext = part if n == w else (z3.SignExt(w - n, part) if minus else z3.ZeroExt(w - n, part))
    return _unsat(ctx, (low - top if minus else low + top) != ext)


def multiplication_note(system, expr) -> str | None:
    """When the cone of `expr` (through comb signals and the next state of the registers it
    reads) multiplies two values of 8 bits or more, the way through for a V003 on it: the
    multiplication named, and the shift-and-add loop or the contract of a leaf module; else None."""
    from .. import elab as E
    nexts = {sv.name: sv.next for sv in system.state}
    done: dict[int, bool] = {}
    widest = 0
    todo, seen_state = [expr], set()
    while todo:
        for node in E.postorder(todo.pop(), done, lambda v: system.comb.get(v.name)):
            done[id(node)] = True
            if isinstance(node, E.Bin) and node.op == "*" and not isinstance(node.a, E.Const) \
                    and not isinstance(node.b, E.Const):
                widest = max(widest, node.ty.width)
            if isinstance(node, (E.Var, E.ArrVar)) and node.name in nexts and node.name not in seen_state:
                seen_state.add(node.name)
                todo.append(nexts[node.name])
    if widest < 8:
        return None
    return (f"it involves a {widest}-bit multiplication, which SAT-based solvers prove slowly: write "
            f"the product as the loop `p = 0; for i in 0..N {{ if b[i] {{ p = p + (a << i); }} }}`, which "
            f"the checker proves step by step (reference §7.8), or put it in a combinational module "
            f"whose `ensures` states the product, proven once, and use that module's contract here (§7.7)")
