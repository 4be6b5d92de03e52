"""Statements and blocks: module-level drivers, `comb` and `seq` blocks, `let`, `if`, `match`, `for`.

An assignment checks its operator against the block (`=` in `comb`, `<=` in `seq`) and its
target (a wire or output, a register or memory), then types the value against the target.
"""

from __future__ import annotations

from ...model import Local, Signal
from ...types import BOOL, Ty, bits_for, uint
from .. import syntax as S
from .context import CheckerBase, Ctx, has_hole, has_own_type

MAX_FOR = 4096  # iterations of one unrolled `for` loop


class Statements(CheckerBase):
    """Checking module items, blocks and statements."""

    def module_bodies(self, m: S.Module) -> None:
        for item in m.items:
            if isinstance(item, S.WireDecl) and item.value is not None:
                sig = self.signals.get(item.name)
                if sig is not None and sig.decl is item and sig.ty is not None:
                    self.expr(item.value, Ctx("ghost_logic" if item.ghost else "logic"), sig.ty)
            elif isinstance(item, S.ModAssign):
                self.mod_assign(item)
            elif isinstance(item, (S.CombBlock, S.SeqBlock)):
                ghost = self.block_ghostness(item)
                kind = ("ghost_" if ghost else "") + ("logic" if isinstance(item, S.CombBlock) else "seq")
                self.seq_reset = self.own_reset(item) if isinstance(item, S.SeqBlock) else None
                self.block(item.body, Ctx(kind))
            elif isinstance(item, S.Spec):
                self.spec_item(item)
            elif isinstance(item, S.InstDecl):
                self.inst_bindings(item)

    def own_reset(self, item: S.SeqBlock) -> str | None:
        """The reset a seq block names (`seq(clk, rst)`), or the module's only one: what the block
        never sees active (A021)."""
        if item.clock is not None and item.clock.resets:
            return item.clock.resets[0][0]
        resets = [s.name for s in self.signals.values() if s.kind in S.RESET_KINDS and s.is_port]
        return resets[0] if len(resets) == 1 else None

    def mod_assign(self, a: S.ModAssign) -> None:
        sig = self.signals.get(a.target)
        if sig is None:
            self.unknown_target(a.target, a.name_span, Ctx("logic"))
            self.expr(a.value, Ctx("logic"), None, quiet_literal=True)
            return
        ghost = sig.ghost
        if not sig.is_comb:
            self.target_kind_error("=", sig, a.name_span, "logic")
        self.refs[id(a)] = sig
        if sig.ty is not None and not sig.is_array:
            self.expr(a.value, Ctx("ghost_logic" if ghost else "logic"), sig.ty)

    def target_kind_error(self, op: str, sig: Signal, span: S.Span, where: str) -> None:
        if op == "=":
            if sig.is_state:
                hint = f"registers take `<=` inside a `seq` block: `{S.written(sig.name)} <= ...;`"
            elif sig.is_input:
                hint = "inputs are driven from outside the module"
            else:
                hint = "only wires and outputs take `=`"
            self.err_once(("A004", sig.name), "A004",
                          f"`=` assigns to {sig.describe()}, which is not a wire or combinational output", span, hint)
        else:
            if sig.kind == "out":
                hint = (f"to assign it in `seq`, make it a registered output: "
                        f"`{S.written(sig.name)}: out reg {sig.ty} = 0`; "
                        f"or drive it with `{S.written(sig.name)} = ...;` in a `comb` block")
            elif sig.kind == "wire":
                hint = (f"wires take `=` in a `comb` block or at module level; for state declare "
                        f"`reg {S.written(sig.name)}: {sig.ty} = 0;`")
            elif sig.is_input:
                hint = "inputs are driven from outside the module"
            else:
                hint = "only registers, register arrays and memories take `<=`"
            self.err_once(("A005", sig.name), "A005",
                          f"`<=` assigns to {sig.describe()}, which is not a register", span, hint)

    # ---- statements ------------------------------------------------------------------
    def block(self, stmts, ctx: Ctx) -> None:
        for st in stmts:
            ctx = self.stmt(st, ctx)

    def let(self, let: S.Let, ctx: Ctx) -> Ctx:
        if let.ty is not None:
            ty = self.resolve_type(let.ty)
            self.expr(let.value, ctx, ty, quiet_literal=ty is None)
        elif has_own_type(let.value) or has_hole(let.value):
            ty = self.expr(let.value, ctx, None)  # a hole here is reported with an unknown type
        else:
            ty = None
            self.err("T003", f"the type of `{S.written(let.name)}` is not known: its value has no type of its own",
                     let.name_span, f"write the type, e.g. `let {S.written(let.name)}: u8 = ...;`, or give a "
                                    "literal a suffix "
                                    "such as `1u8`")
        if let.name in ctx.scope or let.name in self.signals or let.name in self.consts:
            self.err("N002", f"`{S.written(let.name)}` is already defined; a `let` needs a new name", let.name_span)
        if let.mutable and ctx.where != "fn":
            self.err("A024", "`let mut` is only for fns: a block's `let` is assigned once", let.span,
                     "in a `comb` block, a value assigned several times is a `wire` (or an output)")
        # an unknown type (None) silences the uses; the error was reported
        kind = "mut" if let.mutable and ctx.where == "fn" else "let"
        local = Local(let.name, ty, kind, let.name_span)  # type: ignore[arg-type]
        self.refs[id(let)] = local
        return ctx.bind(local)

    def stmt(self, st, ctx: Ctx) -> Ctx:
        if isinstance(st, S.Let):
            return self.let(st, ctx)
        if ctx.where == "fn" and not isinstance(st, (S.If, S.For)):
            self.fn_statement(st, ctx)  # sysr.front.check.fnbody
            return ctx
        if isinstance(st, (S.Assign, S.NbAssign)):
            self.assignment(st, ctx)
        elif isinstance(st, S.If):
            self.expr(st.cond, ctx, BOOL, cond=True)
            self.block(st.then, ctx)
            if st.else_ is not None:
                self.block(st.else_, ctx)
        elif isinstance(st, S.Match):
            sty = self.expr(st.subject, ctx, None)
            self.match_arms(st.subject, [a.patterns for a in st.arms], sty, st.span)
            for arm in st.arms:
                self.block(arm.body, ctx)
        elif isinstance(st, S.For):
            self.for_stmt(st, ctx)
        return ctx

    def for_stmt(self, st: S.For, ctx: Ctx) -> None:
        why = ["a `for` loop is unrolled, so its bounds must be constants"]
        if ctx.where == "fn":
            why.append("a fn's parameter is a value, not a constant: loop to the largest bound and guard the body, "
                       "`for i in 0..8 { if (i as u4) < n { ... } }`")
        start = self.const_int(st.start, ctx, *why)
        end = self.const_int(st.end, ctx, *why)
        ty = None  # a bound with an error: the variable's uses are not checked
        if start is not None and end is not None:
            if end - start > MAX_FOR or end < start:
                self.err("T011", f"a for loop runs 0 to {MAX_FOR} times; {start}..{end} is out of range", st.span)
            else:
                ty = uint(bits_for(max(end - 1, 0)))
        local = Local(st.var, ty, "for", st.var_span)  # type: ignore[arg-type]
        self.refs[id(st)] = local
        if st.var in ctx.scope or st.var in self.signals:
            self.err("N002", f"`{S.written(st.var)}` is already defined; the loop variable needs a new name",
                     st.var_span)
        self.block(st.body, ctx.bind(local))

    def assignment(self, st, ctx: Ctx) -> None:
        lv: S.LValue = st.target
        op = "=" if isinstance(st, S.Assign) else "<="
        sig = self.signals.get(lv.name)
        if sig is None:
            self.unknown_target(lv.name, lv.name_span, ctx)
            self.expr(st.value, ctx, None, quiet_literal=True)
            return
        self.refs[id(lv)] = sig
        seq_ctx = ctx.where in ("seq", "ghost_seq")
        if op == "=" and seq_ctx:
            self.err("A004", "`=` in a `seq` block: registers take `<=`", st.span,
                     "use `<=` for registers, or `let NAME = ...;` for a temporary")
        elif op == "<=" and not seq_ctx:
            self.err("A005", "`<=` in a `comb` block: combinational signals take `=`", st.span,
                     "registers are assigned in `seq { ... }` blocks")
        elif op == "=" and not sig.is_comb:
            self.target_kind_error("=", sig, lv.name_span, ctx.where)
        elif op == "<=" and not sig.is_state:
            self.target_kind_error("<=", sig, lv.name_span, ctx.where)
        self.ghost_assignment(sig, lv.name_span, ctx)
        target_ty = self.lvalue_type(lv, sig, ctx)
        self.expr(st.value, ctx, target_ty, quiet_literal=target_ty is None)

    def lvalue_type(self, lv: S.LValue, sig: Signal, ctx: Ctx) -> Ty | None:
        if sig.ty is None:
            return None
        if lv.index is not None:
            if sig.is_array:
                self.index_expr(lv.index, ctx, sig.size)
                return sig.ty
            if not sig.ty.is_int:
                self.err("T008", f"cannot index {sig.describe()} of type `{sig.ty}`", lv.span)
                return None
            self.index_expr(lv.index, ctx, sig.ty.width)
            return BOOL
        if lv.fields:
            if sig.is_array:
                self.err("T012", f"{sig.describe()} cannot be assigned whole: assign one element", lv.span)
                return None
            return self.field_target(lv, sig.ty)
        if lv.hi is not None:
            if sig.is_array:
                self.err("T012", f"{sig.describe()} cannot be assigned whole: assign one element, "
                                 f"`{S.written(sig.name)}[i] <= ...;`", lv.span)
                return None
            return self.slice_bounds(lv.hi, lv.lo, sig.ty, ctx, lv.span)
        if sig.is_array:
            self.err("T012", f"{sig.describe()} cannot be assigned whole: assign one element, "
                             f"`{S.written(sig.name)}[i] <= ...;`", lv.span)
            return None
        return sig.ty
