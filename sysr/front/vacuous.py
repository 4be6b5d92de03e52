"""S007: a property whose `prev` guard means it is never checked (a warning, never an error).

A property that mentions `prev` is checked only in cycles whose previous cycle exists and did
not have the reset active; with an asynchronous reset, also not in a cycle with the reset
active (`sysr.elab`). A property whose condition (the left of `==>`, a conjunct of it, or of
an implication nested on the right) says the opposite, such as `prev(rst) ==> ...`, is
therefore true in every cycle where it is checked, whatever the design does: the checker
proves it and it states nothing. The same holds for a `requires`, which is then never assumed.

The analysis is deliberately small and sound (it never warns about a property that can be
checked): a conjunct is known false only when it is built from the reset port, boolean
literals, `prev`, `!`, `==`, `!=`, `&&` and `||`, and evaluates to false given what the guard
implies: the reset was inactive in the previous cycle (`prev(rst)` is false, `prev(rst_n)`
true), and with an asynchronous reset that it is inactive now (`arst` is false). A bounded form
is read as its `prev` expansion (`rst ==> next(b, n)` is `prev(rst, n) ==> b`), with a message of
its own: a reset between trigger and deadline cancels the obligation.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, Severity
from ..model import Design, Signal
from . import syntax as S


def never_checked(d: Design) -> list[Diagnostic]:
    if d.reset is None:
        return []
    out = []
    for spec in d.specs():
        if not S.mentions_prev(spec.expr):
            continue
        for cond in _conditions(spec.expr):
            culprit = next((c for c in _conjuncts(cond) if _Known(d).value(c, under_prev=False) == 0), None)
            if culprit is not None:
                out.append(_warning(d, spec, culprit))
                break
    return out


def _conditions(e):
    """The conditions a property is implied under: `a` and `c` in `a ==> (c ==> b)`."""
    while isinstance(e, S.Binary) and e.op == "==>":
        yield e.left
        e = e.right


def _conjuncts(e):
    if isinstance(e, S.Binary) and e.op == "&&":
        yield from _conjuncts(e.left)
        yield from _conjuncts(e.right)
    else:
        yield e


class _Known:
    """The value a small boolean expression has in every cycle in which a property with `prev`
    is checked, or None when that is not known."""

    def __init__(self, d: Design) -> None:
        self.d = d
        self.inactive = 1 if d.reset_active_low else 0  # the reset port's value when not resetting

    def value(self, e, under_prev: bool):
        if isinstance(e, S.BoolLit):
            return int(e.value)
        if isinstance(e, S.IntLit) and e.value in (0, 1) and self.d.types.get(id(e)) is not None \
                and self.d.types[id(e)].width == 1:
            return e.value
        if isinstance(e, S.Name):
            ref = self.d.refs.get(id(e))
            if isinstance(ref, Signal) and ref.name == self.d.reset and (under_prev or self.d.reset_async):
                return self.inactive
            return None
        if isinstance(e, S.Call) and e.func == "prev" and len(e.args) in (1, 2) and not under_prev:
            return self.value(e.args[0], under_prev=True)
        if isinstance(e, S.Unary) and e.op in ("!", "~"):
            v = self.value(e.operand, under_prev)
            return None if v is None else 1 - v
        if isinstance(e, S.Binary) and e.op in ("==", "!=", "&&", "||"):
            a, b = self.value(e.left, under_prev), self.value(e.right, under_prev)
            if e.op == "&&":
                return 0 if 0 in (a, b) else (1 if a == b == 1 else None)
            if e.op == "||":
                return 1 if 1 in (a, b) else (0 if a == b == 0 else None)
            if a is None or b is None:
                return None
            return int((a == b) == (e.op == "=="))
        return None


def _warning(d: Design, spec: S.Spec, culprit) -> Diagnostic:
    rst = S.written(d.reset)
    assumed = spec.kind == "requires"
    what = "assumed" if assumed else "checked"
    if d.reset_async:
        why = (f"a property that mentions `prev` is {what} only in cycles in which `{rst}` is not active and "
               "the previous cycle did not have it active either, and there this condition is false")
        fix = (f"state what holds during the reset without `prev` (`ensures {rst} ==> ...`: registers read as "
               "their reset values while an asynchronous reset is active)")
    else:
        why = (f"a property that mentions `prev` is {what} only in cycles whose previous cycle did not have "
               "the reset active, and there this condition is false")
        fix = ("to state what holds in the cycle after a reset, keep a ghost register that the reset sets: "
               "`ghost reg fresh: bool = true; ghost seq { fresh <= false; }` and then `ensures fresh ==> ...`")
    form = d.bounded_form(spec)
    if form is not None:  # `rst ==> next(b, n)`: the trigger's own reset cancels the obligation
        why = (f"a `{form.right.func}` is {what} only when no reset came between its trigger and its deadline, "
               "and this trigger holds only with the reset active")
        fix = ("state what follows a reset with a ghost register that the reset sets: `ghost reg fresh: bool "
               "= true; ghost seq { fresh <= false; }` and then `ensures fresh ==> ...`")
    verb = "never assumed" if assumed else "never checked"
    return Diagnostic("S007", f"this {spec.kind} is {verb}: {why}", culprit.span, Severity.WARNING,
                      (fix,))
