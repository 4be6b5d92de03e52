"""Shadow simulation: the checker measured against the testbench on every sysr attempt.

When the checker rejects a sysr design whose static checks pass (every error a V-code: a
property refuted or not proven), the scorer still lowers it and runs the Verilog stages and
the testbench (`Scorer.shadow_of` in `bench.judge.score`). That `Shadow` is recorded beside the
result and never changes it: the result stays `check-failed` and the model is never shown the shadow. Each sysr attempt is then one of
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

from ..judge.results import proofs_only
from ..loop.records import Attempt

KINDS = ("caught", "false_alarm", "missed", "agreed", "static_rejected", "unjudged")
OUTSIDE = ("no-code", "tool-failure")  # results that say nothing about the design


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
