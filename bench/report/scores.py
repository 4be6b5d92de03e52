"""The report of `bench score` as a person or a script reads it: the stages listed once, and each
result with the one stage that decided it.

Every candidate goes through the same stages in the same order, so the table (`table`) names
them once, in its caption, and each row shows only the stage that decided the result: the first
that did not pass, or the last one run when the design passed (the simulation). `--json`
(`compact`) is the same report as one object: `stages` once (each stage's tool and its
version), then per result its `task`, `lang`, `result`, the deciding `stage` (null when no stage
ran: `no-code`), its `detail` and `codes` (the checker's error codes), the candidate's time in
all stages (`duration_s`), `cached`, and for a sysr design the checker rejected on its proofs
alone its `shadow` (result, deciding stage, detail). The full per-stage records stay in run.json
and in the result cache.
"""

from __future__ import annotations

from rich.table import Table

from ..judge.results import CandidateResult, ScoreReport, StageResult


def decided_by(stages: list[StageResult]) -> StageResult | None:
    """The stage that decided a result: the first that did not pass, else the last one run."""
    return next((s for s in stages if s.verdict != "ok"), stages[-1] if stages else None)


def stage_list(results: list[CandidateResult]) -> list[StageResult]:
    """Each stage any result reached, once, in the order the scorer runs them: a stage only some
    results have (`resources`) goes after the stage it follows in them. A stage of the first
    result that reached it stands for all (the same tool and version in one run)."""
    order: list[StageResult] = []
    for r in results:
        after = -1
        for s in r.stages:
            at = next((i for i, o in enumerate(order) if o.stage == s.stage), None)
            if at is None:
                at = after + 1
                order.insert(at, s)
            after = at
    return order


def spent(r: CandidateResult) -> float:
    return sum(s.duration_s for s in r.stages)


def compact(report: ScoreReport) -> dict:
    """`bench score --json`: the report with the stages listed once (see the module docstring)."""
    def row(r: CandidateResult) -> dict:
        stage = decided_by(r.stages)
        out = {"task": r.task, "lang": r.lang, "result": r.result, "stage": stage.stage if stage else None,
               "detail": r.detail, "codes": stage.codes if stage else [], "duration_s": round(spent(r), 3),
               "cached": r.cached, "shadow": None}
        if r.shadow is not None:
            by = decided_by(r.shadow.stages)
            out["shadow"] = {"result": r.shadow.result, "stage": by.stage if by else None, "detail": r.shadow.detail}
        return out

    return {"lang": report.lang,
            "stages": [{"stage": s.stage, "tool": s.tool, "tool_version": s.tool_version}
                       for s in stage_list(report.results)],
            "results": [row(r) for r in report.results],
            "counts": report.counts.model_dump(), "wall_s": report.wall_s}


def table(report: ScoreReport) -> Table:
    """The table `bench score` prints: one row a candidate, the stages named once in the caption."""
    names = " ".join(s.stage for s in stage_list(report.results))
    t = Table(title=f"bench score --lang {report.lang}",
              caption=f"stages, in order: {names}" if names else None)
    for col in ("task", "result", "stage", "time (s)", "detail"):
        t.add_column(col, overflow="fold")
    for r in report.results:
        detail = r.detail.splitlines()[0][:100] if r.detail else ""
        stage = decided_by(r.stages)
        style = "green" if r.result == "PASS" else ("yellow" if r.result == "tool-failure" else "red")
        shadow = f" (shadow: {r.shadow.result})" if r.shadow else ""
        cached = " (cached)" if r.cached else ""
        t.add_row(r.task, f"[{style}]{r.result}[/{style}]{shadow}{cached}", stage.stage if stage else "",
                  f"{spent(r):.2f}", detail)
    return t
