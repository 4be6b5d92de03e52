"""Counts from run records, never percentages: per task and in total, one run or two side by side.

For each run: tasks, solved, solved on the first attempt, attempts used, results by kind (every
attempt's result), tokens in and out (marked approximate when any count was estimated).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from .records import RunRecord


class TaskCounts(BaseModel):
    task: str
    solved: bool
    first_attempt: bool
    attempts: int
    results: dict[str, int]
    tokens_in: int
    tokens_out: int
    approximate: bool


class RunCounts(BaseModel):
    label: str
    model: str
    lang: str
    tasks: int
    solved: int
    solved_first: int
    attempts: int
    results: dict[str, int]
    tokens_in: int
    tokens_out: int
    approximate: bool
    per_task: list[TaskCounts]


def load_run(path: Path) -> RunRecord:
    f = path / "run.json" if path.is_dir() else path
    return RunRecord.model_validate_json(f.read_text())


def counts(rec: RunRecord, label: str) -> RunCounts:
    per = []
    for name in sorted(rec.tasks):
        tr = rec.tasks[name]
        res: dict[str, int] = {}
        for a in tr.attempts:
            res[a.result] = res.get(a.result, 0) + 1
        per.append(TaskCounts(task=name, solved=tr.solved,
                              first_attempt=bool(tr.attempts) and tr.attempts[0].result == "PASS",
                              attempts=len(tr.attempts), results=dict(sorted(res.items())),
                              tokens_in=sum(a.tokens_in for a in tr.attempts),
                              tokens_out=sum(a.tokens_out for a in tr.attempts),
                              approximate=any(a.tokens_approximate for a in tr.attempts)))
    total: dict[str, int] = {}
    for t in per:
        for k, v in t.results.items():
            total[k] = total.get(k, 0) + v
    return RunCounts(label=label, model=rec.model, lang=rec.lang, tasks=len(per),
                     solved=sum(t.solved for t in per), solved_first=sum(t.first_attempt for t in per),
                     attempts=sum(t.attempts for t in per), results=dict(sorted(total.items())),
                     tokens_in=sum(t.tokens_in for t in per), tokens_out=sum(t.tokens_out for t in per),
                     approximate=any(t.approximate for t in per), per_task=per)


def _tok(n: int, approx: bool) -> str:
    return f"~{n}" if approx else str(n)


def render(runs: list[RunCounts]) -> str:
    """A plain-text report: totals side by side, then per task side by side."""
    lines = []
    head = ["", *[f"{r.label} ({r.model}, {r.lang})" for r in runs]]
    rows = [
        ["tasks", *[str(r.tasks) for r in runs]],
        ["solved", *[str(r.solved) for r in runs]],
        ["solved on the first attempt", *[str(r.solved_first) for r in runs]],
        ["attempts used", *[str(r.attempts) for r in runs]],
        ["tokens in", *[_tok(r.tokens_in, r.approximate) for r in runs]],
        ["tokens out", *[_tok(r.tokens_out, r.approximate) for r in runs]],
    ]
    kinds = sorted({k for r in runs for k in r.results})
    rows += [[f"results: {k}", *[str(r.results.get(k, 0)) for r in runs]] for k in kinds]
    lines += _table([head, *rows])
    tasks = sorted({t.task for r in runs for t in r.per_task})
    lines += ["", "per task (solved/attempts, first result, tokens in/out):"]
    trows = [["task", *[r.label for r in runs]]]
    for name in tasks:
        row = [name]
        for r in runs:
            t = next((x for x in r.per_task if x.task == name), None)
            if t is None:
                row.append("-")
                continue
            mark = "solved" if t.solved else "unsolved"
            row.append(f"{mark} {t.attempts} att, {_tok(t.tokens_in, t.approximate)}/"
                       f"{_tok(t.tokens_out, t.approximate)} tok")
        trows.append(row)
    lines += _table(trows)
    if any(r.approximate for r in runs):
        lines += ["", "~ marks token counts estimated at four characters a token."]
    return "\n".join(lines)


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
