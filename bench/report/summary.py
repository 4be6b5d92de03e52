"""Counts from run records, with the estimators beside them: per task and in total, runs side by side.

For each run: tasks, solved, solved on the first attempt, attempts used, results by kind (every
attempt's result), tokens in and out (marked approximate when any count was estimated), and
their cost as a user pays it, in uncached input tokens (`bench.report.cost`). With
samples: per task the scorable samples n, those solved within the budget c and on the first
attempt, and pass@k averaged over tasks (`bench.report.passk`) for every k up to n, within the budget
and on the first attempt. A sample in which a tool did not run (any attempt a `tool-failure`)
is not scorable and is counted apart, as is a sample that has not finished; pass@k is `None`
where nothing was scorable. For sysr, the checker against the testbench (`bench.report.shadow`).
With the tasks of an imported suite (`bench summary --suite DIR`), the counts per category of
the suite (`by_category`), as upstream papers report them, the same over its race-sensitive tasks
(`race_sensitive` in task.json: `bench.suites.races`), and how many of its tasks the run's
language leaves out (invalid, or not expressible in sysr).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from .cost import WEIGHTS, Weights, cost, provider
from .passk import mean_pass_at
from ..loop.records import RunRecord, Sample, TaskRun
from .shadow import KINDS, classify
from ..judge.tasks import Task, left_out


class TaskCounts(BaseModel):
    task: str
    solved: bool  # some sample solved it
    first_attempt: bool  # some sample solved it on its first attempt
    attempts: int
    results: dict[str, int]
    tokens_in: int
    tokens_out: int
    approximate: bool
    samples: int = 0  # n: finished samples with no tool failure
    solved_samples: int = 0  # c, within the budget
    solved_first_samples: int = 0  # c, on the first attempt
    tool_failed_samples: int = 0
    unfinished_samples: int = 0
    pass_at: dict[str, float] | None = None  # k -> the estimator, within the budget
    pass_at_first: dict[str, float] | None = None  # k -> the estimator, on the first attempt
    checker: dict[str, int] | None = None  # sysr: bench.report.shadow.KINDS -> attempts
    tokens_cached: int = 0
    tokens_cache_write: int = 0


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
    samples_per_task: int = 1
    temperature: float | None = None
    samples: int = 0
    solved_samples: int = 0
    solved_first_samples: int = 0
    tool_failed_samples: int = 0
    unfinished_samples: int = 0
    pass_at: dict[str, float] | None = None
    pass_at_first: dict[str, float] | None = None
    checker: dict[str, int] | None = None
    tokens_cached: int = 0
    tokens_cache_write: int = 0
    categories: dict[str, dict[str, int]] | None = None  # with --suite: category -> tasks, solved, solved_first
    left_out: dict[str, int] | None = None  # with --suite: tasks the run's language leaves out, by why
    race_sensitive: dict[str, int] | None = None  # with --suite: its race-sensitive tasks: tasks, solved, solved_first
    cost: float = 0.0  # in uncached input tokens, weighted by cost_weights (bench.report.cost)
    cost_provider: str = "default"
    cost_weights: Weights | None = None


def load_run(path: Path) -> RunRecord:
    f = path / "run.json" if path.is_dir() else path
    return RunRecord.model_validate_json(f.read_text())


def _keyed(pass_at: dict[int, float] | None) -> dict[str, float] | None:
    return None if pass_at is None else {str(k): v for k, v in pass_at.items()}


def _add(into: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    for k, v in more.items():
        into[k] = into.get(k, 0) + v
    return into


def _finished(rec: RunRecord, s: Sample) -> bool:
    return s.done or s.solved or len(s.attempts) >= rec.budget


def task_counts(rec: RunRecord, tr: TaskRun) -> TaskCounts:
    samples = [s for s in tr.samples if s.k <= rec.samples]
    every = [a for s in samples for a in s.attempts]
    results: dict[str, int] = {}
    for a in every:
        results[a.result] = results.get(a.result, 0) + 1
    unfinished = [s for s in samples if not _finished(rec, s)]
    tool_failed = [s for s in samples if _finished(rec, s) and any(a.result == "tool-failure" for a in s.attempts)]
    scorable = [s for s in samples if _finished(rec, s) and s not in tool_failed]
    n = len(scorable)
    c = sum(s.solved for s in scorable)
    c_first = sum(bool(s.attempts) and s.attempts[0].result == "PASS" for s in scorable)
    checker = None
    if rec.lang == "sysr":
        checker = dict.fromkeys(KINDS, 0)
        for a in every:
            checker[classify(a)] += 1
    return TaskCounts(task=tr.task, solved=any(s.solved for s in samples),
                      first_attempt=any(s.attempts and s.attempts[0].result == "PASS" for s in samples),
                      attempts=len(every), results=dict(sorted(results.items())),
                      tokens_in=sum(a.tokens_in for a in every), tokens_out=sum(a.tokens_out for a in every),
                      approximate=any(a.tokens_approximate for a in every),
                      samples=n, solved_samples=c, solved_first_samples=c_first,
                      tool_failed_samples=len(tool_failed), unfinished_samples=len(unfinished),
                      pass_at=_keyed(mean_pass_at([(n, c)])), pass_at_first=_keyed(mean_pass_at([(n, c_first)])),
                      checker=checker, tokens_cached=sum(a.tokens_cached for a in every),
                      tokens_cache_write=sum(a.tokens_cache_write for a in every))


def counts(rec: RunRecord, label: str, weights: dict[str, Weights] | None = None) -> RunCounts:
    per = [task_counts(rec, rec.tasks[name]) for name in sorted(rec.tasks)]
    total = lambda field: sum(getattr(t, field) for t in per)  # noqa: E731
    checker = None
    if rec.lang == "sysr":
        checker = dict.fromkeys(KINDS, 0)
        for t in per:
            _add(checker, t.checker or {})
    results: dict[str, int] = {}
    for t in per:
        _add(results, t.results)
    table = weights or WEIGHTS
    who = provider(rec.model, table)
    spent = cost(total("tokens_in"), total("tokens_out"), total("tokens_cached"), total("tokens_cache_write"), table[who])
    return RunCounts(label=label, model=rec.model, lang=rec.lang, tasks=len(per),
                     cost=spent, cost_provider=who, cost_weights=table[who],
                     solved=sum(t.solved for t in per), solved_first=sum(t.first_attempt for t in per),
                     attempts=total("attempts"), results=dict(sorted(results.items())),
                     tokens_in=total("tokens_in"), tokens_out=total("tokens_out"),
                     approximate=any(t.approximate for t in per), per_task=per,
                     samples_per_task=rec.samples, temperature=rec.temperature, samples=total("samples"),
                     solved_samples=total("solved_samples"), solved_first_samples=total("solved_first_samples"),
                     tool_failed_samples=total("tool_failed_samples"),
                     unfinished_samples=total("unfinished_samples"),
                     pass_at=_keyed(mean_pass_at([(t.samples, t.solved_samples) for t in per])),
                     pass_at_first=_keyed(mean_pass_at([(t.samples, t.solved_first_samples) for t in per])),
                     checker=checker, tokens_cached=total("tokens_cached"),
                     tokens_cache_write=total("tokens_cache_write"))


def by_category(run: RunCounts, tasks: list[Task]) -> RunCounts:
    """The run's counts per category of the suite's tasks, and how many tasks its language leaves out."""
    category = {t.name: t.origin.category if t.origin else t.tags[0] for t in tasks}
    cats: dict[str, dict[str, int]] = {}
    for t in run.per_task:
        c = cats.setdefault(category.get(t.task, "not in the suite"), {"tasks": 0, "solved": 0, "solved_first": 0})
        c["tasks"] += 1
        c["solved"] += t.solved
        c["solved_first"] += t.first_attempt
    racy_names = {t.name for t in tasks if t.race_sensitive}
    racy = {"tasks": 0, "solved": 0, "solved_first": 0}
    for t in run.per_task:
        if t.task in racy_names:
            racy["tasks"] += 1
            racy["solved"] += t.solved
            racy["solved_first"] += t.first_attempt
    out: dict[str, int] = {}
    for t in tasks:
        why = left_out(t, run.lang)
        if why:
            key = why.split(":", 1)[0]
            out[key] = out.get(key, 0) + 1
    return run.model_copy(update={"categories": dict(sorted(cats.items())), "left_out": out,
                                  "race_sensitive": racy if racy_names else None})


def _tok(n: int, approx: bool) -> str:
    return f"~{n}" if approx else str(n)


def _shown_ks(pass_at: dict[str, float]) -> list[str]:
    """The k worth a column in plain text: 1, 2, 5, 10, 20, 50, 100 and the largest."""
    kmax = max(int(k) for k in pass_at)
    return [str(k) for k in sorted({k for k in (1, 2, 5, 10, 20, 50, 100) if k <= kmax} | {kmax})]


def _estimates(pass_at: dict[str, float] | None) -> str:
    if pass_at is None:
        return "pass@k: none (nothing scorable)"
    return ", ".join(f"pass@{k} {pass_at[k]:.3f}" for k in _shown_ks(pass_at))


CHECKER_ROWS = (("caught", "checker caught (rejected, testbench fails)"),
                ("false_alarm", "checker false alarm (rejected, testbench passes)"),
                ("missed", "checker missed (accepted, testbench fails)"),
                ("agreed", "checker agreed (accepted, testbench passes)"),
                ("static_rejected", "not in the matrix: static checks failed"),
                ("unjudged", "not in the matrix: no code, or a tool did not run"))


def render(runs: list[RunCounts]) -> str:
    """A plain-text report: totals side by side, then per task side by side."""
    lines = []
    sampled = any(r.samples_per_task > 1 for r in runs)
    some = " (by some sample)" if sampled else ""
    head = ["", *[f"{r.label} ({r.model}, {r.lang})" for r in runs]]
    rows = [
        ["tasks", *[str(r.tasks) for r in runs]],
        [f"solved{some}", *[str(r.solved) for r in runs]],
        [f"solved on the first attempt{some}", *[str(r.solved_first) for r in runs]],
        ["attempts used", *[str(r.attempts) for r in runs]],
        ["tokens in", *[_tok(r.tokens_in, r.approximate) for r in runs]],
        ["tokens out", *[_tok(r.tokens_out, r.approximate) for r in runs]],
    ]
    if any(r.tokens_cached or r.tokens_cache_write for r in runs):
        rows.append(["of tokens in: cache reads/writes", *[f"{r.tokens_cached}/{r.tokens_cache_write}" for r in runs]])
    rows.append(["cost, in uncached input tokens", *[_cost(r) for r in runs]])
    kinds = sorted({k for r in runs for k in r.results})
    rows += [[f"results: {k}", *[str(r.results.get(k, 0)) for r in runs]] for k in kinds]
    if sampled:
        rows += [
            ["samples per task (temperature)",
             *[f"{r.samples_per_task} ({'default' if r.temperature is None else r.temperature})" for r in runs]],
            ["samples scored (n)", *[f"{r.samples}" + _apart(r) for r in runs]],
            ["samples solved (c)", *[f"{r.solved_samples}; {_estimates(r.pass_at)}" for r in runs]],
            ["samples solved first attempt", *[f"{r.solved_first_samples}; {_estimates(r.pass_at_first)}"
                                               for r in runs]],
        ]
    else:
        rows += [["pass@1 (within budget / first attempt)",
                  *[_one(r.pass_at) + " / " + _one(r.pass_at_first) for r in runs]]]
    if any(r.checker is not None for r in runs):
        rows += [[text, *[str(r.checker[key]) if r.checker else "-" for r in runs]]
                 for key, text in CHECKER_ROWS]
    rows += _category_rows(runs)
    lines += _table([head, *rows])
    lines += _per_task(runs, sampled)
    if any(r.approximate for r in runs):
        lines += ["", "~ marks token counts estimated at four characters a token."]
    lines += ["", "pass@k: the unbiased estimate 1 - C(n-c,k)/C(n,k) of solving a task with k samples, "
                  "averaged over tasks; tool failures and unfinished samples are not scored."]
    return "\n".join(lines)


def _category_rows(runs: list[RunCounts]) -> list[list[str]]:
    names = sorted({c for r in runs for c in (r.categories or {})})
    rows = []
    for name in names:
        cells = []
        for r in runs:
            c = (r.categories or {}).get(name)
            cells.append(f"{c['solved']} of {c['tasks']} ({c['solved_first']} first attempt)" if c else "-")
        rows.append([f"category {name}: solved", *cells])
    if any(r.race_sensitive for r in runs):
        rows.append(["race-sensitive tasks: solved", *[
            f"{c['solved']} of {c['tasks']} ({c['solved_first']} first attempt)" if (c := r.race_sensitive) else "-"
            for r in runs]])
    for why in sorted({k for r in runs for k in (r.left_out or {})}):
        rows.append([f"suite tasks left out: {why}", *[str((r.left_out or {}).get(why, 0)) for r in runs]])
    return rows


def _cost(r: RunCounts) -> str:
    w = r.cost_weights
    how = f" ({r.cost_provider}: reads {w.cache_read:g}, writes {w.cache_write:g}, output {w.output:g})" if w else ""
    return f"{'~' if r.approximate else ''}{r.cost:,.0f}{how}"


def _one(pass_at: dict[str, float] | None) -> str:
    return "none" if pass_at is None else f"{pass_at['1']:.3f}"


def _apart(r: RunCounts) -> str:
    apart = [f"{r.tool_failed_samples} with a tool failure"] if r.tool_failed_samples else []
    apart += [f"{r.unfinished_samples} unfinished"] if r.unfinished_samples else []
    return f" ({', '.join(apart)}: not scored)" if apart else ""


def _per_task(runs: list[RunCounts], sampled: bool) -> list[str]:
    tasks = sorted({t.task for r in runs for t in r.per_task})
    what = "solved samples/n, first attempt" if sampled else "solved/attempts"
    lines = ["", f"per task ({what}, attempts, tokens in/out):"]
    trows = [["task", *[r.label for r in runs]]]
    for name in tasks:
        row = [name]
        for r in runs:
            t = next((x for x in r.per_task if x.task == name), None)
            if t is None:
                row.append("-")
                continue
            tok = f"{_tok(t.tokens_in, t.approximate)}/{_tok(t.tokens_out, t.approximate)} tok"
            if sampled:
                row.append(f"{t.solved_samples}/{t.samples} solved, {t.solved_first_samples} first, "
                           f"{t.attempts} att, {tok}")
            else:
                row.append(f"{'solved' if t.solved else 'unsolved'} {t.attempts} att, {tok}")
        trows.append(row)
    return lines + _table(trows)


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
