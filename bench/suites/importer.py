"""`bench suite import`: a user's upstream checkout into a folder of validated task folders.

The importer of the suite (`KINDS`) finds the problems; each becomes a task folder
(`bench.suites.build`), written and validated in a staging folder beside OUT that replaces OUT
only once every task is done, so a crash or an interrupt leaves OUT as it was. OUT must be
empty, missing, or an earlier import (it holds suite.json). The report, also written as
OUT/suite.json, is the object `--json` prints: `kind`, `source`, `commit` (of the checkout,
`-dirty` when its files differ from that commit, or "unknown"), `tasks` (problems found),
`valid`, `invalid` ({task, reason} for every task whose reference does not pass, or that could
not be built), `sysr_expressible` and `sysr_not_expressible` ({task, reason}), both over the
valid tasks only: an invalid task is out of every count.
"""

from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from pydantic import BaseModel

from ..judge.score import Scorer
from ..judge.tasks import Task
from . import chipbench, verilogeval
from .build import Built, validate, write_task
from .problem import SuiteError

KINDS = {verilogeval.KIND: verilogeval.problems, chipbench.KIND: chipbench.problems}
REPORT = "suite.json"


class Left(BaseModel):
    task: str
    reason: str


class SuiteReport(BaseModel):
    kind: str
    source: str
    commit: str
    tasks: int
    valid: int
    invalid: list[Left]
    sysr_expressible: int
    sysr_not_expressible: list[Left]


class Imported(BaseModel):
    """What a task's import found (one line of progress)."""

    task: str
    invalid: str | None
    sysr: str | None
    timeout_fails: bool = True


def checkout_commit(folder: Path) -> str:
    """The commit of the git checkout holding `folder`, `-dirty` if its files there differ, or "unknown"."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, timeout=30)
        if head.returncode != 0 or not head.stdout.strip():
            return "unknown"
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "."], cwd=folder,
                                capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head.stdout.strip() + ("-dirty" if status.stdout.strip() else "")


def _staging(out: Path) -> Path:
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / REPORT).is_file())):
        raise SuiteError(f"--out {out}: exists and is not an imported suite (no {REPORT}); give an empty or new folder")
    stage = out.parent / f".{out.name}.importing"
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    return stage


def import_suite(kind: str, src: Path, out: Path, jobs: int = 1,
                 progress: Callable[[Imported], None] | None = None) -> SuiteReport:
    if kind not in KINDS:
        raise SuiteError(f"unknown suite kind {kind!r}; known: {', '.join(KINDS)}")
    if not src.is_dir():
        raise SuiteError(f"{src}: not a folder (give a local checkout of the suite)")
    folder, problems = KINDS[kind](src)
    if not problems:
        raise SuiteError(f"{folder}: no problems found")
    names = [p.task for p in problems]
    if len(set(names)) != len(names):
        raise SuiteError(f"{folder}: two problems would make the same task name")
    commit = checkout_commit(folder)
    stage = _staging(out)
    scorer = Scorer()
    scorer.reveal = True

    def one(problem) -> tuple[Built, Task | None]:
        built = write_task(problem, stage, commit)
        task = validate(built, scorer)
        if progress:
            progress(Imported(task=problem.task, invalid=task.invalid if task else built.invalid,
                              sysr=built.sysr, timeout_fails=task.verdict.timeout_fails if task else True))
        return built, task

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = list(pool.map(one, problems))
    report = _report(kind, folder, commit, done)
    (stage / REPORT).write_text(report.model_dump_json(indent=2) + "\n")
    if out.exists():
        shutil.rmtree(out)
    stage.replace(out)
    return report


def _report(kind: str, folder: Path, commit: str, done: list[tuple[Built, Task | None]]) -> SuiteReport:
    invalid, unavailable, valid = [], [], 0
    for built, task in done:
        why = task.invalid if task is not None else built.invalid
        if why:
            invalid.append(Left(task=built.problem.task, reason=why))
            continue
        valid += 1
        if built.sysr:
            unavailable.append(Left(task=built.problem.task, reason=built.sysr))
    return SuiteReport(kind=kind, source=str(folder.resolve()), commit=commit, tasks=len(done), valid=valid,
                       invalid=invalid, sysr_expressible=valid - len(unavailable), sysr_not_expressible=unavailable)
