"""The checking pipeline in one place: parse, names and types, structure, then proofs.

`analyze` runs the static stages and returns the design with its diagnostics; `check` adds
verification when the static stages found no error. The command line and the lowering call
these; nothing user-facing raises.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .diagnostics import Diagnostic, Severity, sort_key
from .front.check import check_names_types
from .front.parse import parse
from .front.structure import check_structure
from .model import Design


@dataclass
class Options:
    depth: int = 20
    induction: int = 2
    timeout: float = 30.0
    verify: bool = True


@dataclass
class Outcome:
    design: Design | None
    diagnostics: list[Diagnostic]
    timing: dict[str, float] = field(default_factory=dict)
    properties: list[dict] = field(default_factory=list)
    verified: bool = False  # whether the proofs ran

    @property
    def accepted(self) -> bool:
        return not any(d.severity == Severity.ERROR for d in self.diagnostics)


def analyze(text: str) -> Outcome:
    """Parse and run the static checks."""
    timing: dict[str, float] = {}
    t0 = time.perf_counter()
    tree, diags = parse(text)
    timing["parse_s"] = time.perf_counter() - t0
    if tree is None:
        return Outcome(None, diags, timing)
    t1 = time.perf_counter()
    design, more = check_names_types(tree)
    diags += more
    if design is not None and not any(d.code.startswith("P") for d in diags):
        diags += check_structure(design)
    timing["static_s"] = time.perf_counter() - t1
    diags.sort(key=sort_key)
    return Outcome(design, _dedupe(diags), timing)


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    out = []
    for d in diags:
        key = (d.code, d.span, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def check(text: str, options: Options | None = None) -> Outcome:
    """Static checks, then (when they pass and verification is on) the proofs."""
    options = options or Options()
    outcome = analyze(text)
    if not outcome.accepted or outcome.design is None or not options.verify:
        return outcome
    try:
        from .smt.prove import verify
    except ImportError:  # the verifier is not built yet
        return outcome
    t0 = time.perf_counter()
    diags, props = verify(outcome.design, options, text)
    outcome.timing["verify_s"] = time.perf_counter() - t0
    outcome.diagnostics += diags
    outcome.diagnostics.sort(key=sort_key)
    outcome.properties = props
    outcome.verified = True
    return outcome
