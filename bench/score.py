"""The judge: a candidate goes through stages, and the first that fails names the result.

Stages: read; for sysr, `sysr check --json` and `sysr lower` through their command line; the
candidate guard; Yosys reading the Verilog (syntax) and its ports against iface.v (interface);
Yosys elaborating it (latches, combinational loops, multiple drivers) and, for tasks with
`resources`, synthesizing it and counting cells; Icarus compiling it with the hidden testbench;
`vvp` running it. PASS is decided by Yosys and Icarus only. Every tool runs in a fresh
temporary folder holding only what it needs, under `bench.run`'s limits; a tool that did not
run is a `tool-failure`, never a verdict on the design. The testbench's verdict lines carry a
per-run nonce, so a candidate that printed `PASS` would not be believed even if the guard
missed it. A sysr design rejected on its proofs alone is still lowered and judged, as a shadow
recorded beside the result (`bench.shadow`).
"""

from __future__ import annotations

import json
import re
import secrets
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from sysr import __version__ as SYSR_VERSION

from .guard import forbidden
from .records import CandidateResult, StageResult
from .run import RunResult, run_bounded
from .shadow import proofs_only, shadow_of
from .tasks import Task
from .tools import ToolMissing, find_tool, tool_version
from .verilog import PORTS_SCRIPT, PortInfo, compare_ports, ports_from_json

DETAIL_LINES = 40
DETAIL_CHARS = 4000


@dataclass
class Limits:
    check_s: float = 180.0
    tool_s: float = 120.0
    sim_s: float = 60.0


class Failed(Exception):
    """Raised inside the pipeline to stop at a failing stage; carries the stage record."""

    def __init__(self, stage: StageResult) -> None:
        super().__init__(stage.verdict)
        self.stage = stage


def short(text: str, lines: int = DETAIL_LINES) -> str:
    """The first lines of a tool's output that a model or a person needs."""
    out = "\n".join(text.strip().splitlines()[:lines])
    if len(out) > DETAIL_CHARS:
        out = out[:DETAIL_CHARS] + "\n[...]"
    return out


