"""The benchmark's tasks: the `Task` model (task.json) and the loader for `tasks/<name>/`.

A task folder holds task.json, iface.v, stub.sysr, tb.v, ref.v, ref.sysr and optionally
spec-stub.sysr; see tasks/README.md for the rules each file follows.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

ROOT = Path(__file__).resolve().parent.parent
TASKS_DIR = Path(os.environ.get("BENCH_TASKS_DIR") or ROOT / "tasks")  # override for tests
REQUIRED_FILES = ("task.json", "iface.v", "stub.sysr", "tb.v", "ref.v", "ref.sysr")


class Resources(BaseModel):
    model_config = ConfigDict(extra="forbid")
    script: str  # a Yosys synthesis command; TOP is replaced by the task's top module
    cells: dict[str, int]  # cell type -> at least this many


class Task(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    top: str
    sequential: bool
    cycles: int = Field(gt=0)
    tags: list[str] = Field(min_length=1)
    resources: Resources | None = None
    prompt: str = Field(min_length=40)

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


class TaskError(Exception):
    """A task folder that does not follow the rules: the message says which file and why."""


def load_task(folder: Path) -> Task:
    missing = [f for f in REQUIRED_FILES if not (folder / f).is_file()]
    if missing:
        raise TaskError(f"{folder.name}: missing {', '.join(missing)}")
    try:
        data = json.loads((folder / "task.json").read_text())
        task = Task.model_validate(data)
    except (json.JSONDecodeError, ValidationError) as e:
        raise TaskError(f"{folder.name}/task.json: {e}") from None
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
