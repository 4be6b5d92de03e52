"""ChipBench from a user's checkout: its Verilog generation problems for `bench suite import`.

The layout: `Verilog Gen/dataset_self_contain/`, `dataset_not_self_contain/` (a top module with
submodules: the reference's helper modules, and those the prompt gives in a fenced block, are
renamed in the hidden testbench so a candidate may reuse their names) and `dataset_cpu_ip/` (CPU
parts; some testbenches `define the macros their reference uses, and some print only `Hint:`
verdict lines), each holding `ProbNNN_name_{prompt.txt,ref.sv,test.sv}` in VerilogEval's
shape. SRC is the checkout, its `Verilog Gen` folder, or one dataset folder. Problem numbers
repeat across datasets, so a task is named `<dataset>-<problem>` (`cpu_ip-Prob002_alu`) and
tagged `chipbench` and the dataset.
"""

from __future__ import annotations

from pathlib import Path

from .checkout import folders
from .problem import Problem, SuiteError, collect, names_in

KIND = "chipbench"
GEN = "Verilog Gen"
ORDER = ("self_contain", "not_self_contain", "cpu_ip")


def datasets(src: Path) -> list[Path]:
    for base in (src, src / GEN):
        if base != src and base not in folders(src):  # a link is not followed
            continue
        found = sorted((p for p in folders(base) if p.name.startswith("dataset_")
                        and not p.name.startswith("dataset_debug_")),
                       key=lambda p: (ORDER.index(_category(p)) if _category(p) in ORDER else len(ORDER), p.name))
        if found:
            return found
    if src.name.startswith("dataset_") and any(src.glob("Prob*_prompt.txt")):
        return [src]
    raise SuiteError(f"{src}: no ChipBench problems: expected dataset_* folders in it or in {src / GEN}, or a "
                     "dataset_* folder itself")


def _category(folder: Path) -> str:
    return folder.name.removeprefix("dataset_")


def problems(src: Path) -> tuple[Path, list[Problem]]:
    folders = datasets(src)
    found = [collect(KIND, _category(f), f, name, f"{_category(f)}-{name}")
             for f in folders for name in names_in(f)]
    return (folders[0].parent if len(folders) > 1 else folders[0]), found
