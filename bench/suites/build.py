"""One upstream problem into one task folder, validated by scoring its own reference.

The folder, in this project's format (`bench.judge.tasks`):

- `ref.v`: the reference with `RefModule` renamed `TopModule`, preceded by the testbench's
  `` `define `` directives it uses (ChipBench's CPU-IP references take their macros from the
  testbench) and by the modules the prompt gives that it instantiates: it is scored as a
  candidate would be;
- `tb.v`, the hidden testbench: the upstream testbench, then the reference as `RefModule` with
  every helper module renamed `ref__<name>`, so that a candidate's own submodules may have the
  names the reference's have (ChipBench's not-self-contained problems ask for them);
- `iface.v`: the reference's ports as Yosys reads them (`bench.suites.facts`), as a `TopModule`
  header; a VerilogEval code-completion problem's `_ifc.txt` must declare the same ports;
- `stub.sysr`, when the interface can be written in sysr (`bench.suites.stub`);
- `task.json`: the prompt as upstream wrote it, SystemVerilog, the verdict style of the
  testbench, the port order left free (upstream testbenches connect ports by name), tags
  naming the suite and its category, the origin with the upstream commit, and what validation
  found.

Validation scores `ref.v` through `bench.judge.score.Scorer` exactly as `bench score --suite` does; a
reference that does not pass makes the task `invalid` with the reason (its result and what the
tool said), and nothing is dropped. When the reference itself reaches the testbench's own
`TIMEOUT` with no mismatch (a stimulus longer than the testbench's time limit), the task is
judged on its mismatch count alone (`timeout_fails: false`) and validated again.

A valid task whose stimulus writes the designs' inputs with blocking assignments is then checked
for the race this makes (`check_races`, `bench.suites.races`): the reference reading its inputs one
scheduling step late is scored against the testbench; `race_sensitive` is whether it fails. With
`fix`, those assignments are made nonblocking in tb.v (`races_fixed`), the task is validated
again, and the late-reading reference is scored once more against the rewritten testbench.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..judge.results import CandidateResult
from ..judge.score import Scorer
from ..judge.tasks import Origin, Task, Verdict, load_task
from ..judge import verdicts
from ..verilog.ports import PortInfo, compare_ports
from . import facts as F
from . import races as R
from . import stub as S
from . import text as T
from .checkout import safe_name
from .problem import Problem

TOP = "TopModule"
REF = "RefModule"
HELPER_PREFIX = "ref__"
TITLES = {"verilogeval": "VerilogEval v2", "chipbench": "ChipBench", "chipbench-debug": "ChipBench debugging",
          "rtllm": "RTLLM v2"}
_SAMPLES = re.compile(r"in (\d+) samples|out of (\d+) samples")


@dataclass
class Built:
    """A problem written as a task folder (folder None when its files are missing)."""

    problem: Problem
    folder: Path | None
    invalid: str | None  # known before any scoring
    sysr: str | None  # why there is no stub.sysr
    ports: list[F.Port] | None = None  # the reference's, as Yosys reads them


def verdict_style(test: str) -> str | None:
    if '"Mismatches: ' in test:
        return "mismatches"
    if '"Hint: Total mismatched samples' in test or '"Hint: No mismatched samples' in test:
        return "hint"
    return None


def task_folder(out: Path, name: str) -> Path:
    """The task's folder, made: always one new folder directly inside `out` (names are checked at reading)."""
    folder = out / name
    if not safe_name(name) or folder.parent != out:
        raise ValueError(f"unsafe task name {name!r}")
    folder.mkdir()
    return folder


