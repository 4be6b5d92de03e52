"""One upstream problem as an importer finds it in a user's checkout, before it becomes a task.

`Problem` holds the texts of its files as read (bytes that are not UTF-8, as in some ChipBench
comments, become U+FFFD), which of them are missing, and why it was not read (`unsafe`: a name
that is not one folder inside --out, a file that is a symbolic link, not a regular file or too
large: `bench.suites.checkout`). `SuiteError` is a checkout that is not in the layout the
importer expects; its message says what was looked for where.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .checkout import PROBLEMS_LIMIT, Unsafe, read_under, safe_name


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
    unsafe: str | None = None  # why the problem was not read (bench.suites.checkout)
    sysr: str | None = None  # why the task has no sysr form whatever its interface (ChipBench's debug track)
    top: str = "TopModule"  # the module the task asks for (RTLLM's keep their own names)
    invalid: str | None = None  # why it cannot be a valid task, known at reading (RTLLM's $fopen)


def collect(suite: str, category: str, folder: Path, name: str, task: str, ifc: bool = False,
            sysr: str | None = None) -> Problem:
    """The problem `name` of a folder in the `<name>_{prompt.txt,ref.sv,test.sv}` layout, read
    without following links (`bench.suites.checkout.read_under`, the folder as the root)."""
    if not safe_name(name) or not safe_name(task):
        return Problem(suite, category, name, task, None, None, None, unsafe=f"unsafe problem name {name!r}: not "
                       "one folder name (no /, no .., no leading dot); not read", sysr=sysr)
    files = {"prompt": f"{name}_prompt.txt", "ref": f"{name}_ref.sv", "test": f"{name}_test.sv"}
    if ifc:
        files["ifc"] = f"{name}_ifc.txt"
    texts, unsafe = {}, []
    for k, f in files.items():
        try:
            texts[k] = read_under(folder, folder / f)
        except Unsafe as e:
            texts[k] = None
            unsafe.append(str(e))
    missing = tuple(files[k] for k, v in texts.items() if v is None and not any(files[k] in u for u in unsafe))
    return Problem(suite, category, name, task, texts["prompt"], texts["ref"], texts["test"], texts.get("ifc"),
                   missing, unsafe=("unsafe file: " + "; ".join(unsafe)) if unsafe else None, sysr=sysr)


def names_in(folder: Path, listed: Path | None = None) -> list[str]:
    """The problems of a folder: every `<name>_prompt.txt`, `_ref.sv` or `_test.sv`, and every
    name a problems.txt lists, so that a problem with a file missing is still found."""
    names = set()
    for suffix in ("_prompt.txt", "_ref.sv", "_test.sv"):
        names |= {p.name[:-len(suffix)] for p in folder.glob(f"Prob*{suffix}")}
    if listed is not None:
        try:
            text = read_under(folder, listed) or ""
        except Unsafe as e:
            raise SuiteError(f"{listed}: not read: {e}") from None
        names |= {line.strip() for line in text.split() if line.strip()}
    if len(names) > PROBLEMS_LIMIT:
        raise SuiteError(f"{folder}: more than {PROBLEMS_LIMIT} problems; not imported")
    return sorted(names)
