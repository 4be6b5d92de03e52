"""ChipBench's Verilog Debugging track from a user's checkout, for `bench suite import`.

The layout: `Verilog Debugging/dataset_debug_{zero,one}_shot_{arithmetic,assignment,
state_machine,timing}/`, each holding `ProbNNN_name_{prompt.txt,ref.sv,test.sv}` in
VerilogEval's shape: the prompt describes `TopModule` and gives a buggy version of it to fix
(one-shot prompts also carry the waveform of a simulation, as VCD text), the reference is the
fixed design as `RefModule`, and the testbench compares the two (`Mismatches: X in Y samples`).
89 designs, each in both settings; a task is named `<setting>-<bug type>-<problem>`
(`one_shot-timing-Prob001_...`) and tagged `chipbench-debug` and its dataset.

The track is Verilog only: the model is handed buggy Verilog to repair, and a sysr answer would
be a rewrite in another language, not a repair of the code given, so its scores would not
measure debugging. Every task says so in `sysr_unavailable`.
"""

from __future__ import annotations

from pathlib import Path

from .checkout import folders
from .problem import Problem, SuiteError, collect, names_in

KIND = "chipbench-debug"
DEBUG = "Verilog Debugging"
SETTINGS = ("zero_shot", "one_shot")
BUGS = ("arithmetic", "assignment", "state_machine", "timing")
VERILOG_ONLY = ("the debug track gives buggy Verilog to repair: a sysr answer would be a rewrite, not a repair, "
                "so the track is Verilog only")


def _split(folder: Path) -> tuple[str, str] | None:
    rest = folder.name.removeprefix("dataset_debug_")
    for setting in SETTINGS:
        if rest.startswith(setting + "_") and rest[len(setting) + 1:] in BUGS:
            return setting, rest[len(setting) + 1:]
    return None


def datasets(src: Path) -> list[Path]:
    for base in (src, src / DEBUG):
        if base != src and base not in folders(src):  # a link is not followed
            continue
        found = [f for f in folders(base) if _split(f)]
        if found:
            return sorted(found, key=lambda f: (SETTINGS.index(_split(f)[0]), BUGS.index(_split(f)[1])))
    if _split(src):
        return [src]
    raise SuiteError(f"{src}: no ChipBench debugging problems: expected dataset_debug_<setting>_<bug> folders in it "
                     f"or in {src / DEBUG}, or one such folder itself")


def problems(src: Path) -> tuple[Path, list[Problem]]:
    found = []
    folders_ = datasets(src)
    for f in folders_:
        setting, bug = _split(f)  # type: ignore[misc]
        found += [collect(KIND, f.name.removeprefix("dataset_"), f, name, f"{setting}-{bug}-{name}",
                          sysr=VERILOG_ONLY) for name in names_in(f)]
    return (folders_[0].parent if len(folders_) > 1 else folders_[0]), found
