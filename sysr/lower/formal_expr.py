"""The expression and statement lowering of `sysr lower --formal`: `prev`, quantifiers, index checks.

`FormalExprs` extends the lowering's expression printer (`sysr.lower.expr.Exprs`) with what
only specifications and ghost logic contain, keeping the checker's semantics (`sysr.elab`):

- `prev(e)` reads a history register that takes the value of `e` at every clock edge, reset
  or not (registers with the same `e` are shared); `prev(e, n)` the last of a chain of n. A
  property that reads n cycles back is guarded by `prev_valid` (n = 1) or `prev_valid<n>`
  elsewhere (`sysr.lower.formal`).
- `forall i: uK :: body` and `exists` expand into `&&` / `||` over every value of `i`.
- Every dynamic index is a proof obligation, `i < limit` wherever the index is evaluated, and so
  is every divisor of `/` and `%`, `d != 0`: with `collect` on, the printer asserts it, guarded
  by the conditions under which the expression is evaluated (`ctx.guard`: `&&`, `||`, `==>`,
  `if`, `match`), and placed where the statement runs in a block (`ctx.pre`), or gathered for a
  module-level `always @*` otherwise. An obligation inside `prev(e)` is about the previous
  cycle, as in the checker (`sysr.elab.Elaborator.x_prev`): its condition goes into a history
  register of its own, asserted under the guard around `prev` and `prev_guard` (the previous
  cycle exists, had no reset, and with an asynchronous reset this one has none either).

`FormalStmts` lowers blocks for the index checks: a seq block's checks without its register
writes, a comb block's with its own signals renamed to shadow temporaries.
"""

from __future__ import annotations

from dataclasses import replace

from ..front import syntax as S
from ..types import bits_for
from .expr import ATOM, EQ, REL, UNARY, Ctx, Exprs, V, const_v, literal, operand, unary_operand
from .ir import Check
from .stmt import Stmts

TRUE = V("1'b1", ATOM, 1, 1)
FALSE = V("1'b0", ATOM, 1, 0)


class FormalUnsupported(Exception):
    """A design `--formal` cannot express with the checker's semantics (the message says why)."""


