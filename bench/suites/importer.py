"""`bench suite import`: a user's upstream checkout into a folder of validated task folders.

The importer of the suite (`KINDS`) finds the problems; each becomes a task folder
(`bench.suites.build`; RTLLM's own shape in `bench.suites.rtllm`), written and validated in a
staging folder beside OUT that replaces OUT only once every task is done, so a crash or an
interrupt leaves OUT as it was. OUT must be empty, missing, or an earlier import (it holds
suite.json). The checkout is read as hostile input (`bench.suites.checkout`): no git command,
no link followed, no name that is not one folder inside OUT, sizes bounded.

The report, also written as OUT/suite.json, is the object `--json` prints: `kind`, `source`,
`commit` (of the checkout, read from its git files, `-dirty` when its files differ from that
commit; a checkout whose commit cannot be read is refused unless `allow_unpinned`, and is then
"unknown"), `tasks` (problems found), `valid`, `invalid` ({task, reason} for every task whose
reference does not pass, or that could not be built or read), `sysr_expressible` and
`sysr_not_expressible` ({task, reason}), both over the valid tasks only: an invalid task is out
of every count; then the stimulus race check over the valid tasks (`bench.suites.build.check_races`):
`race_checked` (tasks it decided), `race_sensitive` ({task, reason}), and, with `fix_races`, how
many blocking assignments were made nonblocking (`races_fixed`).
"""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from pydantic import BaseModel

from ..judge.score import Scorer
from ..judge.tasks import Task
from . import chipbench, chipbench_debug, rtllm, verilogeval
from .build import Built, check_races, validate, write_task
from .checkout import commit as checkout_commit
from .problem import SuiteError

KINDS = {verilogeval.KIND: verilogeval.problems, chipbench.KIND: chipbench.problems,
         chipbench_debug.KIND: chipbench_debug.problems, rtllm.KIND: rtllm.problems}
WRITERS = {rtllm.KIND: rtllm.write_task}  # the others are in VerilogEval's shape (bench.suites.build)
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
    race_checked: int = 0  # valid tasks whose stimulus race was decided
    race_sensitive: list[Left] = []  # valid tasks whose verdict on a correct design depends on it
    fix_races: bool = False  # whether the stimulus's blocking assignments were made nonblocking
    races_fixed: int = 0  # how many, over the valid tasks


class Imported(BaseModel):
    """What a task's import found (one line of progress)."""

    task: str
    invalid: str | None
    sysr: str | None
    timeout_fails: bool = True
    race_sensitive: bool | None = None
    races_fixed: int | None = None


def _staging(out: Path) -> Path:
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / REPORT).is_file())):
        raise SuiteError(f"--out {out}: exists and is not an imported suite (no {REPORT}); give an empty or new folder")
    stage = out.parent / f".{out.name}.importing"
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    return stage


def import_suite(kind: str, src: Path, out: Path, jobs: int = 1,
                 progress: Callable[[Imported], None] | None = None, allow_unpinned: bool = False,
                 fix_races: bool = False) -> SuiteReport:
    if kind not in KINDS:
        raise SuiteError(f"unknown suite kind {kind!r}; known: {', '.join(KINDS)}")
    if not src.is_dir():
        raise SuiteError(f"{src}: not a folder (give a local checkout of the suite)")
    src = src.resolve()  # the path the user gave is theirs; every link below it is the checkout's
    commit = checkout_commit(src)
    if commit == "unknown" and not allow_unpinned:
        raise SuiteError(f"{src}: not in a git checkout whose commit can be read, so the import could not record "
                         "which version of the suite it is; give a git checkout, or --allow-unpinned to import it "
                         "with commit \"unknown\"")
    folder, problems = KINDS[kind](src)
    if not problems:
        raise SuiteError(f"{folder}: no problems found")
    names = [p.task for p in problems]
    if len(set(names)) != len(names):
        raise SuiteError(f"{folder}: two problems would make the same task name")
    stage = _staging(out)
    writer = WRITERS.get(kind, write_task)
    scorer = Scorer()
    scorer.reveal = True

    def one(problem) -> tuple[Built, Task | None]:
        built = writer(problem, stage, commit)
        task = validate(built, scorer)
        if task is not None and not task.invalid and writer is write_task:
            task = check_races(built, task, scorer, fix_races)
        if progress:
            progress(Imported(task=problem.task, invalid=task.invalid if task else built.invalid,
                              sysr=built.sysr, timeout_fails=task.verdict.timeout_fails if task else True,
                              race_sensitive=task.race_sensitive if task else None,
                              races_fixed=task.races_fixed if task else None))
        return built, task

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = list(pool.map(one, problems))
    report = _report(kind, folder, commit, done, fix_races)
    (stage / REPORT).write_text(report.model_dump_json(indent=2) + "\n")
    if out.exists():
        shutil.rmtree(out)
    stage.replace(out)
    return report


def _report(kind: str, folder: Path, commit: str, done: list[tuple[Built, Task | None]],
            fix_races: bool = False) -> SuiteReport:
    invalid, unavailable, valid, racy, checked, fixed = [], [], 0, [], 0, 0
    for built, task in done:
        why = task.invalid if task is not None else built.invalid
        if why:
            invalid.append(Left(task=built.problem.task, reason=why))
            continue
        valid += 1
        if task is not None and task.race_sensitive is not None:
            checked += 1
            fixed += task.races_fixed or 0
            if task.race_sensitive:
                racy.append(Left(task=task.name, reason=task.race or ""))
        if built.sysr:
            unavailable.append(Left(task=built.problem.task, reason=built.sysr))
    return SuiteReport(kind=kind, source=str(folder.resolve()), commit=commit, tasks=len(done), valid=valid,
                       invalid=invalid, sysr_expressible=valid - len(unavailable), sysr_not_expressible=unavailable,
                       race_checked=checked, race_sensitive=racy, fix_races=fix_races, races_fixed=fixed)
