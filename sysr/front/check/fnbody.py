"""Fn bodies written as statements: `let mut`, assignments, `if` and `for` in a fn (§4.6).

A fn whose body is more than plain `let`s is checked twice. First as written: every statement
once, a loop variable a local of its loop's type (as in a `comb` block), so that a mistake in a
loop body is reported once, at its place. Then, when that found no error, `Unroller` turns the
statements into what every back end already inlines, a chain of `let`s and a final expression,
and the chain is typed as an ordinary fn, silently: what only one copy of a body can show, a
constant index out of range or a constant zero divisor in one iteration, even one no input
reaches (`if i != 0 { x = x / i; }`), is left to the proofs, which report it (V002) where it is
reachable, as they do in a `for` loop of a `comb` block. The chain is:

- each `for` is unrolled, the loop variable a literal of its type in each copy of the body;
- each `let` and each assignment of a `let mut` variable is a new `let` (named `x#3`, a name no
  source can write), later reads of the variable read the newest;
- a `let` of an unsigned constant (`let i = 14 - k;` in a loop) is read as a literal, like a
  loop variable;
- a bit or slice assignment with constant bounds in range, `x[i] = v`, becomes
  `{x[W-1:i+1], v, x[i-1:0]}`; any other, `x ^ (((x[i] ^ v) as T) << i)`, the same bit read
  the same way (a dynamic `i`, or one out of range, stays a proof obligation);
- inside an `if`, the branch's condition is a `let` too, and each assignment keeps the old value
  when it is false (`x#4 = if c#2 then v else x#3`); a `let` there is computed only under it
  (`if c#2 then v else 0`), so that its index and divisor obligations stay guarded.

The chain replaces the fn's `lets` (its `stmts` keep the written form, for the printer and the
editor). `limits.MAX_FN_LETS` bounds the chain (L011).
"""

from __future__ import annotations

import dataclasses

from ... import limits, overrun
from ...model import FnInfo, Local
from ...types import BOOL, Ty, uint
from .. import syntax as S
from .context import CheckerBase, Ctx, has_own_type, subnodes


class FnBodies(CheckerBase):
    """Checking a fn body of statements, and unrolling it (see the module's docstring)."""

    def fn_statements(self, f: S.FnDecl, info: FnInfo, ctx: Ctx) -> None:
        errors = self.error_count()
        outer = ctx
        for st in f.stmts:
            ctx = self.stmt(st, ctx)
        self.expr(f.body, ctx, info.ret)
        ctx = outer
        if self.error_count() > errors:
            return  # not unrolled: the back ends never see a fn with errors
        unroller = Unroller(self, f)
        lets = unroller.run()  # L011 (a LimitExceeded) ends the check, as every L code does
        decl = dataclasses.replace(f, lets=tuple(lets), body=unroller.expr(f.body))
        self.fns[f.name] = FnInfo(decl, info.params, info.ret)
        start = len(self.diags)
        for let in decl.lets:
            ctx = self.let(let, ctx)
        self.expr(decl.body, ctx, info.ret)
        del self.diags[start:]  # what only a copy can show is the proofs' (see the docstring)

    def error_count(self) -> int:
        return sum(1 for d in self.diags if d.severity.name == "ERROR")

    def fn_statement(self, st, ctx: Ctx) -> None:
        """A statement of a fn body that is not a `let`, `if` or `for` (those are checked as in a
        block, with `let mut` allowed)."""
        if isinstance(st, S.Assign):
            self.fn_assign(st, ctx)
        elif isinstance(st, S.NbAssign):
            self.err("A005", "`<=` in a fn: a fn assigns its `let mut` variables with `=`", st.span)
            self.expr(st.value, ctx, None, quiet_literal=True)
        elif isinstance(st, S.Match):
            self.err("A024", "a fn body holds `let`, `let mut`, `=`, `if` and `for`, not a `match` statement",
                     st.span, "assign a match expression: `x = match e { 0 => a, _ => b };`")

    def fn_assign(self, st: S.Assign, ctx: Ctx) -> None:
        lv = st.target
        local = ctx.scope.get(lv.name)
        if not lv.name:  # the parser reported the target
            self.expr(st.value, ctx, None, quiet_literal=True)
            return
        if local is None or local.kind != "mut":
            if local is None:
                what = "a const" if lv.name in self.consts else "not a variable of this fn"
            else:
                what = {"param": "a parameter of the fn", "let": "a `let` without `mut`",
                        "for": "the loop variable"}.get(local.kind, "not assignable")
            self.err("A024", f"`{S.written(lv.name)}` cannot be assigned: it is {what}", lv.name_span,
                     f"declare a variable to assign: `let mut {S.written(lv.name)}2 = ...;`"
                     if local is not None and local.kind == "param" else
                     "only `let mut` variables are assigned in a fn")
            self.expr(st.value, ctx, None, quiet_literal=True)
            return
        self.refs[id(lv)] = local
        ty = self.local_target_type(lv, local, ctx)
        self.expr(st.value, ctx, ty, quiet_literal=ty is None)

    def local_target_type(self, lv: S.LValue, local: Local, ctx: Ctx) -> Ty | None:
        if local.ty is None:
            return None
        if lv.index is None and lv.hi is None:
            return local.ty
        if lv.fields:  # `p.f = v`: the bits of `p` that field `f` is (structs.field_target)
            return self.field_target(lv, local.ty)
        if not local.ty.is_int:
            self.err("T008", f"cannot index `{S.written(local.name)}` of type `{local.ty}`", lv.span)
            return None
        if lv.index is not None:
            self.index_expr(lv.index, ctx, local.ty.width)
            return BOOL
        return self.slice_bounds(lv.hi, lv.lo, local.ty, ctx, lv.span)


