"""RTLLM v2 (hkust-zhiyao/RTLLM) from a user's checkout: its designs for `bench suite import`.

The layout: `<Category>/<Group>/<design>/` holding `design_description.txt` (the prompt),
`testbench.v` (self-checking: it computes the expected values itself and prints
`Your Design Passed`, or a count of failures), `verified_<name>.v` (the reference, whose top
module is `<top>` or `verified_<top>`) and sometimes data files the testbench loads with
`$readmemh`. A design is named like its folder and tagged `rtllm` and its category
(`Arithmetic`, `Control`, `Memory`, `Miscellaneous`); folders starting with `_` (upstream's
archived model outputs) are not designs.

Unlike VerilogEval, the module keeps the name the description gives (the top is the module of
the reference the testbench instantiates, `verified_` dropped), and the testbench holds no
reference, so `tb.v` is the upstream testbench alone. A `$readmemh("file", mem)` of a data file
in the design's folder is written into the testbench as assignments (each word to its address,
from the memory's left-hand bound, as the standard loads it), so the task needs no file at
simulation time; a testbench that opens a file any other way (`$fopen`) is an erratum.
The verdict style is `rtllm`: the design passes when the testbench prints its pass line
(`bench.judge.verdicts`), as upstream's `auto_run.py` reads it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from . import text as T
from .build import Built, finish, task_folder
from .checkout import PROBLEMS_LIMIT, Unsafe, files, folders, read_under, safe_name
from .problem import Problem, SuiteError

KIND = "rtllm"
DESCRIPTION = "design_description.txt"
TESTBENCH = "testbench.v"
PASS_LINE = "Your Design Passed"
_READMEM = re.compile(r'\$readmemh\s*\(\s*"([^"\\]+)"\s*,\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)\s*;')
_DECL = r"\[\s*(\d+)\s*:\s*(\d+)\s*\]\s*;"


def _designs(src: Path) -> list[Path]:
    """Every folder under src holding a design_description.txt, links and `_` folders not entered."""
    found, stack = [], [src]
    while stack:
        here = stack.pop()
        if (here / DESCRIPTION).exists() or (here / TESTBENCH).exists():
            found.append(here)
            continue
        stack += [f for f in folders(here) if not f.name.startswith((".", "_"))]
        if len(found) > PROBLEMS_LIMIT:
            raise SuiteError(f"{src}: more than {PROBLEMS_LIMIT} designs; not an RTLLM checkout")
    return sorted(found)


def problems(src: Path) -> tuple[Path, list[Problem]]:
    found = _designs(src)
    if not found:
        raise SuiteError(f"{src}: no RTLLM designs: expected folders holding {DESCRIPTION} and {TESTBENCH} "
                         "(a checkout of hkust-zhiyao/RTLLM)")
    return src, [design(src, folder) for folder in found]


def design(root: Path, folder: Path) -> Problem:
    name = folder.name
    category = folder.relative_to(root).parts[0] if folder != root else KIND
    if not safe_name(name):
        return Problem(KIND, category, name, name, None, None, None,
                       unsafe=f"unsafe design name {name!r}: not one folder name; not read")
    refs = [f for f in files(folder) if f.startswith("verified_") and f.endswith(".v")]
    texts, missing, unsafe = {}, [], []
    for key, fname in (("prompt", DESCRIPTION), ("test", TESTBENCH), ("ref", refs[0] if len(refs) == 1 else None)):
        if fname is None:
            missing.append("verified_<name>.v" if not refs else f"one verified_*.v (found {len(refs)})")
            continue
        try:
            texts[key] = read_under(root, folder / fname)
        except Unsafe as e:
            unsafe.append(str(e))
            continue
        if texts[key] is None:
            missing.append(fname)
    d = Problem(KIND, category, name, name, texts.get("prompt"), texts.get("ref"), texts.get("test"),
                missing=tuple(missing), unsafe=("unsafe file: " + "; ".join(unsafe)) if unsafe else None)
    if d.unsafe or d.missing:
        return d
    assert d.ref is not None and d.test is not None
    top, module = top_of(d.ref, d.test, d.prompt or "")
    if top is None:
        return replace(d, invalid="the testbench instantiates no module of the reference (by its name or with "
                                  "`verified_` dropped)")
    test, why = inline_memories(root, folder, d.test)
    if "$fopen" in _uncommented(test):
        why = why or "its testbench opens a file at simulation time ($fopen): not supported"
    if PASS_LINE not in test:
        why = why or f"its testbench prints no `{PASS_LINE}` line"
    return replace(d, top=top, test=test, ref=T.rename(d.ref, {module: top}) if module != top else d.ref, invalid=why)


def write_task(problem: Problem, out: Path, commit: str) -> Built:
    """The design as a task folder: its reference (its top module named as the testbench names it),
    its testbench alone as tb.v, and the verdict style `rtllm`."""
    if problem.unsafe:
        return Built(problem, None, problem.unsafe, None)
    if problem.missing:
        return Built(problem, None, "missing file(s) in the checkout: " + ", ".join(problem.missing), None)
    folder = task_folder(out, problem.task)
    title = f"RTLLM v2 {problem.category} {problem.name}"
    ref_v = f"// The reference of {title}, imported by `bench suite import`.\n{problem.ref}"
    tb_v = f"// The hidden testbench of {title} (imported by `bench suite import`).\n{problem.test}"
    return finish(problem, folder, title, ref_v, tb_v, problem.top, "rtllm", problem.invalid, commit)


def top_of(ref: str, test: str, prompt: str) -> tuple[str | None, str]:
    """(the top module's name, the reference module to give it): the module of the reference the
    testbench instantiates, `verified_` dropped; else, for a reference of one module named
    otherwise (upstream's adder_pipe_64bit, multi_pipe_4bit), the name the description gives
    if the testbench instantiates it."""
    used = T.identifiers(test)
    modules = T.module_names(ref)
    hits = [m for m in modules if m.removeprefix("verified_") in used]
    if len(hits) == 1:
        return hits[0].removeprefix("verified_"), hits[0]
    named = re.search(r"Module name:?\s*([A-Za-z_][A-Za-z0-9_]*)", prompt)
    if not hits and len(modules) == 1 and named and named.group(1) in used:
        return named.group(1), modules[0]
    return None, ""


def inline_memories(root: Path, folder: Path, test: str) -> tuple[str, str | None]:
    """The testbench with every `$readmemh` of a data file written out as assignments."""
    out, last = [], 0
    for m in _READMEM.finditer(test):
        fname, mem = m.group(1), m.group(2)
        if "/" in fname or not safe_name(fname):
            return test, f"its testbench loads {fname!r}, not a file of its own folder"
        try:
            data = read_under(root, folder / fname)
        except Unsafe as e:
            return test, f"unsafe data file: {e}"
        if data is None:
            return test, f"its testbench loads {fname}, which is not in the checkout"
        decl = re.search(rf"\b{re.escape(mem)}\s*{_DECL}", test)
        if decl is None:
            return test, f"its testbench loads {fname} into {mem}, whose bounds this importer cannot read"
        left, right = int(decl.group(1)), int(decl.group(2))
        words = _words(data)
        if words is None:
            return test, f"{fname}: not plain hex words (addresses or other text)"
        step = 1 if right >= left else -1
        if len(words) > abs(right - left) + 1:
            return test, f"{fname}: {len(words)} words for a memory of {abs(right - left) + 1}"
        body = " ".join(f"{mem}[{left + i * step}] = 'h{w};" for i, w in enumerate(words))
        out += [test[last:m.start()], f"begin /* {fname}, inlined at import */ {body} end"]
        last = m.end()
    return "".join(out) + test[last:], None


def _uncommented(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def _words(data: str) -> list[str] | None:
    text = _uncommented(data)
    words = text.split()
    return words if all(re.fullmatch(r"[0-9a-fA-FxXzZ_]+", w) for w in words) else None
