"""The specification rules (S001-S006) and holes.

Where a signal may be read: design logic never reads ghost state (S002), ghost logic and
contracts never read the implementation (S001), an invariant names no input (S003); ghost state
is driven by ghost blocks only (S005); `prev` only in specifications and ghost logic, never
nested (S004); quantifiers only in properties (S006). A hole `?name` takes the type its context
expects and is recorded for the structure pass to report (H001).
"""

from __future__ import annotations

from dataclasses import replace

from ...model import Local, Signal
from ...types import BOOL, uint
from .. import syntax as S
from ..structure import lvalues
from .context import DESIGN_WHERE, GHOST_WHERE, SPEC_WHERE, CheckerBase, Ctx

MAX_QUANT_BITS = 8  # widest type a quantified variable ranges over


class SpecRules(CheckerBase):
    """The rules on where specifications, ghost state, `prev` and quantifiers may appear."""

    def e_Hole(self, e: S.Hole, ctx, expected):
        self.holes.append((e, expected))
        return expected

    def block_ghostness(self, item) -> bool:
        """Whether to check a block as ghost logic. A block that assigns only state of the other
        kind (ghost or design) is missing or has an extra `ghost`: one error for the block."""
        sigs = [self.signals[lv.name] for lv in lvalues(item.body) if lv.name in self.signals]
        if not sigs or any(sig.ghost == item.ghost for sig in sigs):
            return item.ghost
        kw = "comb" if isinstance(item, S.CombBlock) else "seq"
        names = ", ".join(dict.fromkeys(f"`{S.written(sig.name)}`" for sig in sigs))
        at = S.Span(item.span.line, item.span.column, item.span.line,
                    item.span.column + len(kw) + (6 if item.ghost else 0))
        if item.ghost:
            self.err("S005", f"this `ghost {kw}` block assigns only design state ({names})", at,
                     f"design state is driven by design logic: write `{kw}` without `ghost`")
        else:
            self.err("S005", f"this `{kw}` block assigns only ghost state ({names})", at,
                     f"ghost state is driven by ghost logic: write `ghost {kw}`")
        return not item.ghost

    def read_rules(self, sig: Signal, span: S.Span, ctx: Ctx) -> None:
        w = ctx.where
        if w in DESIGN_WHERE and sig.ghost:
            self.err_once(("S002", sig.name), "S002",
                          f"design logic reads {sig.describe()}; ghost state exists only for specifications",
                          span, "ghost state is never lowered to Verilog; compute the value with design logic instead")
        elif w in GHOST_WHERE and not sig.ghost and not sig.is_port:
            self.err_once(("S001", sig.name, "ghost"), "S001",
                          f"ghost logic reads {sig.describe()}, which is part of the implementation", span,
                          "ghost logic may read ports, ghost state and `prev(...)`; keep a ghost copy of what "
                          "the model needs, and relate design state to it with an `invariant` or `assert`")
        elif w in ("requires", "ensures") and not sig.ghost and not sig.is_port:
            self.err_once(("S001", ctx.item), "S001",
                          f"`{w}` names {sig.describe()}, which is part of the implementation", span,
                          f"a contract may read ports, ghost state, consts and fns; write `assert` instead of "
                          f"`{w}` for a property about the implementation", what=sig.describe())
        elif w == "invariant" and sig.is_input:
            self.err_once(("S003", sig.name), "S003",
                          f"an invariant is about state, but it names the {sig.describe()}", span,
                          "use `assert` for a property that reads inputs")

    def call_prev(self, e: S.Call, ctx: Ctx, expected):
        if len(e.args) not in (1, 2):
            self.err("T009", f"`prev` is written `prev(e)` or `prev(e, n)`, got {len(e.args)} argument(s)", e.span)
            return None
        if ctx.where not in SPEC_WHERE and ctx.where not in GHOST_WHERE:
            self.err("S004", "`prev` may be used only in specifications and ghost logic", e.span,
                     "in design logic, keep the previous value in a register")
        elif ctx.in_prev:
            self.err("S004", "`prev` cannot be nested; `prev(x, 2)` is `x` two cycles back", e.span)
        if len(e.args) == 2:
            self.cycle_count(e.args[1], ctx, "prev")
        return self.operand(e.args[0], replace(ctx, in_prev=True), expected)

    def e_Quant(self, e: S.Quant, ctx: Ctx, expected):
        if ctx.where not in SPEC_WHERE and ctx.where != "fn":
            self.err("S006", f"`{e.kind}` may be used only in properties (and fns called from them)", e.span,
                     "in design logic, write a `for` loop")
        t = self.resolve_type(e.ty)
        if t is not None and (t.kind != "uint" or t.width > MAX_QUANT_BITS):
            self.err("T008", f"a quantified variable ranges over an unsigned type of at most {MAX_QUANT_BITS} bits, "
                             f"not `{t}`", e.ty.span)
            t = None
        local = Local(e.var, t or uint(1), "quant", e.var_span)
        self.refs[id(e)] = local
        if e.var in ctx.scope or e.var in self.signals or e.var in self.consts:
            self.err("N002", f"`{S.written(e.var)}` is already defined; a quantified variable needs a new name",
                     e.var_span)
        self.expr(e.body, ctx.bind(local), BOOL, cond=True)
        return BOOL

    def ghost_assignment(self, sig: Signal, span: S.Span, ctx: Ctx) -> None:
        """S005 for one assignment: ghost blocks drive only ghost state, design blocks only design state."""
        ghost_ctx = ctx.where in GHOST_WHERE
        if sig.ghost == ghost_ctx or not (sig.is_comb or sig.is_state):
            return
        if ghost_ctx:
            self.err_once(("S005", sig.name), "S005",
                          f"ghost logic assigns {sig.describe()}; ghost blocks drive only ghost state",
                          span, "assign design state in a `comb` or `seq` block without `ghost`")
        else:
            self.err_once(("S005", sig.name), "S005",
                          f"design logic assigns {sig.describe()}; ghost state is driven only by "
                          "`ghost comb` and `ghost seq` blocks", span)

    def quant_fn_call(self, e: S.Call, ctx: Ctx) -> None:
        """S006 for a call of a fn that uses a quantifier: only properties (and fns) may make it."""
        if ctx.where not in SPEC_WHERE and ctx.where != "fn" and e.func in self.quant_fns:
            self.err("S006", f"`{S.written(e.func)}` uses a quantifier, so it may be called only from properties",
                     e.span,
                     "in logic, compute the value with a `for` loop in a `comb` block")
