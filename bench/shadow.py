"""Shadow simulation: the checker measured against the testbench on every sysr attempt.

When the checker rejects a sysr design whose static checks pass (every error a V-code: a
property refuted or not proven), the scorer still lowers it and runs the Verilog stages and
the testbench. That `Shadow` is recorded beside the result and never changes it: the result
stays `check-failed` and the model is never shown the shadow. Each sysr attempt is then one of
(`classify`):

- caught: the checker rejected a design the rest of the judge also fails;
- false_alarm: the checker rejected a design the testbench passes (a wrong or unprovable property);
- missed: the checker accepted a design that a later stage or the testbench failed;
- agreed: the checker accepted and the testbench passed;

and, outside the matrix, static_rejected (the static checks failed: nothing to lower or
simulate) and unjudged (no code, a tool that did not run on either side, or an attempt
recorded before shadow simulation existed).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from .records import Attempt, Shadow, StageResult

if TYPE_CHECKING:
    from .score import Scorer
    from .tasks import Task

KINDS = ("caught", "false_alarm", "missed", "agreed", "static_rejected", "unjudged")
OUTSIDE = ("no-code", "tool-failure")  # results that say nothing about the design


def proofs_only(check: StageResult) -> bool:
    """The checker rejected the design on its proofs alone (its static checks passed)."""
    return check.verdict == "check-failed" and bool(check.codes) and all(c.startswith("V") for c in check.codes)


def shadow_of(scorer: "Scorer", task: "Task", source: str) -> Shadow:
    """Lower a rejected sysr design and judge the Verilog as the scorer judges any Verilog."""
    from .score import Failed

    with tempfile.TemporaryDirectory(prefix=f"bench-shadow-{task.name}-") as d:
        work = Path(d)
        (work / "candidate.sysr").write_text(source)
        try:
            lower, verilog = scorer.sysr_lower(task, work)
        except Failed as f:
            return Shadow(result=f.stage.verdict, detail=f.stage.detail, stages=[f.stage])
    rest = scorer.score(task, "verilog", verilog)
    return Shadow(result=rest.result, detail=rest.detail, stages=[lower, *rest.stages])


def classify(a: Attempt) -> str:
    """Which cell of the checker-versus-testbench matrix a sysr attempt falls in (see KINDS)."""
    if a.result in OUTSIDE:
        return "unjudged"
    if a.result == "PASS":
        return "agreed"
    if a.result != "check-failed":
        return "missed"
    if a.shadow is not None:
        if a.shadow.result == "PASS":
            return "false_alarm"
        return "unjudged" if a.shadow.result in OUTSIDE else "caught"
    check = next((s for s in a.stages if s.stage == "check"), None)
    if check is not None and check.codes and not proofs_only(check):
        return "static_rejected"
    return "unjudged"  # scored before shadow simulation (no codes recorded)
