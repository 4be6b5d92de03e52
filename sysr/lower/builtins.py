"""Builtins and generated helper functions of the lowering's expressions: the reductions,
`popcount`, `onehot`, `onehot0`, and the small Verilog functions (`bits9_7_0`, `sext4_8`,
`popcount8`) that select from or extend an expression that is not a name.

`Builtins` is a mixin of `sysr.lower.expr.Exprs`, which supplies `binop`, `flags` and `gen`.
"""

from __future__ import annotations

from dataclasses import replace

from ..types import popcount_width
from .text import ATOM, UNARY, V, _range, literal, select_digits, unary_operand


class Builtins:
    """The builtins and helper functions of `Exprs` (see the module)."""

    def reduce(self, op: str, a: V, value) -> V:
        return V(op + unary_operand(a), UNARY, 1, value, **self.flags([a]))

    def b_and_reduce(self, a: V, value) -> V:
        return self.reduce("&", a, value)

    def b_or_reduce(self, a: V, value) -> V:
        return self.reduce("|", a, value)

    def b_xor_reduce(self, a: V, value) -> V:
        return self.reduce("^", a, value)

    def b_popcount(self, a: V, value) -> V:
        if a.width == 1:
            return a
        return self.call_helper(self.popcount_helper(a.width), [a], popcount_width(a.width), value)

    def power_of_two_test(self, a: V) -> V:
        """`(a & (a - 1)) == 0`: at most one bit set."""
        one, zero = V(literal(1, a.width), ATOM, a.width), V(literal(0, a.width), ATOM, a.width)
        return self.binop("==", self.binop("&", a, self.binop("-", a, one, a.width), a.width), zero, 1)

    def b_onehot0(self, a: V, value) -> V:
        if a.width == 1:
            return V("1'b1", ATOM, 1, 1)
        return replace(self.power_of_two_test(a), value=value)

    def b_onehot(self, a: V, value) -> V:
        if a.width == 1:
            return a
        nonzero = self.binop("!=", a, V(literal(0, a.width), ATOM, a.width), 1)
        return self.binop("&&", nonzero, self.power_of_two_test(a), 1, value)

    # ---- helper functions --------------------------------------------------------------
    def call_helper(self, token: str, args: list[V], width: int, value) -> V:
        text = f"{token}({', '.join(a.rhs for a in args)})"
        return V(text, ATOM, width, value, **self.flags(args))

    def helper(self, key: tuple, base: str, width: int, inputs: list[tuple[str, int]], body):
        def make(tok: str) -> list[str]:
            lines = [f"function {_range(width)}{tok};"]
            lines += [f"  input {_range(w)}{n};" for n, w in inputs]
            return lines + [f"  {line}" if line else line for line in body(tok)] + ["endfunction"]
        return self.gen.helper(key, base, width, make)

    def bits_helper(self, width: int, hi: int, lo: int) -> str:
        return self.helper(("bits", width, hi, lo), f"bits{width}_{hi}_{lo}", hi - lo + 1,
                           [("v", width)], lambda t: [f"{t} = v{select_digits(hi, lo)};"])

    def bit_helper(self, width: int, iw: int) -> str:
        return self.helper(("bit", width, iw), f"bit{width}_i{iw}", 1, [("v", width), ("i", iw)],
                           lambda t: [f"{t} = v[i];"])

    def sext_helper(self, width: int, to: int) -> str:
        ext = to - width
        return self.helper(("sext", width, to), f"sext{width}_{to}", to, [("v", width)],
                           lambda t: [f"{t} = {{{{{ext}{{v[{width - 1}]}}}}, v}};"])

    def popcount_helper(self, width: int) -> str:
        pw = popcount_width(width)

        def body(t: str) -> list[str]:
            return ["integer k;", "begin", f"  {t} = {literal(0, pw)};",
                    f"  for (k = 0; k < {width}; k = k + 1) begin",
                    f"    {t} = {t} + v[k];", "  end", "end"]
        return self.helper(("popcount", width), f"popcount{width}", pw, [("v", width)], body)
