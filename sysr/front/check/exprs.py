"""Expression typing: literals take their type from context, operators check their operands.

`expr(e, ctx, expected)` types `e`, pushing `expected` down to plain literals and holes, and
records the type of every node (None where it could not be worked out, which silences the
checks that depend on it). Operators, casts, `if` and `match` expressions, indexing, slicing
and concatenation are here; names and calls are in `names`, `prev` and quantifiers in `spec`.
"""

from __future__ import annotations

from dataclasses import replace

from ...types import BOOL, MAX_WIDTH, Ty, bits_for, fits, parse_int_type, sint, uint
from .. import syntax as S
from .context import COMPARE, LOGICAL, CheckerBase, Ctx, has_hole, has_own_type, short_name


class Expressions(CheckerBase):
    """Typing expressions."""

    # ---- expressions -----------------------------------------------------------------
    def literal(self, lit: S.IntLit, expected: Ty | None, negated: bool = False) -> Ty | None:
        ty = expected
        if lit.suffix is not None:
            parsed = parse_int_type(lit.suffix)
            signed, width = parsed
            if not 1 <= width <= MAX_WIDTH:
                self.err("T011", f"width {width} is out of range: widths go from 1 to {MAX_WIDTH}", lit.span)
                return None
            ty = sint(width) if signed else uint(width)
        if ty is None:
            if lit.origin is not None:
                self.err("T003", f"`{lit.origin}` ({lit.text} here) needs a type here", lit.span,
                         f"give it one: `{lit.origin} as u8` (§4.8)")
                return None
            self.err("T003", f"the literal `{lit.text}` needs a type here", lit.span,
                     f"give it a suffix, e.g. `{lit.text}u8`")
            return None
        if ty.is_named:
            self.err("T001", f"expected `{ty}`, found the integer `{lit.text}`", lit.span,
                     f"write a variant, `{S.written(ty.enum)}::NAME`" if ty.kind == "enum" else
                     f"write a struct literal, `{S.written(ty.enum)} {{ {S.written(ty.fields[0][0])}: ..., ... }}`")
            return None
        value = -lit.value if negated else lit.value
        if lit.origin is not None and not fits(value, ty):
            self.err("T002", f"`{lit.origin}` is {value} here, which does not fit in `{ty}`", lit.span,
                     self._range_note(ty), *self._param_fix(lit.origin, value, ty))
        elif not fits(value, ty, lit.text.startswith(("0x", "0b"))):
            self.err("T002", f"the literal `{'-' if negated else ''}{lit.text}` does not fit in `{ty}`", lit.span,
                     self._range_note(ty))
        self.types[id(lit)] = ty
        return ty

    @staticmethod
    def _param_fix(origin: str, value: int, ty: Ty) -> tuple[str, ...]:
        """How to compare with a parameter wider than the other side: widen that side to a type
        that holds this binding's value (or to 32 bits for every binding), or compare with one less."""
        if value < 0:
            need = f"s{max((-value - 1).bit_length() + 1, ty.width + (not ty.signed))}"
        else:
            need = f"{'s' if ty.signed else 'u'}{max(value.bit_length() + ty.signed, ty.width)}"
        out = [f"a parameter takes its type from the context, like a literal (§4.8): widen the other side "
               f"to a type that holds {value}, `x as {need} < {origin}` (`as {need[0]}33` holds every binding "
               f"of 32 bits; synthesis drops the constant high bits)"]
        if value > 0 and fits(value - 1, ty):
            out.append(f"or compare with a value that fits: `x <= {origin} - 1` rather than `x < {origin}`")
        return tuple(out)

    @staticmethod
    def _range_note(ty: Ty) -> str:
        if ty.signed:
            return f"`{ty}` holds {-(1 << (ty.width - 1))} to {(1 << (ty.width - 1)) - 1}"
        return f"`{ty}` holds 0 to {(1 << ty.width) - 1}"

    def expect(self, got: Ty | None, expected: Ty | None, e) -> Ty | None:
        if got is not None and expected is not None and got != expected:
            self.err("T001", f"expected `{expected}`, found `{got}`", e.span, *self.conversion_note(got, expected))
        return got

    @staticmethod
    def conversion_note(got: Ty, expected: Ty) -> tuple[str, ...]:
        """How to turn a value of type `got` into `expected`, when there is a way."""
        if expected.is_bool and got.is_int:
            return ("for a truth value compare it, e.g. `x != 0`",)
        if got.is_int and expected.is_int:
            return (f"convert with `as {expected}`",)
        if got.kind == "enum" and expected.is_int:
            return (f"`as {expected}` gives the encoding of a `{got}`",)
        if got.kind == "struct" and expected.is_int:
            return (f"`as {expected}` gives the bits of a `{got}`",)
        if expected.kind == "enum":
            return (f"write a variant, `{S.written(expected.enum)}::NAME`",)
        if expected.kind == "struct" and got.is_int and got.width == expected.width:
            return (f"`as {expected}` reads the bits as a `{expected}`",)
        if expected.kind == "struct":
            return (f"`{expected}` is {expected.width} bits wide; build one with a struct literal, "
                    f"`{S.written(expected.enum)} {{ {S.written(expected.fields[0][0])}: ..., ... }}`",)
        return ()

    def expr(self, e, ctx: Ctx, expected: Ty | None, cond: bool = False, quiet_literal: bool = False) -> Ty | None:
        """Type `e`, pushing `expected` to its literals. Records and returns the type (None on error)."""
        if expected is None and not has_own_type(e) and quiet_literal:
            return None
        ty = self._expr(e, ctx, expected)
        if ty is not None:
            self.types[id(e)] = ty
            if cond and not ty.is_bool:
                self.err("T004", f"a condition must be `bool`, found `{ty}`", e.span,
                         f"compare it, e.g. `{short_name(e)} != 0`" if ty.is_int else "compare it with `==`")
                return ty
            if not cond:
                self.expect(ty, expected, e)
        return ty

    def _expr(self, e, ctx: Ctx, expected: Ty | None) -> Ty | None:
        method = getattr(self, "e_" + type(e).__name__)
        return method(e, ctx, expected)

    def e_IntLit(self, e: S.IntLit, ctx, expected):
        return self.literal(e, expected)

    def e_BoolLit(self, e, ctx, expected):
        return BOOL

    def e_Unary(self, e: S.Unary, ctx, expected):
        if e.op == "!":
            t = self.operand(e.operand, ctx, BOOL)
            if t is not None and not t.is_bool:
                self.err("T008", f"`!` needs a `bool`, found `{t}`", e.span, "for a bitwise complement write `~`")
                return None
            return BOOL if t is not None else None
        if e.op == "-" and isinstance(e.operand, S.IntLit):
            t = self.literal(e.operand, expected, negated=True)
            if t is not None:
                self.types[id(e.operand)] = t
            return t
        t = self.expr(e.operand, ctx, expected if not has_own_type(e.operand) else None)
        if t is not None and t.is_named:
            self.err("T008", f"`{e.op}` is not defined for the {t.kind} `{t}`", e.span)
            return None
        return t

    def operand_pair(self, left, right, ctx, expected) -> tuple[Ty | None, Ty | None]:
        """Type two operands that must share a type: one with a type of its own gives it to the other."""
        if has_own_type(left):
            lt = self.expr(left, ctx, None)
            n = len(self.diags)
            rt = self.operand(right, ctx, lt, quiet=lt is None)
            self.loop_var_note(left, ctx, n)
            return lt, rt
        if has_own_type(right):
            rt = self.expr(right, ctx, None)
            n = len(self.diags)
            lt = self.operand(left, ctx, rt, quiet=rt is None)
            self.loop_var_note(right, ctx, n)
            return lt, rt
        lt = self.expr(left, ctx, expected)
        rt = self.expr(right, ctx, expected, quiet_literal=lt is None)
        return lt, rt

    def loop_var_note(self, e, ctx: Ctx, since: int) -> None:
        """A literal that does not fit a loop variable's narrow type: say where the type comes from."""
        local = ctx.scope.get(e.name) if isinstance(e, S.Name) else None
        if local is None or local.kind != "for" or local.ty is None:
            return
        note = (f"the loop variable `{S.written(e.name)}` has type `{local.ty}`, just wide enough for its range; "
                f"cast it for arithmetic, e.g. `({S.written(e.name)} as u8)`")
        for i in range(since, len(self.diags)):
            if self.diags[i].code == "T002":
                self.diags[i] = replace(self.diags[i], notes=self.diags[i].notes + (note,))

    def operand(self, e, ctx: Ctx, ty: Ty | None, quiet: bool = False) -> Ty | None:
        """Type an operand whose type the caller checks itself: `ty` reaches only typeless literals and holes."""
        if has_own_type(e):
            return self.expr(e, ctx, None)
        return self.expr(e, ctx, ty, quiet_literal=quiet)

    def e_Binary(self, e: S.Binary, ctx, expected):
        op = e.op
        if op in LOGICAL:
            return self.logical(e, ctx)
        if op in ("<<", ">>"):
            lt = self.expr(e.left, ctx, expected if not has_own_type(e.left) else None)
            if isinstance(e.right, S.IntLit) and e.right.suffix is None:
                rt = self.literal(e.right, uint(bits_for(e.right.value)))
            else:
                rt = self.expr(e.right, ctx, None)
            if rt is not None and rt.kind != "uint":
                self.err("T008", f"a shift amount must be unsigned, found `{rt}`", e.right.span)
            if lt is not None and lt.is_named:
                self.err("T008", f"`{op}` is not defined for the {lt.kind} `{lt}`", e.span)
                return None
            return lt
        if op in COMPARE:
            lt, rt = self.operand_pair(e.left, e.right, ctx, None)
            if lt is not None and rt is not None and lt != rt:
                self.err("T001", f"`{op}` compares `{lt}` with `{rt}`; both sides must have the same type",
                         e.span, *self.compare_note(lt, rt))
            elif lt is not None and lt.is_named and op not in ("==", "!="):
                self.err("T008", f"`{op}` is not defined for the {lt.kind} `{lt}`; {lt.kind}s compare with `==` "
                                 "and `!=`", e.span)
            return BOOL
        # arithmetic and bitwise
        lt, rt = self.operand_pair(e.left, e.right, ctx, expected)
        if lt is not None and rt is not None and lt != rt:
            self.err("T001", f"`{op}` on `{lt}` and `{rt}`; both operands must have the same type", e.span,
                     "convert one side with `as`")
            return None
        if lt is None or rt is None:
            return None  # reported where it went wrong
        t = lt
        if t.is_named:
            self.err("T008", f"`{op}` is not defined for the {t.kind} `{t}`", e.span,
                     "use `as` to get its encoding" if t.kind == "enum" else "apply it to a field, `s.f`")
            return None
        if op in ("/", "%") and self.const_eval(e.right) == 0:
            self.err("T020", f"the divisor of `{op}` is the constant 0", e.right.span,
                     "Verilog gives x for a zero divisor: divide by a non-zero constant, or by a signal "
                     "that may be zero under a guard, `if b != 0 then a / b else 0`")
        return t

    def logical(self, e: S.Binary, ctx: Ctx) -> Ty | None:
        """`&&`, `||`, `==>`: bool operands; one error for the operator when neither side is bool."""
        op = e.op
        lt = self.operand(e.left, ctx, BOOL)
        rt = self.operand(e.right, ctx, BOOL)
        bad = [(t, side) for t, side in ((lt, e.left), (rt, e.right)) if t is not None and not t.is_bool]
        hint = {"&&": "for a bitwise and write `&`; for a truth value compare, e.g. `x != 0`",
                "||": "for a bitwise or write `|`; for a truth value compare, e.g. `x != 0`",
                "==>": "compare it for a truth value, e.g. `x != 0`"}[op]
        if len(bad) == 2:
            self.err("T008", f"`{op}` needs `bool` operands, found `{lt}` and `{rt}`", e.span, hint)
        elif bad:
            t, side = bad[0]
            self.err("T008", f"`{op}` needs `bool` operands, found `{t}`", side.span, hint)
        if bad or lt is None or rt is None:
            return None
        return BOOL

    def e_Cast(self, e: S.Cast, ctx, expected):
        dst = self.resolve_type(e.ty)
        if isinstance(e.operand, S.IntLit) and e.operand.suffix is None:
            self.err("T003", f"the literal `{e.operand.text}` needs a type before `as`", e.operand.span,
                     f"write `{e.operand.text}u8` (or the width you mean), or drop the cast; for a width "
                     f"from a parameter, name the value: `wire z: u[W] = {e.operand.text};`")
            return dst
        src = self.expr(e.operand, ctx, None)
        if src is None or dst is None:
            return dst
        if dst.kind == "struct":
            return self.struct_cast(e, src, dst)
        if dst.kind == "enum":
            self.err("T006", f"cannot cast `{src}` to the enum `{dst}`", e.span,
                     f"enums are made from their variants; to test a number, compare it with a variant's "
                     f"encoding, e.g. `{short_name(e.operand)} == ({dst}::NAME as {src})`")
            return dst
        if e.ty.name == "bool" and src.width > 1:
            self.err("T006", f"cannot cast `{src}` to `bool`", e.span,
                     f"for a truth value compare it, `{short_name(e.operand)} != 0`; for one bit index it, "
                     f"`{short_name(e.operand)}[0]`")
        return dst

    def e_IfExpr(self, e: S.IfExpr, ctx, expected):
        self.expr(e.cond, ctx, BOOL, cond=True)
        lt, rt = self.operand_pair(e.then, e.else_, ctx, expected)
        if lt is not None and rt is not None and lt != rt:
            self.err("T001", f"the branches of `if` have types `{lt}` and `{rt}`; they must match", e.span)
            return None
        return lt if rt is not None else None

    def e_MatchExpr(self, e: S.MatchExpr, ctx, expected):
        sty = self.expr(e.subject, ctx, None)
        self.match_arms(e.subject, [a.patterns for a in e.arms], sty, e.span)
        result = expected
        own = next((a for a in e.arms if has_own_type(a.value)), None)
        if result is None and own is not None:
            result = self.expr(own.value, ctx, None)
            if result is None:
                return None
        if expected is not None:
            return self.arms_against(e, ctx, expected)
        quiet = False
        for arm in e.arms:
            if arm is not own:
                got = self.expr(arm.value, ctx, result, quiet_literal=quiet)
                quiet = quiet or (got is None and result is None)
        return result

    def arms_against(self, e: S.MatchExpr, ctx: Ctx, expected: Ty) -> Ty | None:
        """Type the arms of a match expression where `expected` is wanted: when every arm has the
        same other type, that is one error (the match's), else one error per wrong arm."""
        got = [(arm, self.operand(arm.value, ctx, expected)) for arm in e.arms]
        wrong = [(arm, t) for arm, t in got if t is not None and t != expected]
        if wrong and len(wrong) == len(e.arms) and len({t for _, t in wrong}) == 1:
            t = wrong[0][1]
            self.err("T001", f"expected `{expected}`, but every arm of this match is `{t}`", e.span,
                     *self.conversion_note(t, expected))
            return None
        for arm, t in wrong:
            self.expect(t, expected, arm.value)
        return None if wrong else expected

    def index_expr(self, idx, ctx, limit: int | None) -> None:
        """Type an index into a bit-vector of `limit` bits or an array of `limit` elements."""
        if isinstance(idx, S.IntLit) and idx.suffix is None:
            self.literal(idx, uint(bits_for(idx.value)))
            self.types[id(idx)] = uint(bits_for(idx.value))
        else:
            it = self.expr(idx, ctx, None)
            if it is None:
                return
            if it.kind != "uint":
                self.err("T008", f"an index must be unsigned, found `{it}`", idx.span)
                return
        v = self.const_eval(idx)
        if v is not None and limit is not None and v >= limit:
            self.err("T005", f"index {v} is out of range: valid indexes are 0 to {limit - 1}", idx.span)

    def e_Index(self, e: S.Index, ctx, expected):
        base = e.base
        if isinstance(base, S.Name):
            sig = self.signals.get(base.name) if base.name not in ctx.scope else None
            if sig is not None and sig.is_array and ctx.where not in ("fn", "const", "init"):
                self.refs[id(base)] = sig
                self.read_rules(sig, base.span, ctx)
                self.index_expr(e.index, ctx, sig.size)
                return sig.ty
        bt = self.expr(base, ctx, None)
        if bt is None:
            self.index_expr(e.index, ctx, None)
            return None
        if bt.is_named:
            self.err("T008", f"cannot index the {bt.kind} `{bt}`", e.span, self.bits_note(bt))
            return None
        self.index_expr(e.index, ctx, bt.width)
        return BOOL

    def slice_bounds(self, hi_e, lo_e, bt: Ty, ctx, span) -> Ty | None:
        hi = self.const_int(hi_e, ctx, report_nonconst=False)
        lo = self.const_int(lo_e, ctx, report_nonconst=False)
        loose = [b for b in (hi_e, lo_e) if id(b) in self.types and self.const_eval(b) is None
                 and not has_hole(b)]
        if loose:
            self.err("T010", "slice bounds must be constants (literals, consts, or operators on them)",
                     loose[0].span.to(loose[-1].span),
                     "for bits at a variable position shift first, e.g. `(x >> i)[1:0]`, or index one bit, `x[i]`")
            return None
        if hi is None or lo is None:
            return None
        if hi < lo:
            self.err("T005", f"slice [{hi}:{lo}] is reversed: write the high bit first, [{lo}:{hi}]", span)
            return None
        if hi >= bt.width:
            self.err("T005", f"slice [{hi}:{lo}] is out of range for `{bt}` (bits {bt.width - 1} down to 0)", span)
            return None
        return uint(hi - lo + 1)

    def e_Slice(self, e: S.Slice, ctx, expected):
        bt = self.expr(e.base, ctx, None)
        if bt is None:
            return None
        if bt.is_named:
            self.err("T008", f"cannot slice the {bt.kind} `{bt}`", e.span, self.bits_note(bt))
            return None
        return self.slice_bounds(e.hi, e.lo, bt, ctx, e.span)

    def e_Concat(self, e: S.Concat, ctx, expected):
        total = 0
        ok = True
        for p in e.parts:
            if isinstance(p, S.IntLit) and p.suffix is None and p.origin is not None:
                self.err("T003", f"`{p.origin}` ({p.text} here) in a concatenation needs a width", p.span,
                         f"give it one: `{p.origin} as u8` (§4.8)")
                ok = False
                continue
            if isinstance(p, S.IntLit) and p.suffix is None:
                self.err("T003", f"the literal `{p.text}` in a concatenation needs a width", p.span,
                         f"write e.g. `{p.text}u4`")
                ok = False
                continue
            t = self.expr(p, ctx, None)
            if t is None:
                ok = False
                continue
            if t.is_named:
                self.err("T008", f"cannot concatenate the {t.kind} `{t}`", p.span, self.bits_note(t))
                ok = False
            total += t.width
        if not ok:
            return None
        if total > MAX_WIDTH:
            self.err("T011", f"the concatenation is {total} bits wide; the limit is {MAX_WIDTH}", e.span)
            return None
        return uint(total)
