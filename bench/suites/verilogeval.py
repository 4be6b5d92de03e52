"""VerilogEval v2 (NVlabs/verilog-eval) from a user's checkout: its problems for `bench suite import`.

The v2 layout: `dataset_spec-to-rtl/ProbNNN_name_{prompt.txt,ref.sv,test.sv}` (156 problems,
the one reported by default), and `dataset_code-complete-iccad2023/`, where each problem also
has `_ifc.txt`, the module header its prompt ends with. SRC is the checkout (its spec-to-rtl
dataset is imported) or one dataset folder (the code-completion layout is found by its
`_ifc.txt` files). Each problem's reference is `module RefModule`, its testbench instantiates
`RefModule` and `TopModule` side by side and prints `Mismatches: X in Y samples`; tasks are
named like the problems (`Prob001_zero`) and tagged `verilogeval` and the dataset.
"""

from __future__ import annotations

from pathlib import Path

from .checkout import folders
from .problem import Problem, SuiteError, collect, names_in

KIND = "verilogeval"
SPEC = "dataset_spec-to-rtl"
COMPLETE = "dataset_code-complete-iccad2023"


def dataset(src: Path) -> Path:
    if any(src.glob("Prob*_prompt.txt")):
        return src
    if src / SPEC in folders(src) and any((src / SPEC).glob("Prob*_prompt.txt")):  # a link is not followed
        return src / SPEC
    raise SuiteError(f"{src}: no VerilogEval v2 problems: expected ProbNNN_name_prompt.txt files in it or in "
                     f"{src / SPEC} (give {src / COMPLETE} for the code-completion layout)")


def problems(src: Path) -> tuple[Path, list[Problem]]:
    """The dataset folder read and its problems."""
    folder = dataset(src)
    completion = any(folder.glob("Prob*_ifc.txt"))
    category = "code-complete" if completion else "spec-to-rtl"
    found = [collect(KIND, category, folder, name, name, ifc=completion)
             for name in names_in(folder, folder / "problems.txt")]
    return folder, found