class Unroller:
    """One fn's statements as a chain of `let`s (see the module's docstring)."""

    def __init__(self, checker: FnBodies, f: S.FnDecl) -> None:
        self.c = checker
        self.f = f
        self.out: list[S.Let] = []
        self.names: dict[str, str] = {}  # a variable -> the name of its newest `let`
        self.loops: dict[str, tuple[int, Ty]] = {}  # a loop variable -> its value in this copy
        self.count = 0

    def run(self) -> list[S.Let]:
        self.block(self.f.stmts, None)
        return self.out

    # ---- statements ----------------------------------------------------------------------
    def block(self, stmts, guard) -> None:
        for st in stmts:
            self.stmt(st, guard)

    def stmt(self, st, guard) -> None:
        if isinstance(st, S.Let):
            ty = self.c.refs[id(st)].ty
            if not st.mutable and ty.kind == "uint":
                known = self.constant(st.value)
                if known is not None:  # read as a literal, like a loop variable (`let i = 14 - k;`)
                    self.loops[st.name] = (known, ty)
                    return
            value = self.expr(st.value)
            if guard is not None:
                value = S.IfExpr(guard, value, self.default(ty, st.span), st.span)
            self.emit(st.name, ty, value, st)
        elif isinstance(st, S.Assign):
            self.assign(st, guard)
        elif isinstance(st, S.If):
            cond = self.expr(st.cond)
            if guard is not None:
                cond = S.IfExpr(guard, cond, S.BoolLit(False, st.span), st.span)
            then = self.emit("if", BOOL, cond, st)
            self.block(st.then, then)
            if st.else_:
                other = S.Unary("!", then, st.span)
                if guard is not None:
                    other = S.IfExpr(guard, other, S.BoolLit(False, st.span), st.span)
                self.block(st.else_, self.emit("else", BOOL, other, st))
        elif isinstance(st, S.For):
            ty = self.c.refs[id(st)].ty
            start = self.c.const_values[id(st.start)]
            end = self.c.const_values[id(st.end)]
            for k in range(start, end):
                self.loops[st.var] = (k, ty)
                self.block(st.body, guard)
            self.loops.pop(st.var, None)

    def assign(self, st: S.Assign, guard) -> None:
        lv = st.target
        local = self.c.refs[id(lv)]
        old = S.Name(self.names[lv.name], lv.name_span)
        value = self.expr(st.value)
        sp = st.span
        if lv.index is not None or lv.hi is not None:
            width = local.ty.width
            if lv.index is not None:
                hi = lo = self.constant(lv.index)
            else:
                hi, lo = self.c.const_values[id(lv.hi)], self.c.const_values[id(lv.lo)]
            if hi is not None and hi < width:  # `{x[W-1:hi+1], v, x[lo-1:0]}`
                if not has_own_type(value):  # a concatenation's parts need types of their own
                    value = self.emit("value", BOOL if lv.index is not None else uint(hi - lo + 1), value, st)
                value = self.splice(old, width, hi, lo, value, local.ty, sp)
            else:  # a dynamic index (a proof obligation on the read), or one out of range (T005)
                part = S.Index(old, self.expr(lv.index), sp)
                flip = S.Cast(S.Binary("^", part, value, sp), S.TypeRef(str(local.ty), sp), sp)
                value = S.Binary("^", old, S.Binary("<<", flip, self.expr(lv.index), sp), sp)
        if guard is not None:
            value = S.IfExpr(guard, value, old, sp)
        self.emit(lv.name, local.ty, value, st)

    @staticmethod
    def splice(old: S.Name, width: int, hi: int, lo: int, value, ty: Ty, sp: S.Span):
        bits_of = old if ty.is_int else S.Cast(old, S.TypeRef(f"u{width}", sp), sp)  # a struct: its bits
        if not ty.is_int:  # a field's value (an enum, a struct) as bits too
            value = S.Cast(value, S.TypeRef(f"u{hi - lo + 1}", sp), sp)

        def bits(h: int, low: int):
            return S.Slice(bits_of, S.IntLit(h, None, str(h), sp), S.IntLit(low, None, str(low), sp), sp)
        parts = ([bits(width - 1, hi + 1)] if hi < width - 1 else []) + [value] + ([bits(lo - 1, 0)] if lo else [])
        whole = S.Concat(tuple(parts), sp) if len(parts) > 1 else value
        if not ty.is_int or ty.signed or len(parts) == 1:
            return S.Cast(whole, S.TypeRef(ty.enum if not ty.is_int else str(ty), sp), sp)
        return whole

    def constant(self, e) -> int | None:
        """The value of an index or an unsigned `let` in this copy of the body when it is a
        constant (literals, loop variables, consts), else None. Typed on the side, as an index
        (a plain literal takes the least type that holds it); what that reports is dropped."""
        copy = self.expr(e)
        if any(n.name not in self.c.consts for n in subnodes(copy, S.Name)):
            return None
        start = len(self.c.diags)
        self.c.index_expr(copy, Ctx("fn"), None)
        value = self.c.const_eval(copy)
        clean = len(self.c.diags) == start
        del self.c.diags[start:]
        for node in subnodes(copy, object):  # the copy dies here: another node may take its ids
            for table in (self.c.types, self.c.const_values, self.c.refs):
                table.pop(id(node), None)
        return value if clean else None

    def emit(self, name: str, ty: Ty, value, st) -> S.Name:
        self.count += 1
        if self.count > limits.MAX_FN_LETS:
            raise overrun.exceeded("L011", f"the body of fn `{S.written(self.f.name)}` unrolls to more than "
                                           f"{limits.MAX_FN_LETS:,} steps (each `let`, assignment and `if` in "
                                           "each iteration is one)", self.f.name_span,
                                   "loop fewer times, or move the work into module logic (a `for` in a "
                                   "`comb` block) or a register that iterates over cycles")
        fresh = f"{name}#{self.count}"
        self.loops.pop(name, None)  # (a constant `let` of that name in an earlier block)
        span = st.target.name_span if isinstance(st, S.Assign) else getattr(st, "name_span", st.span)
        self.out.append(S.Let(fresh, S.TypeRef(str(ty), span), value, st.span, span))
        if name not in ("if", "else", "value"):
            self.names[name] = fresh
        return S.Name(fresh, span)

    def default(self, ty: Ty, span: S.Span):
        """A value of `ty` for a `let` whose branch is not taken (never read then)."""
        if ty.kind == "enum":
            info = self.c.enums[ty.enum]
            return S.Path(ty.enum, next(iter(info.variants)), span)
        if not ty.is_int:  # a struct: zero bits, cast (a bare literal is no struct)
            return S.Cast(S.IntLit(0, f"u{ty.width}", f"0u{ty.width}", span), S.TypeRef(ty.enum, span), span)
        return S.IntLit(0, None, "0", span)

    # ---- expressions -----------------------------------------------------------------------
    def expr(self, e):
        return self.copy_with(e, self.names, self.loops)

    @staticmethod
    def copy_with(e, names: dict[str, str], loops: dict[str, tuple[int, Ty]]):
        """A fresh copy of an expression (every node new: each copy is typed on its own), each
        variable read as its newest `let`, each loop variable as a literal of its type."""
        if isinstance(e, tuple):
            return tuple(Unroller.copy_with(x, names, loops) for x in e)
        if isinstance(e, S.Name):
            if e.name in loops:
                value, ty = loops[e.name]
                return S.IntLit(value, f"u{ty.width}", f"{value}u{ty.width}", e.span, origin=e.name)
            return S.Name(names.get(e.name, e.name), e.span)
        if isinstance(e, S.Unary) and e.op == "-" and isinstance(e.operand, S.Name) and e.operand.name in loops:
            # `-i` negates a value of i's type (wrapping), where `-3u3` would be the literal -3
            lit = Unroller.copy_with(e.operand, names, loops)
            return S.Unary("-", S.Cast(lit, S.TypeRef(lit.suffix, e.operand.span), e.operand.span), e.span)
        if not dataclasses.is_dataclass(e) or isinstance(e, (S.Span, S.TypeRef)):
            return e
        return type(e)(**{f.name: Unroller.copy_with(getattr(e, f.name), names, loops)
                          for f in dataclasses.fields(e)})