class FormalExprs(Exprs):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.collect = False  # assert index and divisor obligations
        self.obligations: list[Check] = []  # those found outside a block
        self.held: list | None = None  # inside `prev`: the obligations found, (condition, label, comment)
        self.history: dict[str, tuple[str, int, str]] = {}  # value text -> (register token, width, comment)
        self.prev_guard = lambda n=1: TRUE  # when a `prev(e, n)` is meaningful (`sysr.lower.formal` sets it)
        self.let_defs: dict[int, tuple] = {}  # id(Local) of a let -> (its value, the Ctx it was lowered in)
        self.shadow: dict[str, str] = {}  # signal -> the temporary that stands for it
        self.source = lambda span: ""  # the source text under a span, for comments
        self.labels = lambda base: base  # a unique label

    def signal_name(self, name: str) -> str:
        return self.shadow.get(name) or super().signal_name(name)

    def implies(self, guard: V | None, cond: V) -> V:
        if guard is None or guard.value == 1:
            return cond
        if guard.prec == UNARY and guard.text.startswith("!"):  # `!x ==> c` is `x || c`
            return self.binop("||", V(guard.text[1:], ATOM, 1), cond, 1)
        return self.binop("||", V("!" + unary_operand(guard), UNARY, 1), cond, 1)

    # ---- index and divisor obligations -----------------------------------------------------
    def tracking(self, ctx: Ctx) -> bool:
        return self.collect and ctx.guard is not None and ctx.guard.value != 0  # else never evaluated

    def index_used(self, i: V, limit: int, ctx: Ctx, what: str, span) -> None:
        if not self.tracking(ctx):
            return
        if i.value is not None:
            if i.value < limit:
                return
            cond = FALSE
        elif limit >= 1 << i.width:
            return  # every value of the index type is in range
        else:
            w = max(i.width, bits_for(limit))
            cond = V(f"{operand(i, REL)} < {literal(limit, w)}", REL, 1)
        self.oblige(cond, ctx, f"index_l{span.line}",
                    f"line {span.line}: {what} `{self.source(span)}` must be below {limit}")

    def divisor_used(self, d: V, ctx: Ctx, e: S.Binary) -> None:
        if not self.tracking(ctx) or (d.value is not None and d.value != 0):
            return
        cond = FALSE if d.value is not None else V(f"{operand(d, EQ)} != {literal(0, d.width)}", EQ, 1)
        line = e.right.span.line
        self.oblige(cond, ctx, f"divisor_l{line}", f"line {line}: divisor `{self.source(e.right.span)}` of "
                                                   f"`{self.source(e.span)}` must not be zero")

    def oblige(self, cond: V, ctx: Ctx, label: str, comment: str) -> None:
        """Assert `cond` where `ctx` is evaluated (inside `prev`: hand it to the `prev`)."""
        cond = self.implies(ctx.guard, cond)
        if self.held is not None:
            self.held.append((cond, label, comment))
            return
        check = Check(cond.text, "assert", self.labels(label), comment)
        if ctx.pre is not None:
            ctx.pre.append(check)
        else:
            self.obligations.append(check)

    # ---- prev --------------------------------------------------------------------------
    def e_Call(self, e: S.Call, ctx: Ctx) -> V:
        if e.func != "prev":
            return super().e_Call(e, ctx)
        held, self.held = self.held, []
        try:
            inner = self(e.args[0], ctx if ctx.guard is None else replace(ctx, guard=TRUE))
            if inner.local:  # it reads a block's temporaries: what they stand for, every cycle
                self.held = []
                inner = self.detached(e.args[0], ctx, collect=self.tracking(ctx))
        finally:
            found, self.held = self.held, held
        n = S.prev_cycles(e, self.d.const_values)
        arg = self.source(e.args[0].span) + (f", {n}" if n > 1 else "")
        for cond, label, comment in found:  # about the cycle n back: checked where that prev is meaningful
            ok = self.remembered(cond, n, "prev_ok", f"{comment}, in `prev({arg})`")
            self.oblige(ok, self.narrow(ctx, self.prev_guard(n)), label,
                        f"{comment} in the previous cycle (`prev({arg})`)" if n == 1 else
                        f"{comment} {n} cycles back (`prev({arg})`)")
        base = f"prev_{inner.text}" if inner.ident and "\x00" not in inner.text else "prev_value"
        return self.remembered(inner, n, base, f"prev({arg})")

    def remembered(self, v: V, n: int, base: str, comment: str) -> V:
        """`v` n cycles back: the last of a chain of n history registers."""
        for k in range(1, n + 1):
            v = V(self.remember(v, base + (f"_{k}" if k > 1 else ""),
                                comment + (f": {k} cycle{'s' if k > 1 else ''} back" if n > 1 else "")),
                  ATOM, v.width)
        return v

    def remember(self, v: V, base: str, comment: str) -> str:
        """The history register that holds `v` from the previous cycle (one per value)."""
        if v.rhs not in self.history:
            self.history[v.rhs] = (self.gen.temp(base, v.width), v.width, comment)
        return self.history[v.rhs][0]

    def detached(self, expr, ctx: Ctx, collect: bool = False) -> V:
        """`expr` as a module-level expression: the block's lets replaced by their values (with
        `collect`, its obligations tracked from here)."""
        saved, self.collect = self.collect, collect
        try:
            dctx = self.detached_ctx(ctx)
            v = self(expr, replace(dctx, guard=TRUE) if collect else dctx)
        finally:
            self.collect = saved
        if v.local:
            raise FormalUnsupported(
                f"line {expr.span.line}: `prev({self.source(expr.span)})` reads a value that its own comb block "
                "assigned; --formal cannot keep its history: compute it in a ghost wire first")
        return v

    def detached_ctx(self, ctx: Ctx) -> Ctx:
        env = {}
        for key, v in ctx.env.items():
            d = self.let_defs.get(key)
            env[key] = self(d[0], self.detached_ctx(d[1])) if d else v
        return Ctx("assign", env=env, params=ctx.params, block=ctx.block)

    # ---- quantifiers -------------------------------------------------------------------
    def e_Quant(self, e: S.Quant, ctx: Ctx) -> V:
        local = self.d.refs[id(e)]
        forall = e.kind == "forall"
        unit, op = (1, "&&") if forall else (0, "||")
        acc, decided = None, False
        for v in range(1 << local.ty.width):  # every instance, for the index checks in each
            body = self(e.body, ctx.bind(local, const_v(v, local.ty, loopy=True)))
            if body.value is not None:
                decided = decided or body.value != unit
                continue
            acc = body if acc is None else self.binop(op, acc, body, 1)
        if decided or acc is None:
            return FALSE if forall == decided else TRUE
        return acc


class FormalStmts(Stmts):
    """Statements for the `--formal` section; `drop_writes` leaves out a seq block's `<=`."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.drop_writes = False

    def let(self, st: S.Let, ctx: Ctx):
        ir, out = super().let(st, ctx)
        if ir:
            self.x.let_defs[id(self.d.refs[id(st)])] = (st.value, ctx)
        return ir, out

    def stmt(self, st, ctx: Ctx):
        if self.drop_writes and isinstance(st, S.NbAssign):
            self.assign(st, ctx)  # its index checks land in ctx.pre
            return [], ctx
        return super().stmt(st, ctx)


def checking(ctx: Ctx) -> Ctx:
    """`ctx` with index obligations tracked from here (evaluated unconditionally)."""
    return replace(ctx, guard=TRUE)
