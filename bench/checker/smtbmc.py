"""The standard open formal flow on a `sysr lower --formal` design: Yosys, then yosys-smtbmc with z3.

`formal_flow(verilog_text, depth, induction, workdir)` writes the design to WORKDIR/design.v, runs
`yosys read_verilog -formal; prep -top TOP; async2sync; dffunmap; write_smt2` (`YOSYS_SCRIPT`), then
`yosys-smtbmc -s z3 --presat -t DEPTH` (bounded model checking from the initial state, which is the
reset state) and, when that passes, `yosys-smtbmc -s z3 -i -t K` (k-induction: the assertions hold
in K consecutive steps, so they hold in the next). These depths mean what
`sysr check --depth DEPTH --induction K` means: assertions checked in steps 0 to DEPTH-1;
induction assumes them in K steps and checks step K; one smtbmc step is one clock cycle.

Asynchronous resets: `write_smt2` cannot encode the `$adff` cells of
`always @(posedge clk or posedge arst)`. `async2sync` (Yosys 0.23, passes/sat/async2sync.cc)
replaces each by a flip-flop with a synchronous reset on the same signal and drives the old
output through a multiplexer, `Q = arst ? RESET_VALUE : stored` (`arst` low for `negedge`): while
the reset is active the register reads as its reset value in that same cycle, and the edge
stores the reset value. That is sysr's cycle model exactly (`sysr.elab.System.visible`,
`Ite(reset_active, init, stored)`, and the same next state as a synchronous reset); the reset is
a level sampled once per cycle, as the checker assumes (no pulse shorter than a clock period).
The alternative, `clk2fflogic`, makes the clock an input sampled on a faster global clock: a
sysr cycle would take two smtbmc steps and the reset could act between edges, a model the
checker does not have. `dffunmap` then turns the synchronous-reset flip-flops that async2sync
makes (`$sdff`, which Yosys 0.23's `write_smt2` does not take) into plain `$dff` with a
multiplexer in front; it changes no behaviour. Both passes do nothing to a design without an
asynchronous reset. (SymbiYosys runs async2sync itself with `multiclock off`, its default.)

The result is a record: each stage's status ("passed", "failed", "preunsat" when the assumptions
cannot hold, "error" when a tool failed or gave an answer we cannot read, "timeout"), the step and
the labels of the first failing assertions, and the time spent.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from ..judge.run import run_bounded
from ..judge.tools import find_tool, tool_env

# Yosys, from the `--formal` Verilog to the SMT-LIB model smtbmc reads (see the docstring).
YOSYS_SCRIPT = "read_verilog -formal design.v; prep -top {top}; async2sync; dffunmap; write_smt2 {smt2}"
# Several clocks or edges (sysr reference §4.1): SymbiYosys's `multiclock on`, Yosys' `clk2fflogic`.
# Every flip-flop becomes logic on the solver's global step, each clock a free input, a register
# taking its value in the steps where its clock's edge is seen; an asynchronous reset acts at once.
MULTICLOCK_SCRIPT = "read_verilog -formal design.v; prep -top {top}; clk2fflogic; write_smt2 {smt2}"
_EVENT = re.compile(r"always\s*@\(\s*(posedge|negedge)\s+([A-Za-z_][A-Za-z0-9_$]*)")


def is_multiclock(verilog_text: str) -> bool:
    """Whether the design's clocked blocks use more than one clock or edge (the first event of
    each `always @(...)`; an asynchronous reset is the second)."""
    return len(set(_EVENT.findall(verilog_text))) > 1
_STATUS = re.compile(r"Status: (PASSED|FAILED|PREUNSAT)")
_STEP = re.compile(r"Checking assertions in step (\d+)")
_FAILED = re.compile(r"Assert(?:ion)? failed in \S+: (\S+)")


@dataclass(frozen=True)
class Stage:
    status: str  # passed, failed, preunsat, error, timeout, skipped
    step: int | None = None  # BMC: the step of the first failure (or of unsatisfiable assumptions)
    failed: tuple[str, ...] = ()  # the labels (or locations) of the failing assertions
    seconds: float = 0.0
    log: str = ""


@dataclass(frozen=True)
class FlowResult:
    prep: Stage
    bmc: Stage
    induction: Stage

    @property
    def seconds(self) -> float:
        return self.prep.seconds + self.bmc.seconds + self.induction.seconds

    @property
    def verdict(self) -> str:
        """proven (BMC and induction pass), refuted (BMC fails), vacuous (assumptions cannot
        hold), not-inductive (BMC passes, induction fails), or error."""
        if self.prep.status != "passed" or "error" in (self.bmc.status, self.induction.status) \
                or "timeout" in (self.bmc.status, self.induction.status):
            return "error"
        if self.bmc.status == "failed":
            return "refuted"
        if self.bmc.status == "preunsat":
            return "vacuous"
        return "proven" if self.induction.status == "passed" else "not-inductive"


def _env() -> dict[str, str]:
    env = tool_env()
    env["PATH"] = str(Path(find_tool("z3")).parent) + ":" + env["PATH"]  # smtbmc runs `z3` from PATH
    return env


def _smtbmc(args: list[str], smt2: str, workdir: Path, timeout_s: float) -> Stage:
    r = run_bounded([find_tool("yosys-smtbmc"), "-s", "z3", *args, smt2], workdir, timeout_s, env=_env())
    if r.timed_out:
        return Stage("timeout", seconds=r.duration_s, log=r.output)
    m = _STATUS.search(r.stdout)
    if not r.ran or m is None:
        return Stage("error", seconds=r.duration_s, log=r.output)
    status = m.group(1).lower()
    steps = [int(s) for s in _STEP.findall(r.stdout)]
    step = steps[-1] if status == "failed" and steps else None
    if status == "preunsat":
        assumed = re.findall(r"Checking assumptions in step (\d+)", r.stdout)
        step = int(assumed[-1]) if assumed else None
    return Stage(status, step, tuple(_FAILED.findall(r.stdout)), r.duration_s, r.output)


def top_module(verilog_text: str) -> str:
    m = re.search(r"^module\s+([A-Za-z_][A-Za-z0-9_$]*)", verilog_text, re.M)
    if m is None:
        raise ValueError("no module in the Verilog text")
    return m.group(1)


def formal_flow(verilog_text: str, depth: int, induction: int, workdir: Path,
                timeout_s: float = 300.0, induction_always: bool = False, presat: bool = True) -> FlowResult:
    """Yosys, BMC to `depth` steps, then (if BMC passed, or always with induction_always)
    k-induction with k = `induction`. `presat` also checks that the assumptions can hold in
    each step (what tells a vacuous design, V001, apart)."""
    (workdir / "design.v").write_text(verilog_text)
    smt2 = "design.smt2"
    script = (MULTICLOCK_SCRIPT if is_multiclock(verilog_text) else YOSYS_SCRIPT).format(
        top=top_module(verilog_text), smt2=smt2)
    r = run_bounded([find_tool("yosys"), "-q", "-p", script], workdir, timeout_s)
    if not r.ran or r.returncode != 0:
        prep = Stage("timeout" if r.timed_out else "error", seconds=r.duration_s, log=r.output)
        return FlowResult(prep, Stage("skipped"), Stage("skipped"))
    prep = Stage("passed", seconds=r.duration_s)
    t0 = time.perf_counter()
    bmc = _smtbmc((["--presat"] if presat else []) + ["-t", str(depth)], smt2, workdir, timeout_s)
    if bmc.status != "passed" and not induction_always:
        return FlowResult(prep, bmc, Stage("skipped"))
    ind = _smtbmc(["-i", "-t", str(induction)], smt2, workdir, max(1.0, timeout_s - (time.perf_counter() - t0)))
    return FlowResult(prep, bmc, ind)


_REACHED = re.compile(r"Reached cover statement at (\S+) in step (\d+)")


def cover_flow(verilog_text: str, depth: int, workdir: Path, timeout_s: float = 300.0) -> dict[str, int] | None:
    """Yosys, then `yosys-smtbmc -c -t DEPTH`: each cover statement reached within `depth` steps
    from the initial state, by label, with the first step that reaches it (None when a tool
    failed or timed out)."""
    (workdir / "design.v").write_text(verilog_text)
    script = YOSYS_SCRIPT.format(top=top_module(verilog_text), smt2="design.smt2")
    r = run_bounded([find_tool("yosys"), "-q", "-p", script], workdir, timeout_s)
    if not r.ran or r.returncode != 0:
        return None
    r = run_bounded([find_tool("yosys-smtbmc"), "-s", "z3", "-c", "-t", str(depth), "design.smt2"], workdir,
                    timeout_s, env=_env())
    if r.timed_out or not r.ran or _STATUS.search(r.stdout) is None:
        return None
    reached: dict[str, int] = {}
    for label, step in _REACHED.findall(r.stdout):
        reached.setdefault(label, int(step))
    return reached