class Scorer:
    def __init__(self, limits: Limits | None = None, shadow: bool = True) -> None:
        self.limits = limits or Limits()
        self.shadow = shadow  # simulate sysr designs rejected on their proofs alone (bench.shadow)
        self._iface: dict[str, list[PortInfo]] = {}

    # ---- stage helpers ---------------------------------------------------------------------
    def _version(self, tool: str) -> str:
        if tool == "sysr":
            return f"sysr {SYSR_VERSION}"
        if not tool:
            return ""
        try:
            return tool_version(tool)
        except ToolMissing:
            return "missing"

    def _tool(self, name: str, stage: str) -> str:
        try:
            return find_tool(name)
        except ToolMissing as e:
            raise Failed(StageResult(stage=stage, tool=name, tool_version="missing", ran=False,
                                     verdict="tool-failure", duration_s=0.0, detail=str(e))) from None

    def _record(self, stage: str, tool: str, res: RunResult | None, verdict: str, detail: str = "",
                duration: float | None = None) -> StageResult:
        return StageResult(stage=stage, tool=tool, tool_version=self._version(tool),
                           ran=res.ran if res is not None else True, verdict=verdict,
                           duration_s=round(duration if duration is not None else (res.duration_s if res else 0.0), 4),
                           detail=detail)

    def _tool_failure(self, stage: str, tool: str, res: RunResult) -> Failed:
        why = res.error or f"exit status {res.returncode}"
        detail = f"{tool} did not run to completion ({why})\n{short(res.output)}"
        return Failed(self._record(stage, tool, res, "tool-failure", detail))

    # ---- sysr stages -----------------------------------------------------------------------
    def sysr_check(self, work: Path) -> StageResult:
        argv = [sys.executable, "-P", "-m", "sysr.cli", "check", "--json", "candidate.sysr"]
        res = run_bounded(argv, work, self.limits.check_s)
        if res.timed_out:
            raise Failed(self._record("check", "sysr", res, "tool-failure",
                                      f"sysr check did not finish in {self.limits.check_s:g} s"))
        try:
            data = json.loads(res.stdout)
        except json.JSONDecodeError:
            raise self._tool_failure("check", "sysr", res) from None
        if res.returncode == 1 and not data.get("accepted", True):
            stage = self._record("check", "sysr", res, "check-failed", short(data.get("text", ""), 80))
            stage.codes = [d.get("code", "") for d in data.get("diagnostics", []) if d.get("severity") == "error"]
            raise Failed(stage)
        if res.returncode != 0:
            raise self._tool_failure("check", "sysr", res)
        return self._record("check", "sysr", res, "ok")

    def sysr_lower(self, work: Path) -> tuple[StageResult, str]:
        argv = [sys.executable, "-P", "-m", "sysr.cli", "lower", "candidate.sysr", "-o", "candidate.v"]
        res = run_bounded(argv, work, self.limits.check_s)
        if res.returncode == 1:
            raise Failed(self._record("lower", "sysr", res, "lower-failed", short(res.stderr)))
        if res.returncode != 0 or not (work / "candidate.v").is_file():
            raise self._tool_failure("lower", "sysr", res)
        return self._record("lower", "sysr", res, "ok"), (work / "candidate.v").read_text()

    # ---- Verilog stages --------------------------------------------------------------------
    def iface_ports(self, task: Task) -> list[PortInfo]:
        if task.name not in self._iface:
            with tempfile.TemporaryDirectory(prefix="bench-iface-") as d:
                ports, res = self.read_ports(Path(d), task.text("iface.v"), task.top, "interface")
            if ports is None:
                raise Failed(self._record("interface", "yosys", res, "tool-failure",
                                          f"could not read the task's own iface.v:\n{short(res.output)}"))
            self._iface[task.name] = ports
        return self._iface[task.name]

    def read_ports(self, work: Path, verilog: str, top: str, stage: str):
        (work / "design.v").write_text(verilog)
        yosys = self._tool("yosys", stage)
        res = run_bounded([yosys, "-q", "-p", PORTS_SCRIPT], work, self.limits.tool_s)
        if not res.ran:
            raise self._tool_failure(stage, "yosys", res)
        if res.returncode != 0 or not (work / "ports.json").is_file():
            return None, res
        return ports_from_json(work / "ports.json", top) or [], res

    def syntax_and_interface(self, task: Task, work: Path, verilog: str) -> list[StageResult]:
        ports, res = self.read_ports(work, verilog, task.top, "syntax")
        if ports is None:
            raise Failed(self._record("syntax", "yosys", res, "syntax", short(_errors(res.output))))
        stages = [self._record("syntax", "yosys", res, "ok")]
        want = self.iface_ports(task)
        t0 = time.perf_counter()
        if ports == []:
            detail = f"no module named `{task.top}`; the design's top module must be `{task.top}`"
        else:
            detail = compare_ports(ports, want)
        if detail:
            expected = ", ".join(str(p) for p in want)
            raise Failed(self._record("interface", "yosys", res, "interface",
                                      f"{detail}\nexpected ports: {expected}", time.perf_counter() - t0))
        stages.append(self._record("interface", "yosys", res, "ok", duration=time.perf_counter() - t0))
        return stages

    def elaborate(self, task: Task, work: Path) -> StageResult:
        yosys = self._tool("yosys", "elaborate")
        script = f"read_verilog design.v; hierarchy -check -top {task.top}; proc; check; stat"
        res = run_bounded([yosys, "-p", script], work, self.limits.tool_s)
        if not res.ran:
            raise self._tool_failure("elaborate", "yosys", res)
        log = res.output
        if res.returncode != 0:
            raise Failed(self._record("elaborate", "yosys", res, "syntax", short(_errors(log))))
        latches = re.findall(r"^.*Latch inferred for signal.*$", log, re.M)
        if latches or re.search(r"\$_?DLATCH|\$dlatch", log):
            detail = "\n".join(l.strip() for l in latches) or "a latch was inferred"
            raise Failed(self._record("elaborate", "yosys", res, "latch",
                                      "latch inferred (a signal is not assigned on every path):\n" + short(detail)))
        loops = re.findall(r"^.*found logic loop.*$(?:\n\s+.*$)*", log, re.M)
        if loops:
            raise Failed(self._record("elaborate", "yosys", res, "comb-loop", short("\n".join(loops))))
        drivers = re.findall(r"^.*(?:multiple conflicting drivers|conflicting driver).*$", log, re.M)
        if drivers:
            raise Failed(self._record("elaborate", "yosys", res, "multi-driver", short("\n".join(drivers))))
        return self._record("elaborate", "yosys", res, "ok")

    def resources(self, task: Task, work: Path) -> StageResult:
        yosys = self._tool("yosys", "resources")
        script = task.resources.script.replace("TOP", task.top)
        res = run_bounded([yosys, "-p", f"read_verilog design.v; {script}; stat"], work, self.limits.tool_s * 3)
        if not res.ran or res.returncode != 0:
            raise self._tool_failure("resources", "yosys", res)
        missing = []
        for cell, need in task.resources.cells.items():
            counts = [int(n) for n in re.findall(rf"^\s+{re.escape(cell)}\s+(\d+)\s*$", res.stdout, re.M)]
            got = counts[-1] if counts else 0
            if got < need:
                missing.append(f"{cell}: need at least {need}, synthesis inferred {got}")
        if missing:
            raise Failed(self._record("resources", "yosys", res, "missing-resource",
                                      "\n".join(missing) + f"\n(after `{script}`)"))
        return self._record("resources", "yosys", res, "ok")

    def simulate(self, task: Task, work: Path) -> list[StageResult]:
        nonce = secrets.token_hex(8)
        tb = task.text("tb.v")
        tb = tb.replace('"PASS"', f'"PASS#{nonce}"').replace('"FAIL cycle', f'"FAIL#{nonce} cycle')
        (work / "tb.v").write_text(tb)
        iverilog = self._tool("iverilog", "compile")
        res = run_bounded([iverilog, "-g2005", "-o", "sim", "tb.v", "design.v"], work, self.limits.tool_s)
        if not res.ran:
            raise self._tool_failure("compile", "iverilog", res)
        if res.returncode != 0:
            raise Failed(self._record("compile", "iverilog", res, "compile", short(res.output)))
        stages = [self._record("compile", "iverilog", res, "ok")]
        vvp = self._tool("vvp", "simulate")
        res = run_bounded([vvp, "-n", "sim"], work, self.limits.sim_s)
        if res.timed_out:
            raise Failed(self._record("simulate", "vvp", res, "timeout",
                                      f"the simulation did not finish within {self.limits.sim_s:g} s "
                                      "(a combinational loop that never settles, or a design that never "
                                      "lets the testbench end)"))
        if not res.ran:
            raise self._tool_failure("simulate", "vvp", res)
        verdicts = re.findall(rf"^(PASS#{nonce}|FAIL#{nonce} .*)$", res.stdout, re.M)
        if not verdicts:
            raise Failed(self._record("simulate", "vvp", res, "no-verdict",
                                      "the testbench ended without a verdict\n" + short(res.output, 10)))
        first = verdicts[0].replace(f"#{nonce}", "")
        if first != "PASS":
            raise Failed(self._record("simulate", "vvp", res, "wrong-output", first))
        stages.append(self._record("simulate", "vvp", res, "ok"))
        return stages

    # ---- the whole candidate ---------------------------------------------------------------
    def score(self, task: Task, lang: str, source: str | None) -> CandidateResult:
        result = CandidateResult(task=task.name, lang=lang, result="PASS")
        if source is None or not source.strip():
            result.result = "no-code"
            result.stages.append(StageResult(stage="read", tool="", tool_version="", ran=True,
                                             verdict="no-code", duration_s=0.0,
                                             detail="no candidate file" if source is None else "the file is empty"))
            return result
        with tempfile.TemporaryDirectory(prefix=f"bench-{task.name}-") as d:
            work = Path(d)
            try:
                self._pipeline(task, lang, source, work, result.stages)
            except Failed as f:
                result.stages.append(f.stage)
                result.result = f.stage.verdict
        if self.shadow and lang == "sysr" and proofs_only(result.stages[-1]):
            result.shadow = shadow_of(self, task, source)  # beside the result, never instead of it
        return result

    def _pipeline(self, task: Task, lang: str, source: str, work: Path, stages: list) -> None:
        if lang == "sysr":
            (work / "candidate.sysr").write_text(source)
            stages.append(self.sysr_check(work))
            stage, verilog = self.sysr_lower(work)
            stages.append(stage)
        else:
            verilog = source
        t0 = time.perf_counter()
        why = forbidden(verilog)
        if why:
            raise Failed(self._record("guard", "", None, "forbidden", why, time.perf_counter() - t0))
        stages.append(self._record("guard", "", None, "ok", duration=time.perf_counter() - t0))
        stages += self.syntax_and_interface(task, work, verilog)
        stages.append(self.elaborate(task, work))
        if task.resources is not None:
            stages.append(self.resources(task, work))
        stages += self.simulate(task, work)


def _errors(log: str) -> str:
    """Yosys's error lines, or the whole log when it has none."""
    lines = [l for l in log.splitlines() if "ERROR" in l or "error" in l.lower()]
    return "\n".join(lines) if lines else log
