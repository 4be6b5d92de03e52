"""The checking pipeline in one place: parse, names and types, structure, then proofs.

`analyze` runs the static stages and returns the design (the top module) and the whole
hierarchy with their diagnostics; `check` adds verification when the static stages found no
error: every module is proven on its own, with its instances' contracts (`sysr.smt.hier`). The command line and the lowering call
these; nothing user-facing raises. Both run on a thread with a deep stack (`limits.run_deep`),
and a stage that passes one of `sysr.limits` (or runs out of memory) ends the pipeline with that
stage's L diagnostic instead of an exception; the proofs end by `Options.time_limit`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from . import limits, overrun
from .diagnostics import Diagnostic, Severity, sort_key
from .front.check import check_names_types
from .front.parse import parse
from .front.structure import check_hierarchy
from .front.vacuous import never_checked
from .front.syntax import Span
from .model import Design, Hierarchy
from .source import text_problem

_START = Span(1, 1, 1, 2)


@dataclass
class Options:
    depth: int = 20
    induction: int = 2
    timeout: float = 30.0  # per solver query
    verify: bool = True
    time_limit: float = limits.DEFAULT_TIME_LIMIT_S  # all proofs of one check
    deadline: float | None = None  # time.monotonic() at which the proofs stop; set by `check`
    top: str | None = None  # the top module (None: the one no other module instantiates)
    cover_traces: bool = False  # a V010 note with its trace for each `cover` reached
    params: dict[str, int] = field(default_factory=dict)  # `--param NAME=VALUE`: the top's parameters


@dataclass
class Outcome:
    design: Design | None
    diagnostics: list[Diagnostic]
    timing: dict[str, float] = field(default_factory=dict)
    properties: list[dict] = field(default_factory=list)
    verified: bool = False  # whether the proofs ran
    hierarchy: Hierarchy | None = None  # every module; `design` is its top

    @property
    def accepted(self) -> bool:
        return not any(d.severity == Severity.ERROR for d in self.diagnostics)


def analyze(text: str, top: str | None = None, params: dict[str, int] | None = None) -> Outcome:
    """Parse and run the static checks (`top`: the top module's name, if not the default;
    `params`: values of the top's parameters)."""
    return limits.run_deep(_analyze, text, top, params)


def _analyze(text: str, top: str | None = None, params: dict[str, int] | None = None) -> Outcome:
    timing: dict[str, float] = {}
    problem = text_problem(text)
    if problem is not None:
        return Outcome(None, [problem], timing)
    t0 = time.perf_counter()
    parsed, limit = overrun.contained("parsing the design", _START, parse, text)
    timing["parse_s"] = time.perf_counter() - t0
    if limit is None:
        limit = overrun.too_many_signals(parsed[0]) if parsed[0] is not None else None
    if limit is not None:
        return Outcome(None, [limit], timing)
    tree, diags = parsed
    if tree is None:
        return Outcome(None, diags, timing)
    t1 = time.perf_counter()
    checked, limit = overrun.contained("checking the design", _START, _static, tree, top, params)
    timing["static_s"] = time.perf_counter() - t1
    if limit is not None:
        return Outcome(None, [limit], timing)
    hierarchy, diags = checked
    diags.sort(key=sort_key)
    design = hierarchy.top_design if hierarchy is not None else None
    return Outcome(design, _dedupe(diags), timing, hierarchy=hierarchy)


def _static(tree, top: str | None, params: dict[str, int] | None = None) -> tuple[Hierarchy | None, list[Diagnostic]]:
    hierarchy, diags = check_names_types(tree, top, params)
    if hierarchy is not None and not any(d.code.startswith("P") for d in diags):
        diags += check_hierarchy(hierarchy)
        for d in hierarchy.bottom_up():
            diags += never_checked(d)
    return hierarchy, diags


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
    if options.deadline is None:
        options = replace(options, deadline=time.monotonic() + options.time_limit)
    return limits.run_deep(_check, text, options)


def _check(text: str, options: Options) -> Outcome:
    outcome = _analyze(text, options.top, options.params)
    if not outcome.accepted or outcome.design is None or not options.verify:
        return outcome
    from .smt.hier import verify_hierarchy
    t0 = time.perf_counter()
    proved, limit = overrun.contained("proving the properties", outcome.design.module.name_span,
                                     _verify, verify_hierarchy, outcome.hierarchy, options, text)
    outcome.timing["verify_s"] = time.perf_counter() - t0
    if limit is not None:
        outcome.diagnostics.append(limit)
        return outcome
    diags, props = proved
    outcome.diagnostics += diags
    outcome.diagnostics.sort(key=failures_first)
    outcome.properties = props
    outcome.verified = True
    return outcome


def failures_first(d: Diagnostic) -> tuple:
    """The order of a checked design's diagnostics: the real failures from reset (V002, with
    their traces) first, then the others, each group in source order."""
    return (d.code != "V002", sort_key(d))


def _verify(verify, hierarchy: Hierarchy, options: Options, text: str):
    """The proofs; z3 running out of memory outside a query is a MemoryError like Python's."""
    from .smt.bounded import lift_memory_cap, out_of_memory
    try:
        return verify(hierarchy, options, text)
    except Exception as e:
        if out_of_memory(e):
            lift_memory_cap()  # so that freeing what z3 holds cannot fail
            raise MemoryError(str(e)) from None
        raise
