"""One upstream problem as an importer finds it in a user's checkout, before it becomes a task.

`Problem` holds the texts of its files as read (bytes that are not UTF-8, as in some ChipBench
comments, become U+FFFD) and which of them are missing. `SuiteError` is a checkout that is not
in the layout the importer expects; its message says what was looked for where.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class SuiteError(Exception):
    """The source is not a checkout of the suite (the message says what was expected)."""


@dataclass(frozen=True)
class Problem:
    suite: str  # "verilogeval", "chipbench"
    category: str  # the suite's dataset: "spec-to-rtl", "code-complete", "cpu_ip"...
    name: str  # the upstream problem name, "Prob001_zero"
    task: str  # the task folder's name
    prompt: str | None
    ref: str | None
    test: str | None
    ifc: str | None = None  # VerilogEval's code-completion layout: the module header given
    missing: tuple[str, ...] = ()  # files of the problem that are not in the checkout


def read(path: Path) -> str | None:
    """A file's text, or None if it is missing."""
    if not path.is_file():
        return None
    return path.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n")


def collect(suite: str, category: str, folder: Path, name: str, task: str, ifc: bool = False) -> Problem:
    """The problem `name` of a folder in the `<name>_{prompt.txt,ref.sv,test.sv}` layout."""
    files = {"prompt": f"{name}_prompt.txt", "ref": f"{name}_ref.sv", "test": f"{name}_test.sv"}
    if ifc:
        files["ifc"] = f"{name}_ifc.txt"
    texts = {k: read(folder / f) for k, f in files.items()}
    missing = tuple(files[k] for k, v in texts.items() if v is None)
    return Problem(suite, category, name, task, texts["prompt"], texts["ref"], texts["test"], texts.get("ifc"),
                   missing)


def names_in(folder: Path, listed: Path | None = None) -> list[str]:
    """The problems of a folder: every `<name>_prompt.txt`, `_ref.sv` or `_test.sv`, and every
    name a problems.txt lists, so that a problem with a file missing is still found."""
    names = set()
    for suffix in ("_prompt.txt", "_ref.sv", "_test.sv"):
        names |= {p.name[:-len(suffix)] for p in folder.glob(f"Prob*{suffix}")}
    if listed is not None and listed.is_file():
        names |= {line.strip() for line in listed.read_text(errors="replace").split() if line.strip()}
    return sorted(names)
