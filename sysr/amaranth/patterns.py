"""Patterns of the elaborated IR that the Amaranth back end builds as one expression.

`sysr.elab` spells out a write to a dynamic bit index (`x[i] = v;`) as a chain of `if i == k`
over every bit k, each link reading the one before twice. Built as it stands, that is one
signal per bit in a row, which Amaranth's simulator settles one delta cycle per link; as a
`BitWrite` it is one expression, bit j being `v` when `i == j`. The pattern is matched
exactly (same index, same value, the index zero-extended, each link splicing the one before);
anything else is built node by node, which is slower to simulate but the same circuit.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import elab as E
from ..types import Ty


@dataclass(frozen=True, eq=False)
class BitWrite:
    """`old` with bit `i` (dynamic) replaced by the bool `v`: what `x[i] = v;` assigns."""
    old: object
    i: object
    v: object
    ty: Ty


def ir_children(n) -> tuple:
    return (n.old, n.i, n.v) if isinstance(n, BitWrite) else E.children(n)


def bit_write(top) -> BitWrite | None:
    """The `BitWrite` that IR node `top` is, if it is the chain `sysr.elab` makes for a write
    to a dynamic bit index (for k = 0..w-1: `if i == k then old with bit k = v else ...`),
    else None. Built as it stands, the chain would be w signals in a row (each link reads the
    one before twice)."""
    if not isinstance(top, E.Ite) or top.ty is None:
        return None
    w = top.ty.width
    n, i, v = top, None, None
    for k in range(w - 1, -1, -1):
        if not isinstance(n, E.Ite) or n.ty != top.ty:
            return None
        hit = n.c
        if not (isinstance(hit, E.Bin) and hit.op == "==" and isinstance(hit.a, E.Cast)
                and isinstance(hit.b, E.Const) and hit.b.value == k and not hit.a.a.ty.signed
                and hit.a.ty.width >= hit.a.a.ty.width):  # the index zero-extended, never cut
            return None
        value = _spliced(n.a, n.b, k, w)
        if value is None or (i is not None and hit.a.a is not i) or (v is not None and value is not v):
            return None
        i, v, n = hit.a.a, value, n.b
    return BitWrite(n, i, v, top.ty)


def _spliced(x, old, k: int, w: int):
    """The bool `value` when `x` is `old` with bit k replaced by it (as `Elaborator.splice`
    writes it), else None."""
    if isinstance(x, E.Cast):
        x = x.a
    if w == 1:
        return x if x.ty.width == 1 else None
    if not isinstance(x, E.Cat):
        return None
    parts = list(x.parts)
    if k < w - 1:
        hi = parts.pop(0)
        if not (isinstance(hi, E.Slice) and hi.a is old and (hi.hi, hi.lo) == (w - 1, k + 1)):
            return None
    if k > 0:
        lo = parts.pop()
        if not (isinstance(lo, E.Slice) and lo.a is old and (lo.hi, lo.lo) == (k - 1, 0)):
            return None
    return parts[0] if len(parts) == 1 and parts[0].ty.width == 1 else None