def write_task(problem: Problem, out: Path, commit: str) -> Built:
    if problem.unsafe:
        return Built(problem, None, problem.unsafe, None)
    if problem.missing:
        return Built(problem, None, "missing file(s) in the checkout: " + ", ".join(problem.missing), None)
    assert problem.prompt is not None and problem.ref is not None and problem.test is not None
    folder = task_folder(out, problem.task)
    title = f"{TITLES.get(problem.suite, problem.suite)} {problem.category} {problem.name}"
    invalid = None
    style = verdict_style(problem.test)
    if style is None:
        invalid = "the testbench prints no verdict line this importer reads (`Mismatches:` or `Hint:`)"
    modules = T.module_names(problem.ref)
    if REF not in modules:
        invalid = invalid or f"the reference defines no module {REF}"
    provided = T.provided_modules(problem.ref, problem.prompt)
    own = "\n\n".join([*provided, problem.ref])
    defines = T.needed_defines(own, problem.test)
    ref_v = "\n".join([f"// The reference of {title} (`{REF}` renamed `{TOP}`), imported by `bench suite import`.",
                       *defines, T.rename(own, {REF: TOP})]) + "\n"
    helpers = {name: HELPER_PREFIX + name for name in T.module_names(own) if name != REF}
    tb_v = "\n".join([f"// The hidden testbench of {title}: the upstream testbench, then its reference with its",
                      f"// helper modules renamed {HELPER_PREFIX}<name> (imported by `bench suite import`).",
                      problem.test.rstrip(), "", T.rename(own, helpers)]) + "\n"
    return finish(problem, folder, title, ref_v, tb_v, TOP, style or "mismatches", invalid, commit)


def finish(problem: Problem, folder: Path, title: str, ref_v: str, tb_v: str, top: str, style: str,
           invalid: str | None, commit: str) -> Built:
    """Write ref.v, tb.v, iface.v, stub.sysr (where sysr can state the interface) and task.json."""
    (folder / "ref.v").write_text(ref_v)
    (folder / "tb.v").write_text(tb_v)
    facts = F.of_reference(ref_v if top == TOP else T.rename(ref_v, {top: TOP}))
    if facts.ports is None:
        invalid = invalid or f"syntax: Yosys cannot read the reference: {facts.error}"
        (folder / "iface.v").write_text(f"// {title}: the reference's ports could not be read.\n")
    else:
        (folder / "iface.v").write_text(iface(facts.ports, title, top))
        if problem.ifc is not None:
            invalid = invalid or _ifc_problem(problem.ifc, facts.ports)
    stub_text, why = S.stub(facts, f"{top}: {title}, imported by `bench suite import`.")
    if problem.sysr:
        stub_text, why = None, problem.sysr
    if stub_text is not None:
        (folder / "stub.sysr").write_text(stub_text.replace(f"module {TOP}(", f"module {top}(", 1))
    task = Task(name=problem.task, top=top, sequential=facts.flops, cycles=1, tags=[problem.suite, problem.category],
                prompt=_prompt(problem.prompt or ""), language="systemverilog", verdict=Verdict(style=style),
                port_order=False, origin=Origin(suite=problem.suite, category=problem.category, problem=problem.name,
                                                commit=commit),
                invalid=invalid or "not validated yet (the import did not finish)", sysr_unavailable=why or None)
    save(task, folder)
    return Built(problem, folder, invalid, why or None, facts.ports)


def iface(ports: list[F.Port], title: str, top: str = TOP) -> str:
    body = ",\n".join(f"  {p.declaration()}" for p in ports)
    return (f"// {top}: {title}; the ports of its reference, as Yosys reads them.\n"
            "// Requirements on the inputs:\n//   none beyond the task's prompt\n"
            f"module {top} (\n{body}\n);\n\nendmodule\n")


def _ifc_problem(ifc: str, ports: list[F.Port]) -> str | None:
    given, why = F.header_ports(ifc)
    if given is None:
        return f"syntax: Yosys cannot read the interface the prompt gives (_ifc.txt): {why}"
    differs = compare_ports([PortInfo(p.name, p.direction, p.width) for p in given],
                            [PortInfo(p.name, p.direction, p.width) for p in ports], ordered=False)
    return (f"interface: the ports the prompt gives (_ifc.txt) are not the reference's: {differs} (in the prompt's, "
            "against the reference's)") if differs else None


