"""The elaborated IR -> z3 bit-vector and array terms, one cycle at a time.

Every value is a bit-vector (bool is a 1-bit vector); arrays are z3 arrays indexed by the
narrowest bit-vector that holds their indexes. Each operator mirrors `sysr.types` exactly:
wrapping arithmetic, signed or unsigned comparisons per type, shifts that saturate at the
width, division and remainder as SMT-LIB's bvudiv/bvurem and bvsdiv/bvsrem (whose values for a
zero divisor `sysr.types.op_divide` copies), out-of-range reads giving 0 and out-of-range
writes doing nothing.
"""

from __future__ import annotations

import z3

from .. import elab as E
from ..types import Ty, bits_for
from . import products


# Arrays up to this many elements are encoded as one bit-vector per element (fast for the
# bit-vector solver); larger ones as z3 arrays.
SCALAR_ARRAY_MAX = 64


def index_width(size: int) -> int:
    return bits_for(max(size - 1, 0))


def scalarized(size: int) -> bool:
    return size <= SCALAR_ARRAY_MAX


def arrays_equal(a, b):
    """Equality of two encoded arrays (tuples of elements, or z3 arrays)."""
    if isinstance(a, tuple):
        return z3.And([x == y for x, y in zip(a, b)])
    return a == b


def bv(value: int, width: int, ctx=None):
    return z3.BitVecVal(value, width, ctx)


def truth(x):
    """A 1-bit vector -> a z3 bool."""
    if z3.is_true(x) or z3.is_false(x):
        return x
    return x == bv(1, 1, x.ctx)


def as_bit(b):
    return z3.If(b, bv(1, 1, b.ctx), bv(0, 1, b.ctx))


def fit(x, width: int):
    """Zero-extend or truncate an unsigned bit-vector to `width`."""
    w = x.size()
    if w == width:
        return x
    if w < width:
        return z3.ZeroExt(width - w, x)
    return z3.Extract(width - 1, 0, x)


