"""sysr's operators as Amaranth values, exactly as `sysr.types` defines them.

Every value built here has exactly the width of its sysr type and that type's signedness
(`uN` and enums unsigned, `sN` signed), so that no Amaranth widening rule leaks into the
meaning: `+ - *` keep the low N bits (they wrap), `-a` is two's-complement negation, shifts by
an amount of N or more give 0 (all sign bits for `>>` on a negative `sN`), comparisons are
signed exactly on `sN`, casts zero- or sign-extend by the source type and truncate, and a
dynamic index out of range reads 0, and `/` and `%` are Verilog's at the operands' width, with
SMT-LIB's values for a zero divisor (`_divide`). `sysr.types` is the reference for each of them.

`BINARY`, `UNARY` and `BUILTINS` map an operator to the function that builds it; an operator
missing from them is `Unsupported` (see `sysr.amaranth.exprs`), never a wrong circuit: a new
operator is one entry here.
"""

from __future__ import annotations

from typing import Callable

from amaranth.hdl import Cat, Const, Mux, Value, signed, unsigned
from amaranth.lib import data

from .. import elab as E
from ..types import Ty, bits_for, mask


class Unsupported(Exception):
    """The design uses a construct the Amaranth back end cannot build (yet)."""


def shape_of(ty: Ty):
    return signed(ty.width) if ty.signed else unsigned(ty.width)


def port_shape(ty: Ty):
    """A port's shape: `shape_of`, and for a struct an `amaranth.lib.data.StructLayout`, so that
    Amaranth code reads `c.p.data`. Amaranth lays a layout's first field at the LSB, sysr a
    struct's at the MSB: the layout lists the fields last first, which puts them at the same bits."""
    if ty.kind != "struct":
        return shape_of(ty)
    return data.StructLayout({name: port_shape(fty) for name, fty in reversed(ty.fields)})


def uns(v: Value) -> Value:
    """`v` as unsigned (without a conversion node when it already is)."""
    return v.as_unsigned() if v.shape().signed else v


def sig(v: Value) -> Value:
    return v if v.shape().signed else v.as_signed()


def typed(v: Value, ty: Ty) -> Value:
    """`v`, which has exactly `ty.width` bits, with the signedness of `ty`."""
    if len(v) != ty.width:
        raise AssertionError(f"internal: a {len(v)}-bit value where a {ty} was built")
    return sig(v) if ty.signed else uns(v)


def low(v: Value, width: int) -> Value:
    """The low `width` bits of `v` (unsigned); `v` is at least that wide."""
    v = uns(v)
    return v if len(v) == width else v[:width]


def extend(v: Value, src: Ty, width: int) -> Value:
    """`v` of type `src` widened to `width` bits: sign-extended when `src` is signed."""
    v = uns(v)
    extra = width - len(v)
    if extra <= 0:
        return low(v, width)
    fill = v[-1].replicate(extra) if src.signed else Const(0, extra)
    return Cat(v, fill)


def in_range(i: Value, i_ty: Ty, limit: int) -> tuple[Value | None, Value]:
    """(guard, index) for an unsigned index `i` that must be below `limit`: the guard is None
    when every value of the index type is in range, and the index keeps just the bits that
    can address 0..limit-1 (the rest only matter to the guard)."""
    i = uns(i)
    need = bits_for(limit - 1)
    guard = None if (1 << i_ty.width) <= limit else (i < limit)
    index = i if i_ty.width <= need else i[:need]
    return guard, index


def guarded(guard: Value | None, v: Value, ty: Ty) -> Value:
    return v if guard is None else typed(Mux(guard, uns(v), 0), ty)


# ---- operators --------------------------------------------------------------------------

def _arith(op: Callable) -> Callable:
    def build(a, b, n):
        return typed(low(op(uns(a), uns(b)), n.ty.width), n.ty)
    return build


def _bitwise(op: Callable) -> Callable:
    def build(a, b, n):
        return typed(op(uns(a), uns(b)), n.ty)
    return build


def _compare(op: Callable) -> Callable:
    def build(a, b, n):
        if n.a.ty.signed:  # operands are already signed values: Amaranth compares them signed
            return op(sig(a), sig(b))
        return op(uns(a), uns(b))
    return build


def _shift_left(a, b, n):
    w = n.ty.width
    a = uns(a)
    if isinstance(n.b, E.Const):
        k = n.b.value
        return typed(Const(0, w) if k >= w else Cat(Const(0, k), a[:w - k]) if k else a, n.ty)
    guard, amount = in_range(b, n.b.ty, w)
    return guarded(guard, typed(low(a << amount, w), n.ty), n.ty)


