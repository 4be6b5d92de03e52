"""Properties over time: `prev(e, n)`, and the bounded forms `a ==> next(b, n)` and `a ==> within(b, n)`.

`prev(e, n)` is `e` n cycles back (§5.2); its count is a constant from 1 to
`limits.MAX_CYCLES_BACK` (T013), a parameter included. The bounded forms say what follows a
trigger (§5.2): `a ==> next(b, n)`, `b` holds n cycles after a cycle with `a`; `a ==> within(b, n)`,
`b` holds in that cycle or one of the n after it. They stand only as the whole right side of a
property's `==>` (S008; a fn named `next` or `within` takes the name instead), and mean, in the cycle where the obligation falls due, a property
about the past, which the checker turns them into once here (`Design.specs` returns it):

    a ==> next(b, n)      is   prev(a, n) ==> b
    a ==> within(b, n)    is   prev(a, n) ==> b || prev(b, 1) || ... || prev(b, n)

So every later stage (the proof, `sysr sim`, `--formal`, the vacuity and S007 checks) sees only
`prev`, whose history registers and guard carry the bounded forms' meaning: a reset between the
trigger and the deadline cancels the obligation, and one whose deadline lies beyond the depth
of a bounded check is not checked there. A `prev` inside the expanded `prev(a, n)` is a
`prev` of a `prev`, which the user cannot write (S004) but the later stages read as its sum.
"""

from __future__ import annotations

from dataclasses import replace

from ... import limits
from ...types import BOOL, bits_for, uint
from .. import syntax as S
from .context import CheckerBase, Ctx

EXAMPLE = "`ensures go ==> next(done, 2);` or `ensures req ==> within(gnt, 3);`"


class Temporal(CheckerBase):
    """The checks and the expansion of `prev(e, n)`, `next` and `within`."""

    def spec_item(self, item: S.Spec) -> None:
        """Type a property; a bounded form on the right of its `==>` is allowed there, and
        expanded into `prev` when it is well typed."""
        future = self.future_call(item)
        if future is not None and future.func in self.fns:  # a fn of the file's takes the name
            future = None
        if future is not None:
            self.future_ok.add(id(future))
        errors = len(self.diags)
        self.expr(item.expr, Ctx(item.kind, item=id(item)), BOOL)
        if future is not None and len(self.diags) == errors:
            n = self.const_values.get(id(future.args[1])) if len(future.args) == 2 else 1
            if n is not None:
                self.expanded[id(item)] = replace(item, expr=self.expand(item.expr, n))

    @staticmethod
    def future_call(item: S.Spec) -> S.Call | None:
        e = item.expr
        if (item.kind != "cover" and isinstance(e, S.Binary) and e.op == "==>" and isinstance(e.right, S.Call)
                and e.right.func in S.FUTURE):
            return e.right
        return None

    def cycle_count(self, arg, ctx: Ctx, func: str) -> int | None:
        """The constant count of `prev(e, n)`, `next(b, n)` or `within(b, n)`: 1 to MAX_CYCLES_BACK."""
        n = self.const_int(arg, ctx, f"the cycles of `{func}` are a constant: a literal, a const or a parameter")
        if n is not None and not 1 <= n <= limits.MAX_CYCLES_BACK:
            note = ("for this cycle, write the expression itself" if n == 0 else
                    "for a longer wait, count the cycles with a ghost register (§7.3)")
            self.err("T013", f"`{func}` counts 1 to {limits.MAX_CYCLES_BACK} cycles, not {n}", arg.span, note)
            return None
        return n

    def call_future(self, e: S.Call, ctx: Ctx, expected):
        arity = (1, 2) if e.func == "next" else (2,)
        if len(e.args) not in arity:
            form = "`next(b)` or `next(b, n)`" if e.func == "next" else "`within(b, n)`"
            self.err("T009", f"`{e.func}` is written {form}, got {len(e.args)} argument(s)", e.span)
            return None
        if id(e) not in self.future_ok:
            self.err("S008", f"`{e.func}` stands only as the whole right side of `==>` in a `requires`, "
                             "`ensures`, `invariant` or `assert`", e.span,
                     f"write the trigger on the left: {EXAMPLE}")
        if len(e.args) == 2:
            self.cycle_count(e.args[1], ctx, e.func)
        self.expr(e.args[0], ctx, BOOL, cond=True)
        return BOOL

    # ---- the expansion -------------------------------------------------------------------
    def expand(self, e: S.Binary, n: int) -> S.Binary:
        call = e.right
        b = call.args[0]
        cons = b
        if call.func == "within":
            for k in range(1, n + 1):
                cons = self.typed(S.Binary("||", cons, self.prev_of(b, k, call.span), call.span), BOOL)
        return self.typed(S.Binary("==>", self.prev_of(e.left, n, e.left.span), cons, e.span), BOOL)

    def prev_of(self, x, n: int, span: S.Span) -> S.Call:
        count = S.IntLit(n, None, str(n), span)
        self.types[id(count)] = uint(bits_for(n))
        self.const_values[id(count)] = n
        return self.typed(S.Call("prev", (x, count), x.span, span), self.types.get(id(x), BOOL))

    def typed(self, node, ty):
        self.types[id(node)] = ty
        return node
