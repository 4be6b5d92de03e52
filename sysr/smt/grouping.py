"""One bug, one error: the failures of a module's proofs grouped under the first real one.

A bug usually breaks several properties at once, and every property that fails from reset is
dropped from the induction's lemmas, so properties that need it come back as not inductive:
one wrong wrap value gave six errors. `group(diags)` keeps, among the V002 and V007 of one
module, the first failure from reset (a V002 with a trace: the earliest failing cycle, then the
first in the source) as the one error, and lists every other failure and unproven property
under it, each at its own line, with what the checker knows of it: it fails in the same trace,
it fails on another trace, or it is not inductive once the failed properties are dropped (which
says nothing about whether it holds). The properties' own verdicts and traces are unchanged
(`--json` lists them all). Without a V002, the V007s stay as they are: each wants an invariant.
Other diagnostics (V001, V003, warnings) are never grouped.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .. import limits
from ..diagnostics import Diagnostic, Related

GROUPED = ("V002", "V007")


def group(diags: list[Diagnostic]) -> list[Diagnostic]:
    real = [d for d in diags if d.code == "V002" and d.trace is not None]
    if not real:
        return diags
    first = min(real, key=lambda d: (d.trace.failing_row, d.span.line, d.span.column))
    rest = [d for d in diags if d.code in GROUPED and d is not first]
    if not rest:
        return diags
    related = tuple(Related(d.span, follow_on(d, first)) for d in
                    sorted(rest, key=lambda d: (d.span.line, d.span.column)))
    n = len(rest)
    shown = "" if n <= limits.MAX_RELATED else f", the first {limits.MAX_RELATED} shown"
    if n == 1:
        note = ("1 other property of this module fails or is not proven (the note above): often it follows "
                "from this failure, and a property that fails cannot serve as a lemma for the others. Fix "
                "this one first and check again")
    else:
        note = (f"{n} other properties of this module fail or are not proven (the notes above{shown}): often "
                "they follow from this failure, and a property that fails cannot serve as a lemma for the "
                "others. Fix this one first and check again")
    lead = replace(first, related=first.related + related, notes=first.notes + (note,))
    return [lead if d is first else d for d in diags if d is first or d not in rest]


def follow_on(d: Diagnostic, first: Diagnostic) -> str:
    """What a grouped diagnostic says, in the note under the first failure."""
    m = re.match(r"(.*?)( may not hold| may be out of range| may be zero| is not inductive)", d.message)
    what, verb = (m.group(1), m.group(2)) if m else (d.message, "")
    if d.code == "V002":
        cycle = re.search(r"cycle (\d+)", d.message)
        where = f", in cycle {cycle.group(1)}" if cycle else ""
        said = "fails" if verb == " may not hold" else verb.strip()
        return f"{what} {said} too{where} (V002)"
    return f"{what} is not inductive without the failed properties as lemmas (V007)"