def _shift_right(a, b, n):
    w = n.ty.width
    if isinstance(n.b, E.Const):
        k = n.b.value
        if n.ty.signed:  # shifting by w - 1 or more fills every bit with the sign
            return typed(extend(uns(a)[min(k, w - 1):], n.ty, w), n.ty)
        return typed(Const(0, w) if k >= w else extend(uns(a)[k:], n.ty, w), n.ty)
    guard, amount = in_range(b, n.b.ty, w)
    if n.ty.signed:
        if guard is not None:
            amount = Mux(guard, amount, w - 1)
        return typed(low(sig(a) >> amount, w), n.ty)
    return guarded(guard, typed(low(uns(a) >> amount, w), n.ty), n.ty)


def _divide(a, b, n):
    """`a / b` or `a % b` as `sysr.types.op_divide` defines them, built on an unsigned divider.

    Amaranth's `//` and `%` floor (Python's rounding) on signed values and give 0 for a zero
    divisor, so they are used only on unsigned operands with a divisor that is not zero. On
    `sN` the quotient and remainder of the magnitudes (|MIN| = 2**(N-1) still fits N unsigned
    bits) get their signs back: the quotient negated when the operands' signs differ (so it
    truncates toward zero, and `MIN / -1` wraps to MIN), the remainder when the dividend is
    negative. A zero divisor gives SMT-LIB's values: `a % 0` is `a`; `a / 0` is all ones, on
    `sN` -1, or 1 for a negative dividend. A non-zero constant divisor needs no such case.
    """
    w = n.ty.width
    a, b = uns(a), uns(b)
    rem = n.op == "%"
    if n.ty.signed:
        neg_a, neg_b = a[w - 1], b[w - 1]
        x, y = _magnitude(a, neg_a, w), _magnitude(b, neg_b, w)
        r = low(x % y, w) if rem else low(x // y, w)
        negate = neg_a if rem else neg_a ^ neg_b
        out = Mux(negate, low(-r, w), r)
        by_zero = a if rem else Mux(neg_a, Const(1, w), Const(mask(w), w))
    else:
        out = low(a % b, w) if rem else low(a // b, w)
        by_zero = a if rem else Const(mask(w), w)
    if isinstance(n.b, E.Const) and n.b.value != 0:
        return typed(out, n.ty)
    return typed(Mux(b == 0, by_zero, out), n.ty)


def _magnitude(v: Value, negative: Value, w: int) -> Value:
    """|v| of an `sN` bit pattern, as N unsigned bits."""
    return Mux(negative, low(-v, w), v)


def _implies(a, b, n):
    return ~a | b


BINARY: dict[str, Callable] = {
    "+": _arith(lambda a, b: a + b),
    "-": _arith(lambda a, b: a - b),
    "*": _arith(lambda a, b: a * b),
    "/": _divide,
    "%": _divide,
    "&": _bitwise(lambda a, b: a & b),
    "|": _bitwise(lambda a, b: a | b),
    "^": _bitwise(lambda a, b: a ^ b),
    "&&": _bitwise(lambda a, b: a & b),
    "||": _bitwise(lambda a, b: a | b),
    "==>": _implies,
    "<<": _shift_left,
    ">>": _shift_right,
    "==": _compare(lambda a, b: a == b),
    "!=": _compare(lambda a, b: a != b),
    "<": _compare(lambda a, b: a < b),
    "<=": _compare(lambda a, b: a <= b),
    ">": _compare(lambda a, b: a > b),
    ">=": _compare(lambda a, b: a >= b),
}

UNARY: dict[str, Callable] = {
    "-": lambda a, n: typed(low(-uns(a), n.ty.width), n.ty),
    "~": lambda a, n: typed(~uns(a), n.ty),
    "!": lambda a, n: typed(~uns(a), n.ty),
}


def _popcount(a: Value) -> Value:
    bits = [a[i] for i in range(len(a))]
    while len(bits) > 1:  # a balanced adder tree
        bits = [bits[i] + bits[i + 1] if i + 1 < len(bits) else bits[i] for i in range(0, len(bits), 2)]
    return bits[0]


def _onehot0(a: Value) -> Value:
    return (a & low(a - 1, len(a))) == 0


BUILTINS: dict[str, Callable] = {
    "and_reduce": lambda a: a.all(),
    "or_reduce": lambda a: a.any(),
    "xor_reduce": lambda a: a.xor(),
    "popcount": _popcount,
    "onehot": lambda a: a.any() & _onehot0(a),
    "onehot0": _onehot0,
}
