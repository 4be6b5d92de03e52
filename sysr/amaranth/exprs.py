"""sysr's expression IR (`sysr.elab`) as Amaranth values, operator by operator.

Every value built here has exactly the width of its sysr type and that type's signedness
(`uN` and enums unsigned, `sN` signed), so that no Amaranth widening rule leaks into the
meaning: `+ - *` keep the low N bits (they wrap), `-a` is two's-complement negation, shifts by
an amount of N or more give 0 (all sign bits for `>>` on a negative `sN`), comparisons are
signed exactly on `sN`, casts zero- or sign-extend by the source type and truncate, and a
dynamic index out of range reads 0. `sysr.types` is the reference for each of them.

The translation is a table: `NODES` maps an IR node type to a method, `BINARY` and `UNARY`
map an operator to a function. A node or operator missing from the tables raises
`Unsupported` naming it, so that an IR that grows (new operators, new node types) gives a
clear error here until the table learns it, never a wrong circuit.

Shared subexpressions (the IR is a DAG: `let`s, unrolled loops, inlined fns) and very deep
chains become named intermediate signals, so that the Amaranth expression trees stay small
and shallow whatever the design unrolls into.
"""

from __future__ import annotations

from typing import Callable

from amaranth.hdl import Array, Cat, Const, Mux, Signal, Value, signed, unsigned

from .. import elab as E
from ..types import Ty, bits_for, to_signed


class Unsupported(Exception):
    """The design uses a construct the Amaranth back end cannot build (yet)."""


def shape_of(ty: Ty):
    return signed(ty.width) if ty.signed else unsigned(ty.width)


def typed(v: Value, ty: Ty) -> Value:
    """`v`, which has exactly `ty.width` bits, with the signedness of `ty`."""
    if len(v) != ty.width:
        raise AssertionError(f"internal: a {len(v)}-bit value where a {ty} was built")
    return v.as_signed() if ty.signed else v.as_unsigned()


def low(v: Value, width: int) -> Value:
    """The low `width` bits of `v` (unsigned); `v` is at least that wide."""
    v = v.as_unsigned()
    return v if len(v) == width else v[:width]


def extend(v: Value, src: Ty, width: int) -> Value:
    """`v` of type `src` widened to `width` bits: sign-extended when `src` is signed."""
    v = v.as_unsigned()
    extra = width - len(v)
    if extra <= 0:
        return low(v, width)
    fill = v[-1].replicate(extra) if src.signed else Const(0, extra)
    return Cat(v, fill)


def in_range(i: Value, i_ty: Ty, limit: int) -> tuple[Value | None, Value]:
    """(guard, index) for an unsigned index `i` that must be below `limit`: the guard is None
    when every value of the index type is in range, and the index keeps just the bits that
    can address 0..limit-1 (the rest only matter to the guard)."""
    i = i.as_unsigned()
    need = bits_for(limit - 1)
    guard = None if (1 << i_ty.width) <= limit else (i < limit)
    index = i if i_ty.width <= need else i[:need]
    return guard, index


def guarded(guard: Value | None, v: Value, ty: Ty) -> Value:
    return v if guard is None else typed(Mux(guard, v.as_unsigned(), 0), ty)


# ---- operators --------------------------------------------------------------------------

def _arith(op: Callable) -> Callable:
    def build(a, b, n):
        return typed(low(op(a.as_unsigned(), b.as_unsigned()), n.ty.width), n.ty)
    return build


def _bitwise(op: Callable) -> Callable:
    def build(a, b, n):
        return typed(op(a.as_unsigned(), b.as_unsigned()), n.ty)
    return build


def _compare(op: Callable) -> Callable:
    def build(a, b, n):
        if n.a.ty.signed:  # operands are already signed values: Amaranth compares them signed
            return op(a.as_signed(), b.as_signed())
        return op(a.as_unsigned(), b.as_unsigned())
    return build


