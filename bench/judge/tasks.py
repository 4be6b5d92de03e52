"""The benchmark's tasks: the `Task` model (task.json) and the loader for `tasks/<name>/`.

A task folder holds task.json, iface.v, stub.sysr, tb.v, ref.v, ref.sysr and optionally
spec-stub.sysr; see tasks/README.md for the rules each file follows.

A task imported from an upstream suite (`bench suite import`, `bench.suites`) has an `origin`
and per-task settings the scorer reads: its `language` (SystemVerilog: every stage reads it
as the upstream harness does), its testbench's `verdict` style, whether the port order is
part of the interface (`port_order`), and what its import found: `invalid` (its reference
does not pass its own testbench through the scorer: left out of every count) and
`sysr_unavailable` (why the task has no sysr condition), and its stimulus race check
(`race_sensitive`, `race`, `races_fixed`: `bench.suites.races`). It has no ref.sysr, and no stub.sysr
when `sysr_unavailable` says why. `select` is the one rule for which tasks a command takes.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

ROOT = Path(__file__).resolve().parents[2]  # the project: bench/judge/tasks.py is two folders down
TASKS_DIR = Path(os.environ.get("BENCH_TASKS_DIR") or ROOT / "tasks")  # override for tests
REQUIRED_FILES = ("task.json", "iface.v", "stub.sysr", "tb.v", "ref.v", "ref.sysr")
IMPORTED_FILES = ("task.json", "iface.v", "tb.v", "ref.v")  # and stub.sysr unless sysr_unavailable


class Resources(BaseModel):
    model_config = ConfigDict(extra="forbid")
    script: str  # a Yosys synthesis command; TOP is replaced by the task's top module
    cells: dict[str, int]  # cell type -> at least this many


class Verdict(BaseModel):
    """How the testbench says PASS (`bench.judge.verdicts`): this project's `PASS`/`FAIL cycle` lines,
    or an upstream suite's `Mismatches: X in Y samples` or `Hint: ... mismatched samples` lines,
    or RTLLM's `Your Design Passed`."""

    model_config = ConfigDict(extra="forbid")
    style: Literal["pass-fail", "mismatches", "hint", "rtllm"] = "pass-fail"
    timeout_fails: bool = True  # a `TIMEOUT` line from the testbench fails the design


class Origin(BaseModel):
    """Where an imported task comes from."""

    model_config = ConfigDict(extra="forbid")
    suite: str  # "verilogeval", "chipbench", "chipbench-debug", "rtllm"
    category: str  # "spec-to-rtl", "code-complete", "self_contain", "debug_zero_shot_timing", "Arithmetic"...
    problem: str  # the upstream problem's name
    commit: str  # of the upstream checkout, or "unknown"


class Task(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    top: str
    sequential: bool
    cycles: int = Field(gt=0)
    tags: list[str] = Field(min_length=1)
    resources: Resources | None = None
    prompt: str = Field(min_length=40)
    language: Literal["verilog-2005", "systemverilog"] = "verilog-2005"
    verdict: Verdict = Field(default_factory=Verdict)
    port_order: bool = True  # whether the candidate's ports must be in iface.v's order
    origin: Origin | None = None  # set on imported tasks
    invalid: str | None = None  # why the task's reference does not pass: out of every count
    sysr_unavailable: str | None = None  # why the task has no sysr condition (no stub.sysr)
    race_sensitive: bool | None = None  # a correct design's verdict depends on a stimulus race (None: unchecked)
    race: str | None = None  # what the race check found (bench.suites.races)
    races_fixed: int | None = None  # blocking assignments of the stimulus made nonblocking (--fix-races)

    # set by the loader
    folder: Path | None = Field(default=None, exclude=True)

    def path(self, name: str) -> Path:
        assert self.folder is not None
        return self.folder / name

    def text(self, name: str) -> str:
        return self.path(name).read_text()

    @property
    def has_spec_stub(self) -> bool:
        return self.path("spec-stub.sysr").is_file()

    @property
    def systemverilog(self) -> bool:
        return self.language == "systemverilog"


class TaskError(Exception):
    """A task folder that does not follow the rules: the message says which file and why."""


def load_task(folder: Path) -> Task:
    if not (folder / "task.json").is_file():
        raise TaskError(f"{folder.name}: missing task.json")
    try:
        data = json.loads((folder / "task.json").read_text())
        task = Task.model_validate(data)
    except (json.JSONDecodeError, ValidationError) as e:
        raise TaskError(f"{folder.name}/task.json: {e}") from None
    if task.origin is None:
        required = REQUIRED_FILES
    else:
        required = IMPORTED_FILES + (() if task.sysr_unavailable else ("stub.sysr",))
    missing = [f for f in required if not (folder / f).is_file()]
    if missing:
        raise TaskError(f"{folder.name}: missing {', '.join(missing)}")
    if task.name != folder.name:
        raise TaskError(f"{folder.name}/task.json: name is {task.name!r}, not the folder's name")
    task.folder = folder
    return task


def task_names(tasks_dir: Path = TASKS_DIR) -> list[str]:
    return sorted(p.name for p in tasks_dir.iterdir() if (p / "task.json").is_file())


def load_tasks(names: list[str] | None = None, tasks_dir: Path = TASKS_DIR) -> list[Task]:
    """Load the named tasks (all when None); an unknown name is a TaskError naming the known ones."""
    known = task_names(tasks_dir)
    names = names or known
    unknown = [n for n in names if n not in known]
    if unknown:
        raise TaskError(f"unknown task(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return [load_task(tasks_dir / n) for n in names]


def left_out(task: Task, lang: str) -> str | None:
    """Why a command leaves `task` out in `lang` (None: it takes it)."""
    if task.invalid:
        return f"invalid: {task.invalid}"
    if lang == "sysr" and task.sysr_unavailable:
        return f"not expressible in sysr: {task.sysr_unavailable}"
    return None


def select(names: list[str] | None, lang: str, tasks_dir: Path = TASKS_DIR) -> tuple[list[Task], list[tuple[str, str]]]:
    """The tasks a command runs in `lang` and the (name, reason) of those it leaves out.

    Without names, every task of the folder that is not left out (`left_out`); a task named
    explicitly that would be left out is a TaskError saying why, so nothing is dropped silently.
    """
    tasks = load_tasks(names, tasks_dir)
    out = [(t.name, why) for t in tasks if (why := left_out(t, lang))]
    if names and out:
        raise TaskError("; ".join(f"task {n} is left out ({why})" for n, why in out))
    skipped = {n for n, _ in out}
    return [t for t in tasks if t.name not in skipped], out


def for_command(arg: str | None, lang: str, suite: str | None, command: str) -> list[Task]:
    """The tasks of --tasks in --suite (default tasks/), saying on stderr which were left out and why."""
    names = [n.strip() for n in arg.split(",") if n.strip()] if arg else None
    folder = Path(suite) if suite else TASKS_DIR
    if not folder.is_dir():
        raise TaskError(f"--suite {folder}: not a folder (make one with `bench suite import`)")
    tasks, out = select(names, lang, folder)
    if out:
        bad = sum(why.startswith("invalid") for _, why in out)
        parts = [f"{bad} invalid"] * bool(bad) + [f"{len(out) - bad} not expressible in sysr"] * bool(len(out) - bad)
        print(f"bench {command}: {len(out)} task(s) of {folder} left out ({', '.join(parts)}); see "
              f"{folder}/suite.json", file=sys.stderr)
    if not tasks:
        raise TaskError(f"no task of {folder} to run in {lang}")
    return tasks
