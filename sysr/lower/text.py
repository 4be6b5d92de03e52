"""Lowered expression text: `V` (a Verilog expression with its width and precedence), literals,
operands with the parentheses Verilog needs, and part selects. See `sysr.lower.expr` for the
discipline that keeps widths and signedness exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..types import Ty, to_signed

# Verilog operator precedence, tightest first.
ATOM, UNARY, MUL, ADD, SHIFT, REL, EQ, BAND, BXOR, BOR, LAND, LOR, COND = (
    100, 90, 80, 70, 60, 50, 40, 35, 30, 25, 20, 15, 10)
PREC = {"*": MUL, "/": MUL, "%": MUL, "+": ADD, "-": ADD, "<<": SHIFT, ">>": SHIFT, ">>>": SHIFT,
        "<": REL, "<=": REL, ">": REL, ">=": REL, "==": EQ, "!=": EQ, "&": BAND, "^": BXOR, "|": BOR,
        "&&": LAND, "||": LOR}
_IDENT = re.compile(r"[A-Za-z_\x00][A-Za-z_0-9\x00]*$")


@dataclass(frozen=True)
class V:
    """A lowered expression."""
    text: str  # unsigned Verilog whose self-determined width is `width`
    prec: int
    width: int
    value: int | None = None  # the value, when it is a constant
    loopy: bool = False  # built from a loop variable: print it folded when constant
    local: bool = False  # reads what the current comb block assigned earlier
    top: tuple[str, int] | None = None  # the text to use as a whole right-hand side
    at: tuple[str, int] | None = None  # bits [offset + width - 1 : offset] of a vector name
    chain: tuple | None = None  # a ?: chain: ((cond, value), ...) and the final value

    @property
    def ident(self) -> bool:
        """A plain signal or temporary name: bits and slices select from it directly."""
        return self.prec == ATOM and bool(_IDENT.match(self.text))

    @property
    def base(self) -> tuple[str, int] | None:
        """(name, offset) when selects can address this value's bits in a named vector."""
        return self.at or ((self.text, 0) if self.ident else None)

    @property
    def rhs(self) -> str:
        return self.top[0] if self.top else self.text


def literal(value: int, width: int, radix: str = "d") -> str:
    if width == 1:
        return f"1'b{value}"
    if radix == "h":
        return f"{width}'h{value:x}"
    if radix == "b":
        return f"{width}'b{value:b}"
    return f"{width}'d{value}"


def const_v(value: int, ty: Ty, loopy: bool = False) -> V:
    """A constant of type `ty` (a bit pattern); negative signed values print as `-8'd5`."""
    if ty.signed and ty.width > 1 and to_signed(value, ty.width) < 0:
        text = "-" + literal(-to_signed(value, ty.width), ty.width)
        return V(text, UNARY, ty.width, value, loopy)
    return V(literal(value, ty.width), ATOM, ty.width, value, loopy)


def operand(v: V, prec: int, right: bool = False) -> str:
    """`v` as an operand of an operator of precedence `prec`, parenthesised where Verilog
    needs it and wherever operators of different kinds meet (`a + (b * c)`, `(x & m) == 0`),
    except comparisons under `&&` and `||`."""
    if v.prec == UNARY and v.text.startswith("-") and prec < UNARY:
        return f"({v.text})"
    if v.prec >= UNARY or (v.prec == prec and not right):
        return v.text
    if prec in (LAND, LOR) and v.prec in (REL, EQ):
        return v.text
    return f"({v.text})"


def unary_operand(v: V) -> str:
    return v.text if v.prec == ATOM else f"({v.text})"


def index_text(v: V) -> str:
    """An index: a plain number when constant; an expression in braces, since Icarus
    evaluates an array index at a width that does not wrap (the standard says it is
    self-determined, and Yosys agrees): `m[{a + b}]`."""
    if v.value is not None and not (v.prec == ATOM and _IDENT.match(v.text)):
        return str(v.value)
    return v.text if v.prec == ATOM else "{" + v.text + "}"


def select_digits(hi: int, lo: int) -> str:
    return f"[{hi}]" if hi == lo else f"[{hi}:{lo}]"


def _range(width: int) -> str:
    return "" if width == 1 else f"[{width - 1}:0] "