def _shift_left(a, b, n):
    w = n.ty.width
    a = a.as_unsigned()
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
            return typed(extend(a.as_unsigned()[min(k, w - 1):], n.ty, w), n.ty)
        return typed(Const(0, w) if k >= w else extend(a.as_unsigned()[k:], n.ty, w), n.ty)
    guard, amount = in_range(b, n.b.ty, w)
    if n.ty.signed:
        if guard is not None:
            amount = Mux(guard, amount, w - 1)
        return typed(low(a.as_signed() >> amount, w), n.ty)
    return guarded(guard, typed(low(a.as_unsigned() >> amount, w), n.ty), n.ty)


def _implies(a, b, n):
    return ~a | b


BINARY: dict[str, Callable] = {
    "+": _arith(lambda a, b: a + b),
    "-": _arith(lambda a, b: a - b),
    "*": _arith(lambda a, b: a * b),
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
    "-": lambda a, n: typed(low(-a.as_unsigned(), n.ty.width), n.ty),
    "~": lambda a, n: typed(~a.as_unsigned(), n.ty),
    "!": lambda a, n: typed(~a.as_unsigned(), n.ty),
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


# ---- the translator ---------------------------------------------------------------------

# IR depth after which a value is given a signal of its own. Amaranth's simulator compiles a
# `Mux` inside a `Mux` into nested Python blocks, and Python allows 100 levels: an IR node adds
# at most two `Mux` levels, so values stay well within that.
MAX_DEPTH = 8
CHAIN = 8  # likewise for the `Mux` chains of array writes: a signal every CHAIN links


class ValueBuilder:
    """Turns IR expressions into Amaranth values over the signals `names` gives.

    `names(var)` gives the Amaranth value of a `Var` (a port, register, comb signal or the
    reset); `array(arr_var)` the storage of a register array or memory, as an object with
    `read(index_value, index_ty)`. Intermediate signals and their drivers are collected in
    `comb` (a list of Amaranth statements for `m.d.comb`).
    """

    def __init__(self, names: Callable[[E.Var], Value], arrays: Callable[[E.ArrVar], object],
                 where: str = "") -> None:
        self.names = names
        self.arrays = arrays
        self.where = where
        self.comb: list = []
        self.memo: dict[int, Value] = {}
        self.depth: dict[int, int] = {}
        self.keep: list = []  # the memo is keyed by id: keep the nodes alive
        self.uses: dict[int, int] = {}
        self.temps = 0

    def count_uses(self, roots) -> None:
        """Count how often each node is an operand, over every root, before building any: a
        node used more than once becomes an intermediate signal."""
        seen: set[int] = set()
        stack = list(roots)
        while stack:
            n = stack.pop()
            self.uses[id(n)] = self.uses.get(id(n), 0) + 1
            if id(n) in seen:
                continue
            seen.add(id(n))
            self.keep.append(n)
            stack.extend(E.children(n))

    def value(self, root) -> Value:
        for n in E.postorder(root, self.memo):
            if id(n) in self.memo:
                continue
            method = NODES.get(type(n))
            if method is None:
                raise Unsupported(f"the Amaranth back end cannot build the IR node "
                                  f"{type(n).__name__}{self.where}")
            v = method(self, n)
            depth = 1 + max((self.depth.get(id(k), 0) for k in E.children(n)), default=0)
            if not isinstance(n, (E.Const, E.Var)) and (self.uses.get(id(n), 0) > 1 or depth > MAX_DEPTH):
                v, depth = self.temp(v, n), 0
            self.memo[id(n)] = v
            self.depth[id(n)] = depth
            self.keep.append(n)
        return self.memo[id(root)]

    def temp(self, v: Value, n) -> Value:
        sig = self.signal(v)
        return typed(sig, n.ty) if n.ty is not None and n.ty.width == len(v) else sig

    def signal(self, v: Value, prefix: str = "t") -> Signal:
        """A new signal driven by `v` (unsigned, of its width)."""
        self.temps += 1
        sig = Signal(len(v), name=f"{prefix}{self.temps}")
        self.comb.append(sig.eq(v))
        return sig

    def link(self, v: Value, k: int) -> Value:
        """Link k of a chain: every CHAIN links the chain so far becomes a signal."""
        return self.signal(v, "c") if k % CHAIN == CHAIN - 1 else v

    def of(self, n) -> Value:
        return self.memo[id(n)]

    # ---- node kinds --------------------------------------------------------------------
    def n_const(self, n: E.Const) -> Value:
        return Const(to_signed(n.value, n.ty.width) if n.ty.signed else n.value, shape_of(n.ty))

    def n_var(self, n: E.Var) -> Value:
        return typed(self.names(n).as_unsigned(), n.ty)

    def n_bin(self, n: E.Bin) -> Value:
        build = BINARY.get(n.op)
        if build is None:
            raise Unsupported(f"the Amaranth back end cannot build the operator `{n.op}`{self.where}")
        return build(self.of(n.a), self.of(n.b), n)

    def n_un(self, n: E.Un) -> Value:
        build = UNARY.get(n.op)
        if build is None:
            raise Unsupported(f"the Amaranth back end cannot build the operator `{n.op}`{self.where}")
        return build(self.of(n.a), n)

    def n_ite(self, n: E.Ite) -> Value:
        if n.ty is None:
            raise Unsupported(f"an array-valued `if` outside a register update{self.where}")
        return typed(Mux(self.of(n.c), self.of(n.a).as_unsigned(), self.of(n.b).as_unsigned()), n.ty)

    def n_cast(self, n: E.Cast) -> Value:
        return typed(extend(self.of(n.a), n.a.ty, n.ty.width), n.ty)

    def n_slice(self, n: E.Slice) -> Value:
        return typed(self.of(n.a).as_unsigned()[n.lo:n.hi + 1], n.ty)

    def n_bitidx(self, n: E.BitIdx) -> Value:
        w = n.a.ty.width
        guard, index = in_range(self.of(n.i), n.i.ty, w)
        return guarded(guard, self.of(n.a).as_unsigned().bit_select(index, 1), n.ty)

    def n_cat(self, n: E.Cat) -> Value:
        return Cat(*[self.of(p).as_unsigned() for p in reversed(n.parts)])

    def n_builtin(self, n: E.Builtin) -> Value:
        build = BUILTINS.get(n.name)
        if build is None:
            raise Unsupported(f"the Amaranth back end cannot build the builtin `{n.name}`{self.where}")
        v = build(self.of(n.a).as_unsigned())
        return typed(extend(v, n.ty, n.ty.width), n.ty)

    def n_read(self, n: E.Read) -> Value:
        if not isinstance(n.arr, E.ArrVar):
            raise Unsupported(f"a read from a computed array value{self.where}")
        if isinstance(n.i, E.Const):
            if n.i.value >= n.arr.size:
                return self.n_const(E.Const(0, n.ty))
        return typed(self.arrays(n.arr).read(self.of(n.i), n.i.ty).as_unsigned(), n.ty)

    def n_arrvar(self, n: E.ArrVar):
        return None  # only ever the array operand of a Read, which looks the storage up itself

    def n_array(self, n) -> Value:
        raise Unsupported(f"a whole array used as a value{self.where}")


NODES: dict[type, Callable] = {
    E.Const: ValueBuilder.n_const,
    E.Var: ValueBuilder.n_var,
    E.Bin: ValueBuilder.n_bin,
    E.Un: ValueBuilder.n_un,
    E.Ite: ValueBuilder.n_ite,
    E.Cast: ValueBuilder.n_cast,
    E.Slice: ValueBuilder.n_slice,
    E.BitIdx: ValueBuilder.n_bitidx,
    E.Cat: ValueBuilder.n_cat,
    E.Builtin: ValueBuilder.n_builtin,
    E.Read: ValueBuilder.n_read,
    E.ArrVar: ValueBuilder.n_arrvar,
    E.Store: ValueBuilder.n_array,
    E.ConstArr: ValueBuilder.n_array,
}


def register_array_read(elements: list[Signal]):
    """A `read(index, index_ty)` over a list of signals (a register array)."""
    table = Array(elements)

    def read(i: Value, i_ty: Ty) -> Value:
        guard, index = in_range(i, i_ty, len(elements))
        v = table[index].as_unsigned() if len(elements) > 1 else elements[0].as_unsigned()
        return v if guard is None else Mux(guard, v, 0)
    return read