class CycleEncoder:
    """Terms for one cycle: `vars` maps input and state names to this cycle's z3 constants."""

    def __init__(self, system: E.System, vars: dict[str, object], ctx: z3.Context) -> None:
        self.sys = system
        self.vars = vars
        self.ctx = ctx
        self.memo: dict[int, object] = {}
        self.keep: list[object] = []
        self.products: dict[int, products.Product] = {}  # shift-and-add chains recognized (`sysr.smt.products`)

    def bv(self, value: int, width: int):
        return z3.BitVecVal(value, width, self.ctx)

    def enc(self, n):
        got = self.memo.get(id(n))
        if got is not None:
            return got
        for node in E.postorder(n, self.memo, self._behind):
            if id(node) not in self.memo:
                self.memo[id(node)] = self._enc(node)
                self.keep.append(node)  # the memo is keyed by id: keep the node alive with it
        return self.memo[id(n)]

    def _behind(self, v: E.Var):
        return None if v.name in self.vars else self.sys.comb.get(v.name)

    def _enc(self, n):
        e = self.enc
        if isinstance(n, E.Const):
            return self.bv(n.value, n.ty.width)
        if isinstance(n, E.Var):
            if n.name in self.vars:
                return self.vars[n.name]
            return e(self.sys.comb[n.name])
        if isinstance(n, E.ArrVar):
            return self.vars[n.name]
        if isinstance(n, E.ConstArr):
            if scalarized(n.size):
                return tuple(self.bv(n.value, n.ty.width) for _ in range(n.size))
            return z3.K(z3.BitVecSort(index_width(n.size), self.ctx), self.bv(n.value, n.ty.width))
        if isinstance(n, E.Un):
            a = e(n.a)
            return -a if n.op == "-" else ~a
        if isinstance(n, E.Bin):
            return self.binary(n)
        if isinstance(n, E.Ite):
            c, a, b = truth(e(n.c)), e(n.a), e(n.b)
            if isinstance(a, tuple):
                return tuple(x if x is y else z3.If(c, x, y) for x, y in zip(a, b))
            stepped = products.step(c, a, b, self.products)
            return z3.If(c, a, b) if stepped is None else stepped
        if isinstance(n, E.Cast):
            return self.cast(e(n.a), n.a.ty, n.ty)
        if isinstance(n, E.Slice):
            return z3.Extract(n.hi, n.lo, e(n.a))
        if isinstance(n, E.BitIdx):
            a, i = e(n.a), e(n.i)
            w = max(a.size(), i.size())
            shifted = z3.LShR(fit(a, w), fit(i, w))
            return z3.Extract(0, 0, shifted)
        if isinstance(n, E.Cat):
            parts = [e(p) for p in n.parts]
            return parts[0] if len(parts) == 1 else z3.Concat(*parts)
        if isinstance(n, E.Builtin):
            return self.builtin(n.name, e(n.a), n.ty)
        if isinstance(n, E.Read):
            arr, i = e(n.arr), e(n.i)
            size = E.array_size(n.arr)
            iw = index_width(size)
            w = max(i.size(), bits_for(size))
            if isinstance(arr, tuple):
                out = self.bv(0, n.ty.width)  # out of range reads 0
                for k in reversed(range(size)):
                    out = z3.If(fit(i, w) == self.bv(k, w), arr[k], out)
                return out
            read = z3.Select(arr, fit(i, iw))
            if size == 1 << iw and i.size() <= iw:
                return read
            return z3.If(z3.ULT(fit(i, w), self.bv(size, w)), read, self.bv(0, n.ty.width))
        if isinstance(n, E.Store):
            arr, i, v = e(n.arr), e(n.i), e(n.v)
            size = n.size
            iw = index_width(size)
            w = max(i.size(), bits_for(size))
            if isinstance(arr, tuple):  # out of range writes nothing
                return tuple(z3.If(fit(i, w) == self.bv(k, w), v, arr[k]) for k in range(size))
            stored = z3.Store(arr, fit(i, iw), v)
            if size == 1 << iw and i.size() <= iw:
                return stored
            return z3.If(z3.ULT(fit(i, w), self.bv(size, w)), stored, arr)
        raise TypeError(f"cannot encode {type(n).__name__}")

    def binary(self, n: E.Bin):
        a, b = self.enc(n.a), self.enc(n.b)
        op, ty = n.op, n.a.ty
        if op in ("+", "-"):
            out = a + b if op == "+" else a - b
            if z3.is_app_of(b, z3.Z3_OP_ITE) and z3.is_bv_value(b.arg(2)) and b.arg(2).as_long() == 0:
                # P + ite(c, X << k, 0): a step of a shift-and-add chain, as ite(c, P + (X << k), P)
                stepped = a + b.arg(1) if op == "+" else a - b.arg(1)
                got = products.step(b.arg(0), stepped, a, self.products)
                return out if got is None else got
            return out
        if op == "*":
            return a * b
        if op == "/":  # bvsdiv truncates toward zero, as Verilog's signed `/` does
            return a / b if ty.signed else z3.UDiv(a, b)
        if op == "%":  # bvsrem takes the dividend's sign, as Verilog's `%` (z3's `a % b` is bvsmod)
            return z3.SRem(a, b) if ty.signed else z3.URem(a, b)
        if op == "&":
            return a & b
        if op == "|":
            return a | b
        if op == "^":
            return a ^ b
        if op in ("<<", ">>"):
            return self.shift(op, a, b, ty)
        if op == "==":
            return as_bit(a == b)
        if op == "!=":
            return as_bit(a != b)
        signed = ty.signed
        cmp = {
            "<": (lambda x, y: x < y) if signed else z3.ULT,
            "<=": (lambda x, y: x <= y) if signed else z3.ULE,
            ">": (lambda x, y: x > y) if signed else z3.UGT,
            ">=": (lambda x, y: x >= y) if signed else z3.UGE,
        }[op]
        return as_bit(cmp(a, b))

    def shift(self, op: str, a, b, ty: Ty):
        w = ty.width
        bw = b.size()
        if bw > w:
            big = z3.UGE(b, self.bv(w, bw))
            amount = z3.Extract(w - 1, 0, b)
            over = self.bv(0, w) if (op == "<<" or not ty.signed) else (a >> (w - 1))
            return z3.If(big, over, self.shift(op, a, amount, ty))
        b = fit(b, w)
        if op == "<<":
            return a << b
        if ty.signed:
            return a >> b  # arithmetic; z3 saturates to the sign for amounts >= width
        return z3.LShR(a, b)

    @staticmethod
    def cast(a, src: Ty, dst: Ty):
        sw, dw = src.width, dst.width
        if dw == sw:
            return a
        if dw < sw:
            return z3.Extract(dw - 1, 0, a)
        return z3.SignExt(dw - sw, a) if src.signed else z3.ZeroExt(dw - sw, a)

    def builtin(self, name: str, a, ty: Ty):
        bv = self.bv
        w = a.size()
        bits = [z3.Extract(i, i, a) for i in range(w)]
        if name == "and_reduce":
            return as_bit(a == bv((1 << w) - 1, w))
        if name == "or_reduce":
            return as_bit(a != bv(0, w))
        if name == "xor_reduce":
            acc = bits[0]
            for x in bits[1:]:
                acc = acc ^ x
            return acc
        if name == "popcount":
            rw = ty.width
            acc = bv(0, rw)
            for x in bits:
                acc = acc + fit(x, rw)
            return acc
        if name == "onehot":
            return as_bit(z3.And(a != bv(0, w), (a & (a - bv(1, w))) == bv(0, w)))
        if name == "onehot0":
            return as_bit((a & (a - bv(1, w))) == bv(0, w))
        raise ValueError(name)


def make_vars(system: E.System, cycle: str, ctx: z3.Context) -> dict[str, object]:
    """Fresh z3 constants for the inputs and state of one cycle, named `name@cycle`."""
    out: dict[str, object] = {}
    for name, ty in system.inputs:
        out[name] = z3.BitVec(f"{name}@{cycle}", ty.width, ctx)
    for sv in system.state:
        if sv.size is not None and scalarized(sv.size):
            out[sv.name] = tuple(z3.BitVec(f"{sv.name}[{k}]@{cycle}", sv.ty.width, ctx)
                                 for k in range(sv.size))
        elif sv.size is not None:
            out[sv.name] = z3.Array(f"{sv.name}@{cycle}", z3.BitVecSort(index_width(sv.size), ctx),
                                    z3.BitVecSort(sv.ty.width, ctx))
        else:
            out[sv.name] = z3.BitVec(f"{sv.name}@{cycle}", sv.ty.width, ctx)
    return out


def enum_valid(value, ty: Ty, system: E.System):
    """A z3 bool: `value` is one of the enum's encodings."""
    info = system.design.enums[ty.enum]
    codes = sorted(set(info.variants.values()))
    if len(codes) == 1 << ty.width:
        return z3.BoolVal(True, value.ctx)
    return z3.Or([value == bv(c, ty.width, value.ctx) for c in codes])