def _prompt(text: str) -> str:
    text = text.strip()
    return text if len(text) >= 40 else text + "\n\n(The module's interface is in the starting file.)"


def save(task: Task, folder: Path) -> None:
    data = task.model_dump(mode="json")
    tmp = folder / "task.json.tmp"
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    tmp.replace(folder / "task.json")


def validate(built: Built, scorer: Scorer) -> Task | None:
    """Score the task's own reference and record the outcome in its task.json; the task as saved."""
    if built.folder is None:
        return None
    task = load_task(built.folder)
    if built.invalid:
        task.invalid = built.invalid
        save(task, built.folder)
        return task
    task.invalid = None
    result = scorer.score(task, "verilog", task.text("ref.v"))
    if result.result == "wrong-output" and verdicts.timed_out_clean(result.detail):
        task.verdict = Verdict(style=task.verdict.style, timeout_fails=False)
        result = scorer.score(task, "verilog", task.text("ref.v"))
    if result.result == "PASS":
        task.cycles = _samples(result) or 1
    else:
        task.invalid = reason(result)
    save(task, built.folder)
    return task


def reason(result: CandidateResult) -> str:
    """Why a reference does not pass: its result and the first lines of what the tool said."""
    lines = [line.strip() for line in result.detail.splitlines() if line.strip()]
    if lines and lines[0].endswith(":") and len(lines) > 1:
        lines = lines[1:]  # the scorer's own introduction ("latch inferred (...):")
    shown = " / ".join(lines[:2])
    more = f" (and {len(lines) - 2} more line(s))" if len(lines) > 2 else ""
    return f"{result.result}: {shown}{more}" if shown else result.result


def _samples(result: CandidateResult) -> int | None:
    for stage in result.stages:
        if stage.stage == "simulate":
            m = _SAMPLES.search(stage.detail)
            if m:
                return int(m.group(1) or m.group(2)) or None
    return None


def check_races(built: Built, task: Task, scorer: Scorer, fix: bool = False) -> Task:
    """The race check of a valid task, and with `fix` the rewrite of its stimulus; the task as saved."""
    assert built.folder is not None
    tb = task.text("tb.v")
    found = R.stimulus(tb)
    if found is None:
        task.race = f"not checked: the testbench has no {R.MODULE} module"
    elif not found.blocking:
        task.race_sensitive, task.race = False, "the stimulus writes the designs' inputs with nonblocking assignments only"
    elif built.ports is None:
        task.race = "not checked: the reference's ports could not be read"
    else:
        late = R.delayed(task.text("ref.v"), built.ports, task.top)
        n = f"{len(found.blocking)} blocking assignment(s) to the designs' inputs"
        result = scorer.score(task, "verilog", late)
        if result.result == "PASS":
            task.race_sensitive, task.race = False, f"{n}; the reference reading its inputs one step late passes too"
        elif result.result == "wrong-output":
            task.race_sensitive = True
            task.race = f"{n}; the reference reading its inputs one step late fails: {reason(result)}"
        else:
            task.race = f"not decided: the reference reading its inputs one step late did not run: {reason(result)}"
        if fix:
            fixed, task.races_fixed = R.fix(tb, found)
            (built.folder / "tb.v").write_text(fixed)
            save(task, built.folder)
            task = validate(built, scorer)
            if task is None or task.invalid:
                if task is not None:
                    task.invalid = f"with its races fixed: {task.invalid}"
                    save(task, built.folder)
                return task
            after = scorer.score(task, "verilog", late)
            task.race += ("; with the stimulus made nonblocking it passes" if after.result == "PASS" else
                          f"; with the stimulus made nonblocking it still does not pass: {reason(after)}")
    save(task, built.folder)
    return task
