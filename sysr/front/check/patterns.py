"""Match patterns: each arm's patterns against the subject's type, then exhaustiveness (T007).

Patterns of the wrong kind are usually one mistake (the subject is not what was meant): one
error for the match, and the exhaustiveness check is skipped.
"""

from __future__ import annotations

from ...diagnostics import Related
from ...types import Ty, from_int
from .. import syntax as S
from .context import CheckerBase


class Patterns(CheckerBase):
    """Checking the arms of `match` statements and expressions."""

    # ---- patterns --------------------------------------------------------------------
    def match_arms(self, subject, arm_patterns, sty: Ty | None, span: S.Span) -> None:
        """Check every arm's patterns against the subject's type, then exhaustiveness.

        Patterns of the wrong type are one mistake (usually the subject is not what was meant):
        reported once, and the exhaustiveness check is skipped.
        """
        if sty is None:
            return
        if sty.kind == "struct":
            self.err("T008", f"cannot match on the struct `{sty}`", subject.span,
                     f"match on one of its fields, `match s.{S.written(sty.fields[0][0])} {{ ... }}`, or compare "
                     "whole structs with `==`")
            return
        fits = [(p, self.pattern(p, sty)) for pats in arm_patterns for p in pats]
        bad = [p for p, ok in fits if ok is False]
        if bad:
            p = bad[0]
            self.err("T001", f"pattern `{_pattern_text(p)}` {self.pattern_kind(p)} but the match is on `{sty}`",
                     p.span, *self.pattern_hint(sty),
                     related=[Related(subject.span, f"this has type `{sty}`")])
            return
        if all(ok for _, ok in fits):  # an unknown variant is reported; coverage would mislead
            self.exhaustive(sty, arm_patterns, span)

    def pattern(self, p, sty: Ty) -> bool | None:
        """Type one pattern against the subject type: False when its kind does not fit, None when
        it names an unknown enum or variant (reported)."""
        if isinstance(p, S.PatInt):
            if sty.kind == "enum":
                return False
            self.literal(p.lit, sty)
        elif isinstance(p, S.PatBool):
            return sty.is_bool
        elif isinstance(p, S.PatVariant):
            vt = self.path(p.path)
            return None if vt is None else vt == sty
        return True

    def pattern_kind(self, p) -> str:
        if isinstance(p, S.PatInt):
            return "is an integer"
        if isinstance(p, S.PatBool):
            return "is a bool"
        return f"is a variant of `{p.path.enum}`"

    @staticmethod
    def pattern_hint(sty: Ty) -> tuple[str, ...]:
        if sty.kind == "enum":
            enum = S.written(sty.enum)
            return (f"write variants of `{enum}`, e.g. `{enum}::NAME`, or match on another value",)
        if sty.is_bool:
            return ("write `true` and `false`, or match on another value",)
        return (f"write integer literals that fit `{sty}`, or match on another value",)

    def pattern_values(self, pats, sty: Ty) -> set[int] | None:
        """The values a list of patterns covers; None for a wildcard."""
        out: set[int] = set()
        for p in pats:
            if isinstance(p, S.PatWild):
                return None
            if isinstance(p, S.PatInt):
                out.add(from_int(p.lit.value, sty.width))
            elif isinstance(p, S.PatBool):
                out.add(int(p.value))
            elif isinstance(p, S.PatVariant):
                info = self.enums.get(p.path.enum)
                if info and p.path.variant in info.variants:
                    out.add(info.variants[p.path.variant])
        return out

    def exhaustive(self, sty: Ty | None, arm_patterns, span: S.Span) -> None:
        if sty is None:
            return
        covered: set[int] = set()
        for pats in arm_patterns:
            vals = self.pattern_values(pats, sty)
            if vals is None:
                return
            covered |= vals
        if sty.kind == "enum":
            info = self.enums[sty.enum]
            missing = [n for n, v in info.variants.items() if v not in covered]
            if missing:
                shown = ", ".join(f"{S.written(sty.enum)}::{S.written(n)}" for n in missing)
                self.err("T007", f"match is not exhaustive: missing {shown}",
                         span, "add the missing arms, or a `_ => ...` arm")
            return
        if sty.width <= 16 and len(covered) == 1 << sty.width:
            return
        if sty.width <= 16:
            missing = sorted(set(range(1 << sty.width)) - covered)
            shown = ", ".join(str(v) for v in missing[:4]) + (", ..." if len(missing) > 4 else "")
            self.err("T007", f"match on `{sty}` is not exhaustive: missing {shown}", span,
                     "add a `_ => ...` arm")
        else:
            self.err("T007", f"match on `{sty}` is not exhaustive", span, "add a `_ => ...` arm")


def _pattern_text(p) -> str:
    if isinstance(p, S.PatInt):
        return p.lit.text
    if isinstance(p, S.PatBool):
        return str(p.value).lower()
    if isinstance(p, S.PatVariant):
        return f"{p.path.enum}::{p.path.variant}"
    return "_"
