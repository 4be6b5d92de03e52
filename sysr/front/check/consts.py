"""Constant expressions: array sizes, loop bounds, indexes, slice bounds, const and reset values.

`const_eval` computes the value of a typed expression built from literals, consts, variants and
operators (with the operator semantics of `sysr.types`, so it agrees with the evaluator and
the prover); `const_int` demands one where the language needs a constant.
"""

from __future__ import annotations

from ...types import (BUILTINS, Ty, bits_for, from_int, op_binary, op_builtin, op_cast, op_concat, op_set_bits,
                      op_slice, op_unary, uint)
from .. import syntax as S
from .context import CheckerBase, Ctx, has_hole


class Constants(CheckerBase):
    """Evaluating constant expressions."""

    # ---- constants -------------------------------------------------------------------
    def const_int(self, e, ctx: Ctx, *notes: str, report_nonconst: bool = True) -> int | None:
        """A constant non-negative integer (array size, bound, index, slice bound)."""
        if isinstance(e, S.IntLit) and e.suffix is None:
            self.types[id(e)] = uint(bits_for(e.value))
            self.const_values[id(e)] = e.value
            return e.value
        ty = self.expr(e, ctx, None)
        if ty is None:
            return None
        v = self.const_eval(e)
        if v is None:
            if report_nonconst and not has_hole(e):
                self.err("T010", "expected a constant here (a literal, a const, or operators on them)", e.span,
                         *notes)
            return None
        if ty.kind != "uint":
            self.err("T008", f"expected an unsigned constant, found `{ty}`", e.span)
            return None
        return v

    def const_eval(self, e) -> int | None:
        """The value of a typed expression built from literals, consts and variants; else None."""
        key = id(e)
        if key in self.const_values:
            return self.const_values[key]
        ty = self.types.get(key)
        if ty is None:
            return None
        v = self._const_eval(e, ty)
        if v is not None:
            self.const_values[key] = v
        return v

    def _const_eval(self, e, ty: Ty) -> int | None:
        ce = self.const_eval
        if isinstance(e, S.IntLit):
            return from_int(e.value, ty.width)
        if isinstance(e, S.BoolLit):
            return int(e.value)
        if isinstance(e, S.Name):
            ref = self.refs.get(id(e))
            if isinstance(ref, str) and ref in self.consts:
                return self.consts[ref][1]
            return None
        if isinstance(e, S.Path):
            info = self.enums.get(e.enum)
            return info.variants.get(e.variant) if info else None
        if isinstance(e, S.Unary):
            a = ce(e.operand)
            return None if a is None else op_unary(e.op, a, ty)
        if isinstance(e, S.Binary):
            a, b = ce(e.left), ce(e.right)
            if a is None or b is None:
                return None
            lt = self.types.get(id(e.left))
            return op_binary(e.op, a, b, lt)
        if isinstance(e, S.Cast):
            a = ce(e.operand)
            return None if a is None else op_cast(a, self.types[id(e.operand)], ty)
        if isinstance(e, S.IfExpr):
            c = ce(e.cond)
            if c is None:
                return None
            return ce(e.then) if c else ce(e.else_)
        if isinstance(e, (S.Slice, S.Field)):
            a, hi, lo = ce(e.base), ce(e.hi), ce(e.lo)
            return None if None in (a, hi, lo) else op_slice(a, hi, lo)
        if isinstance(e, S.StructLit):
            out = 0 if e.base is None else ce(e.base)
            for i in e.inits:
                got, v = ty.field(i.name), ce(i.value)
                if out is None or got is None or v is None:
                    return None
                out = op_set_bits(out, got[0], got[1], v)
            return out
        if isinstance(e, S.Concat):
            vals = [ce(p) for p in e.parts]
            if None in vals:
                return None
            return op_concat([(v, self.types[id(p)].width) for v, p in zip(vals, e.parts)])
        if isinstance(e, S.Index):
            a, i = ce(e.base), ce(e.index)
            return None if a is None or i is None else (a >> i) & 1
        if isinstance(e, S.Call) and e.func in BUILTINS and len(e.args) == 1:
            a = ce(e.args[0])
            return None if a is None else op_builtin(e.func, a, self.types[id(e.args[0])])
        return None
