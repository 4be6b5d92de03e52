"""Types and the concrete meaning of every operator on integers.

`Ty` is the type of a value (bool is u1; enums are bit-vectors with a name; a packed struct is a
bit-vector with a name and named fields at fixed offsets, the first field at the most
significant end, as SystemVerilog packs a `struct packed`). The `op_*`
functions are the reference semantics on Python integers holding bit patterns (0 <= v < 2**w):
the constant evaluator, the concrete evaluator and the tests use them; the z3 encoder mirrors
them operator by operator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_WIDTH = 4096  # T011: the widest `uN`/`sN` (limits.py says why this bound)
_INT_TYPE = re.compile(r"([us])([0-9]+)$")


@dataclass(frozen=True)
class Ty:
    kind: str  # "uint", "sint", "enum" or "struct"
    width: int
    enum: str | None = None  # the name of an enum or struct type
    fields: tuple = ()  # a struct's: ((name, Ty), ...) in declaration order, the first at the MSB

    @property
    def signed(self) -> bool:
        return self.kind == "sint"

    @property
    def is_bool(self) -> bool:
        return self.kind == "uint" and self.width == 1

    @property
    def is_int(self) -> bool:
        return self.kind in ("uint", "sint")

    @property
    def is_named(self) -> bool:
        """An enum or a struct: a type with a name of its own, no arithmetic on it."""
        return self.kind in ("enum", "struct")

    def field(self, name: str) -> tuple[int, int, "Ty"] | None:
        """A struct's field `name` as (hi, lo, type): its bits in the struct's vector; else None."""
        lo = self.width
        for fname, fty in self.fields:
            lo -= fty.width
            if fname == name:
                return (lo + fty.width - 1, lo, fty)
        return None

    def __str__(self) -> str:
        if self.is_named:
            return str(self.enum)
        if self.is_bool:
            return "bool"
        return f"{'s' if self.signed else 'u'}{self.width}"


BOOL = Ty("uint", 1)


def uint(width: int) -> Ty:
    return Ty("uint", width)


def sint(width: int) -> Ty:
    return Ty("sint", width)


def parse_int_type(name: str) -> tuple[bool, int] | None:
    """`u8` -> (False, 8), `s4` -> (True, 4), `bool` -> (False, 1); None if not an integer type."""
    if name == "bool":
        return (False, 1)
    m = _INT_TYPE.match(name)
    if not m:
        return None
    return (m.group(1) == "s", int(m.group(2)))


def bits_for(n: int) -> int:
    """The width of the smallest unsigned type that holds n (at least 1)."""
    return max(1, int(n).bit_length())


def mask(width: int) -> int:
    return (1 << width) - 1


def to_signed(v: int, width: int) -> int:
    v &= mask(width)
    return v - (1 << width) if v >> (width - 1) else v


def from_int(v: int, width: int) -> int:
    """Any Python int to its bit pattern of `width` bits (two's complement)."""
    return v & mask(width)


def value_of(v: int, ty: Ty) -> int:
    """The number a bit pattern means in `ty` (signed types give negative numbers)."""
    return to_signed(v, ty.width) if ty.signed else v


def fits(value: int, ty: Ty, hex_or_bin: bool = False) -> bool:
    """Whether a (non-negative or negated) literal fits the type; hex and binary may fill the sign bit."""
    if ty.signed and not hex_or_bin:
        return -(1 << (ty.width - 1)) <= value < (1 << (ty.width - 1))
    if ty.signed:
        return -(1 << (ty.width - 1)) <= value < (1 << ty.width)
    return 0 <= value < (1 << ty.width)


# ---- operators on bit patterns -----------------------------------------------------------

def op_binary(op: str, a: int, b: int, ty: Ty, bty: Ty | None = None) -> int:
    """`a op b` where both have type `ty` (for shifts, b has type `bty`); returns a bit pattern.

    Comparisons and logical operators return 0 or 1.
    """
    w = ty.width
    m = mask(w)
    if op == "+":
        return (a + b) & m
    if op == "-":
        return (a - b) & m
    if op == "*":
        return (a * b) & m
    if op in ("/", "%"):
        return op_divide(op, a, b, ty)
    if op == "&":
        return a & b
    if op == "|":
        return a | b
    if op == "^":
        return a ^ b
    if op == "<<":
        return (a << b) & m if b < w else 0
    if op == ">>":
        if ty.signed:
            return from_int(to_signed(a, w) >> min(b, w), w)
        return a >> b if b < w else 0
    if op in ("==", "!="):
        return int((a == b) == (op == "=="))
    if op in ("<", "<=", ">", ">="):
        x, y = (to_signed(a, w), to_signed(b, w)) if ty.signed else (a, b)
        return int({"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op])
    if op == "&&":
        return a & b
    if op == "||":
        return a | b
    if op == "==>":
        return int((not a) or bool(b))
    raise ValueError(f"unknown operator {op}")


def op_divide(op: str, a: int, b: int, ty: Ty) -> int:
    """`a / b` or `a % b` as Verilog computes them at the operands' width: on `uN` the unsigned
    quotient and remainder; on `sN` the quotient truncated toward zero and the remainder with
    the dividend's sign (`-7 / 2` is -3, `-7 % 2` is -1), the overflow `MIN / -1` wrapping to
    MIN (and `MIN % -1` is 0).

    A zero divisor gives x in Verilog; every divisor is a proof obligation, so a proven design
    never reads that result. Here it takes the value SMT-LIB gives (`bvudiv`/`bvsdiv`/`bvurem`/
    `bvsrem`): `a / 0` is all ones (on `sN`: -1, or 1 when `a` is negative) and `a % 0` is `a`,
    so that the evaluator and the z3 encoding agree on it too.
    """
    w = ty.width
    x, y = (to_signed(a, w), to_signed(b, w)) if ty.signed else (a, b)
    if y == 0:
        if op == "%":
            return a
        return 1 if x < 0 else mask(w)
    q = abs(x) // abs(y)
    if (x < 0) != (y < 0):
        q = -q
    return from_int(q if op == "/" else x - q * y, w)


def op_unary(op: str, a: int, ty: Ty) -> int:
    m = mask(ty.width)
    if op == "-":
        return (-a) & m
    if op in ("~", "!"):
        return (~a) & m
    raise ValueError(f"unknown operator {op}")


def op_cast(a: int, src: Ty, dst: Ty) -> int:
    """Rust's `as`: widen by sign- or zero-extension per the source, narrow by truncation."""
    if dst.width <= src.width:
        return a & mask(dst.width)
    if src.signed:
        return from_int(to_signed(a, src.width), dst.width)
    return a


def op_slice(a: int, hi: int, lo: int) -> int:
    return (a >> lo) & mask(hi - lo + 1)


def op_set_bits(a: int, hi: int, lo: int, v: int) -> int:
    """`a` with bits hi..lo replaced by `v` (a struct's field set)."""
    m = mask(hi - lo + 1) << lo
    return (a & ~m) | ((v << lo) & m)


def struct_fields(value: int, ty: Ty) -> list[tuple[str, int, Ty]]:
    """A struct value's fields in order: (name, value, type)."""
    return [(name, op_slice(value, *ty.field(name)[:2]), fty) for name, fty in ty.fields]


def op_concat(parts: list[tuple[int, int]]) -> int:
    """parts: (value, width), most significant first."""
    out = 0
    for v, w in parts:
        out = (out << w) | (v & mask(w))
    return out


def popcount_width(width: int) -> int:
    return bits_for(width)


def op_builtin(name: str, a: int, ty: Ty) -> int:
    w = ty.width
    if name == "and_reduce":
        return int(a == mask(w))
    if name == "or_reduce":
        return int(a != 0)
    if name == "xor_reduce":
        return bin(a).count("1") & 1
    if name == "popcount":
        return bin(a).count("1")
    if name == "onehot":
        return int(bin(a).count("1") == 1)
    if name == "onehot0":
        return int(bin(a).count("1") <= 1)
    raise ValueError(f"unknown builtin {name}")


BUILTINS = ("and_reduce", "or_reduce", "xor_reduce", "popcount", "onehot", "onehot0")
