"""The judge: a candidate goes through stages, and the first that fails names the result.

Stages: read (a candidate over `guard.CANDIDATE_LIMIT` bytes is `too-large`); for sysr,
`sysr check --json` and `sysr lower` through their command line; preprocess (`iverilog -E`, once)
and the guard on the preprocessed text (`bench.judge.guard`, then `bench.judge.agree`, which
refuses what Yosys and Icarus would elaborate differently); Yosys reading the guarded text (syntax)
and its ports against iface.v (interface); Yosys elaborating it (latches, combinational loops,
multiple drivers); Verilator's lint (`bench.judge.lint`); for tasks with `resources`,
synthesizing it and counting cells; Icarus compiling the same text alone (it must reach no name outside itself:
`compile`), then with the hidden testbench; `vvp` running it (`bench.judge.simulate`), its
verdict counting as many samples as the reference's (`bench.judge.verdicts`). PASS is decided by
Yosys and Icarus only, on one text that both elaborate alike, so no stage can be shown a
different design.

Every tool run is bounded (`bench.judge.run`) and Yosys, iverilog and vvp run sandboxed
(`bench.judge.sandbox`): one sandbox per candidate (`bench.judge.session`), each stage in a folder of the
work folder, which holds only what the stage running now needs. What a tool run means:

- it could not start (missing, no sandbox): `tool-failure`, not a verdict on the design;
- it hit its time, memory or output limit: `resource-limit`, a failure of the candidate (a
  simulation that does not finish in time is `timeout`, as before); all the runs for one
  candidate share one time budget (`Limits.total_s`, 300 s), each run also has its own limit;
  a file the simulation writes (an upstream testbench's VCD, in its own run folder) is cut at
  `Limits.sim_file_bytes` (vvp runs with SIGXFSZ ignored, `bench.judge.session`, so it sees a failed write) and
  the run goes on; all the files of the candidate's work folder together are held to
  `Limits.disk_bytes` (the run that passes it is stopped: `resource-limit`);
- it crashed (a signal, an abort): a failure of the candidate with the stage's own result
  (`syntax` for Yosys and the preprocessor, `compile` for iverilog, `no-verdict` for vvp), if
  the same stage runs fine on the task's reference in this run (checked once per task and
  stage, then cached); if it fails there too the tool is broken here: `tool-failure`;
- `sysr check` or `sysr lower` ending in an internal error (exit 2, a crash, output that is not
  its JSON report) is a failure of the candidate, `check-failed` or `lower-failed` with a
  detail saying our checker failed; its limits are `resource-limit`. Never a tool failure.

Every stage records `log_digest` (`results.digest`: of its tool's output, or of its own detail
for a stage the scorer decides itself). Details never carry text of the hidden files
(`bench.judge.detail`). A sysr design rejected on its proofs alone is still lowered and judged,
as a shadow recorded beside the result (`Scorer.shadow_of`; its classification for the reports
is `bench.report.shadow`).

Imported suite tasks differ only in settings of their task.json: the language every stage reads
(`bench.judge.dialect`: SystemVerilog for the imported suites), how the testbench states its
verdict (`bench.judge.verdicts`), and whether the port order is part of the interface.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sysr import __version__ as SYSR_VERSION
from sysr.lower import needed_externs

from . import agree, dialect, guard, sandbox, scratch, simulate, verdicts
from . import lint as L
from .cache import ResultCache, key as cache_key
from .detail import DESIGN, as_received, short, sim_output, with_testbench, yosys_errors
from .results import CandidateResult, Shadow, StageResult, digest, proofs_only
from .run import DEFAULT_MEMORY_BYTES, RunResult, run_bounded
from .session import Session
from .tasks import Task
from .tools import ToolMissing, find_tool, tool_version
from ..verilog.modules import fenced_modules
from .yosys_log import elaboration_findings, last_count
from ..verilog.ports import PortInfo, compare_ports, ports_from_json, ports_script

YOSYS_OUTPUT = 4 * 1024**2  # Yosys's log of a large synthesis is long; killed past this
SYSR_OUTPUT = 4 * 1024**2
CRASH_RESULT = {"preprocess": "syntax", "syntax": "syntax", "interface": "syntax", "elaborate": "syntax",
                "lint": "lint", "resources": "missing-resource", "compile": "compile", "simulate": "no-verdict"}
_IFACE: dict[tuple[str, str, str], list[PortInfo]] = {}  # (top, language, iface.v's text) -> its ports
_ELABORATE = "BENCH-ELABORATE"  # the line Yosys logs between reading and elaborating
# How a crash of a tool's child process shows (the shell's report, glibc's assert, C++'s terminate).
_CRASH_WORDS = ("Segmentation fault", "core dumped", "Aborted", "Assertion `", "terminate called")


@dataclass
class Limits:
    check_s: float = 180.0  # sysr check, sysr lower
    tool_s: float = 120.0  # each preprocessor, Yosys and iverilog run (synthesis for resources: 3x)
    sim_s: float = 60.0  # the simulation
    total_s: float = 300.0  # all the runs for one candidate together
    memory_bytes: int = DEFAULT_MEMORY_BYTES
    sim_file_bytes: int = 64 * 1024**2  # each file a simulation writes (an upstream testbench's VCD)
    disk_bytes: int = 128 * 1024**2  # all the files of a candidate's work folder together


class Failed(Exception):
    """Raised inside the pipeline to stop at a failing stage; carries the stage record."""

    def __init__(self, stage: StageResult) -> None:
        super().__init__(stage.verdict)
        self.stage = stage


class Scorer:
    def __init__(self, limits: Limits | None = None, check_reference: bool = True,
                 shadow: bool = True, cache: ResultCache | None = None, lint: bool = False) -> None:
        self.limits = limits or Limits()
        self.lint = lint  # Verilator's failing warnings fail the design (bench.judge.lint); off: recorded only
        self.check_reference = check_reference
        self.shadow = shadow  # simulate sysr designs rejected on their proofs alone (Scorer.shadow_of)
        self.cache = cache  # results by content hash (bench.judge.cache); None: every candidate is scored
        self.guard = guard.judge  # replaceable in tests, to show the walls behind it
        # Whether details may quote the hidden files' messages: only for `bench suite import`, whose
        # user scores references against testbenches from their own checkout.
        self.reveal = False
        self.sysr = [sys.executable, "-P", "-m", "sysr.cli"]  # the checker's command line
        self._reference: dict[str, set[str]] = {}  # task -> stages the reference passed
        self._reference_lint: dict[str, set[str]] = {}  # task -> the lint codes of its reference
        self._counts: dict[str, str] = {}  # task -> what its reference's verdict counts ("": no pass)
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        # when the candidate being scored in this thread runs out (`at`), and whether it is the reference
        self._deadline = threading.local()
        self._box = threading.local()  # the sandbox of the candidate being scored in this thread

    # ---- records ----------------------------------------------------------------------------
    def _version(self, tool: str) -> str:
        if tool == "sysr":
            return f"sysr {SYSR_VERSION}"
        if not tool:
            return ""
        try:
            return tool_version(tool)
        except ToolMissing:
            return "missing"

    def _record(self, stage: str, tool: str, res: RunResult | None, verdict: str, detail: str = "",
                duration: float | None = None) -> StageResult:
        if duration is None:
            duration = res.duration_s if res else 0.0
        return StageResult(stage=stage, tool=tool, tool_version=self._version(tool),
                           ran=res.ran if res is not None else True, verdict=verdict,
                           duration_s=round(duration, 4), detail=detail,
                           log_digest=digest(res.stdout, res.stderr) if res is not None and res.started else None)

    def _fail(self, stage: str, tool: str, res: RunResult | None, verdict: str, detail: str) -> Failed:
        return Failed(self._record(stage, tool, res, verdict, detail))

    def _tool(self, name: str, stage: str) -> str:
        try:
            return find_tool(name)
        except ToolMissing as e:
            raise Failed(StageResult(stage=stage, tool=name, tool_version="missing", ran=False,
                                     verdict="tool-failure", duration_s=0.0, detail=str(e))) from None

    # ---- running a tool on candidate input -------------------------------------------------
    def _run(self, task: Task, stage: str, tool: str, args: list[str], work: Path, timeout_s: float,
             output_limit: int = 256 * 1024, file_bytes: int = 64 * 1024**2,
             time_result: str = "resource-limit", cut_files: bool = False) -> RunResult:
        """Run a sandboxed tool; raise Failed for everything but an exit of its own (see the module doc)."""
        timeout_s = self._budget(stage, tool, timeout_s)
        argv = [self._tool(tool, stage), *args]
        with self._sandboxed(work) as box:
            res = box.run(argv, work, timeout_s, self.limits.memory_bytes, file_bytes, output_limit, cut_files,
                          self.limits.disk_bytes)
        if not res.started:
            raise self._fail(stage, tool, res, "tool-failure", f"{tool} did not run: {res.error}")
        if res.limit == "time" and time_result == "timeout":
            raise self._fail(stage, tool, res, "timeout",
                             f"the simulation did not finish within {timeout_s:g} s (a combinational loop "
                             "that never settles, or a design that never lets the testbench end)")
        if res.limit:
            raise self._fail(stage, tool, res, "resource-limit", f"{tool} exceeded its {res.limit} limit on "
                             f"this design ({res.error}); it counts as a failure of the design")
        if res.crashed or (res.returncode != 0 and any(w in res.stderr for w in _CRASH_WORDS)):
            why = res.error or f"exit status {res.returncode}"
            if self.check_reference and self._reference_passes(task, stage):
                raise self._fail(stage, tool, res, CRASH_RESULT[stage],
                                 f"{tool} crashed on this design ({why}); it runs the task's reference "
                                 "fine, so the crash counts against the design")
            raise self._fail(stage, tool, res, "tool-failure",
                             f"{tool} did not run to completion ({why}), on the task's reference too")
        return res

    @contextmanager
    def _sandboxed(self, work: Path):
        """The sandbox to run tools in `work`: this thread's candidate's, or one just for this `with`."""
        outer = getattr(self._box, "session", None)
        if outer is not None and outer.holds(work):
            yield outer
            return
        tools = {}
        for name in ("yosys", "iverilog", "vvp", "verilator"):
            try:
                tools[name] = find_tool(name)
            except ToolMissing:
                pass  # its stage says so (`_tool`)
        with Session(work, list(tools.values()), tools.get("yosys", "")) as box:
            self._box.session = box
            try:
                yield box
            finally:
                self._box.session = outer

    def _budget(self, stage: str, tool: str, timeout_s: float) -> float:
        """The stage's time limit, cut to what is left of the candidate's `total_s`."""
        left = getattr(self._deadline, "at", float("inf")) - time.monotonic()
        if left <= 0:
            raise Failed(StageResult(stage=stage, tool=tool, tool_version=self._version(tool), ran=False,
                                     verdict="resource-limit", duration_s=0.0,
                                     detail=f"the candidate used up its {self.limits.total_s:g} s for all "
                                            "its tool runs before this stage"))
        return min(timeout_s, left)

    def _reference_passes(self, task: Task, stage: str) -> bool:
        """Whether the task's Verilog reference passes `stage` in this run (scored once per task)."""
        with self._lock:
            lock = self._locks.setdefault(task.name, threading.Lock())
        with lock:
            if task.name not in self._reference:
                ref = Scorer(self.limits, check_reference=False)
                r = ref.score(task, "verilog", task.text("ref.v"))
                self._reference[task.name] = {s.stage for s in r.stages if s.verdict == "ok"}
        return stage in self._reference[task.name]

    def _reference_count(self, task: Task, count: str) -> str | None:
        """What the verdict of the task's reference counts (`bench.judge.verdicts`: its samples, or
        when a verdict without a count was printed), taken from the reference's own run in this
        scorer: recorded when the candidate is the reference (as when an import validates the
        task), else scored once per task. None for this project's PASS/FAIL verdicts and for a task
        whose reference does not pass, and for RTLLM's, printed only at the end of the testbench's own
        checks (a design that ends the simulation early prints no pass line)."""
        if task.verdict.style in ("pass-fail", "rtllm"):
            return None
        if getattr(self._deadline, "reference", False):
            with self._lock:
                self._counts[task.name] = count
            return count
        with self._lock:
            lock = self._locks.setdefault(f"{task.name} count", threading.Lock())
        with lock:
            if task.name not in self._counts:
                ref = Scorer(self.limits, check_reference=False, shadow=False)
                ref.score(task, "verilog", task.text("ref.v"))
                self._counts[task.name] = ref._counts.get(task.name, "")
        return self._counts[task.name] or None

    # ---- sysr stages -----------------------------------------------------------------------
    def _sysr(self, stage: str, argv: list[str], work: Path) -> RunResult:
        res = run_bounded([*self.sysr, *argv], work, self._budget(stage, "sysr", self.limits.check_s),
                          self.limits.memory_bytes, output_limit=SYSR_OUTPUT)
        if not res.started:
            raise self._fail(stage, "sysr", res, "tool-failure", f"sysr did not run: {res.error}")
        if res.limit:
            raise self._fail(stage, "sysr", res, "resource-limit",
                             f"sysr {stage} exceeded its {res.limit} limit on this design ({res.error}); "
                             "it counts as a failure of the design")
        return res

    def _sysr_crash(self, stage: str, res: RunResult, verdict: str) -> Failed:
        why = res.error or f"exit status {res.returncode}"
        tail = "\n".join(res.stderr.strip().splitlines()[-5:])
        return self._fail(stage, "sysr", res, verdict,
                          f"sysr {stage} failed on this design with an internal error ({why}); it counts "
                          f"as a rejection of the design\n{short(tail, 5)}")

    def sysr_check(self, task: Task, work: Path) -> StageResult:
        """`sysr check` on the candidate, the task's module as the top (a candidate may hold
        several modules: every one is checked, `--top` says which one the task asks for)."""
        res = self._sysr("check", ["check", "--json", "--top", task.top, "candidate.sysr"], work)
        try:
            data = json.loads(res.stdout)
            accepted = data["accepted"]
        except (json.JSONDecodeError, KeyError, TypeError):
            raise self._sysr_crash("check", res, "check-failed") from None
        if res.returncode == 1 and accepted is False:
            failed = self._fail("check", "sysr", res, "check-failed", short(str(data.get("text", "")), 80))
            failed.stage.codes = [str(d.get("code", "")) for d in data.get("diagnostics", [])
                                  if isinstance(d, dict) and d.get("severity") == "error"]
            raise failed
        if res.returncode != 0 or accepted is not True:
            raise self._sysr_crash("check", res, "check-failed")
        return self._record("check", "sysr", res, "ok")

    def sysr_lower(self, task: Task, work: Path) -> tuple[StageResult, str]:
        """The candidate's Verilog: the task's top module and every module it instantiates, then
        the Verilog of its extern modules, which the task's prompt gives (ChipBench's
        not-self-contained problems give submodules in fenced blocks)."""
        res = self._sysr("lower", ["lower", "--top", task.top, "candidate.sysr", "-o", "candidate.v"], work)
        if res.returncode == 1:
            raise self._fail("lower", "sysr", res, "lower-failed", short(res.stderr))
        out = work / "candidate.v"
        if res.returncode != 0 or not out.is_file():
            raise self._sysr_crash("lower", res, "lower-failed")
        verilog = out.read_text(errors="replace")
        externs = needed_externs(verilog)
        if externs:
            given = fenced_modules(task.prompt)
            missing = [name for name in externs if name not in given]
            if missing:
                offer = f"it gives {', '.join(f'`{n}`' for n in given)}" if given else "it gives no Verilog module"
                raise self._fail("lower", "sysr", res, "lower-failed",
                                 f"the design instantiates the extern module(s) {', '.join(f'`{n}`' for n in missing)}, "
                                 f"whose Verilog the task does not give ({offer}): write them in sysr")
            verilog += "".join(f"\n// Given by the task: the extern module `{n}`.\n{given[n]}\n" for n in externs)
        return self._record("lower", "sysr", res, "ok"), verilog

    # ---- preprocessing and the guard -------------------------------------------------------
    def guarded(self, task: Task, work: Path, verilog: str, stages: list[StageResult]) -> tuple[str, str | None]:
        """Preprocess once and judge the result: the text every later tool is given, and what the
        parse of `bench.judge.agree` could not read (None: it read all)."""
        why = guard.raw_problem(verilog)
        if why:
            raise self._fail("guard", "", None, "forbidden", why)
        pre = work / "front"  # the preprocessor's and then Yosys's folder: nothing hidden is in it
        pre.mkdir()
        (pre / "candidate.v").write_text(verilog)
        lang = dialect.of(task)
        args = [lang.iverilog, "-E", "-Mdeps.txt", "-o", "pre.v", "candidate.v"]
        res = self._run(task, "preprocess", "iverilog", args, pre, self.limits.tool_s,
                        file_bytes=guard.PREPROCESSED_LIMIT)
        if res.returncode != 0 or not (pre / "pre.v").is_file():
            raise self._fail("preprocess", "iverilog", res, "syntax", short(res.output))
        stages.append(self._record("preprocess", "iverilog", res, "ok"))
        t0 = time.perf_counter()
        if not (pre / "deps.txt").is_file():
            raise self._fail("preprocess", "iverilog", res, "tool-failure",
                             "iverilog -E did not write the list of files it read (-M)")
        if (pre / "deps.txt").read_text(errors="replace").split() != ["candidate.v"]:  # only the candidate
            raise self._fail("guard", "", None, "forbidden", "`include is not allowed in a candidate "
                             "(a macro built one)")
        judged = self.guard((pre / "pre.v").read_text(errors="replace"), verilog, system=lang.system)
        reading = agree.check(judged.text, lang is dialect.SYSTEMVERILOG) if not judged.problem else None
        problem = judged.problem or reading.problem
        if problem:
            raise Failed(self._record("guard", "", None, "forbidden", problem, time.perf_counter() - t0))
        stages.append(self._record("guard", "", None, "ok", duration=time.perf_counter() - t0))
        return judged.text, reading.unread

    # ---- Yosys stages ----------------------------------------------------------------------
    def iface_ports(self, task: Task) -> list[PortInfo]:
        """The ports of the task's iface.v as Yosys reads them (once per process and content)."""
        text = task.text("iface.v")
        key = (task.top, task.language, text)
        if key not in _IFACE:
            with tempfile.TemporaryDirectory(prefix="bench-iface-") as d:
                (Path(d) / DESIGN).write_text(text)
                ports, res = self.read_ports(task, Path(d), "interface")
            if ports is None:
                raise self._fail("interface", "yosys", res, "tool-failure",
                                 f"could not read the task's own iface.v:\n{short(res.output)}")
            _IFACE[key] = ports
        return _IFACE[key]

    def read_ports(self, task: Task, work: Path, stage: str):
        script = ports_script(dialect.of(task).yosys_read)
        res = self._run(task, stage, "yosys", ["-q", "-p", script], work, self.limits.tool_s,
                        output_limit=YOSYS_OUTPUT)
        if res.returncode != 0 or not (work / "ports.json").is_file():
            return None, res
        return ports_from_json(work / "ports.json", task.top) or [], res

    def yosys_checks(self, task: Task, work: Path) -> list[StageResult]:
        """One Yosys run for three stages: reading the design and its ports (syntax), then, once the
        ports match iface.v (interface), elaborating it under the top module (elaborate)."""
        # Processes are deleted, not run, before the ports are written: `proc` can fail on a design
        # that reads fine (a latch in a SystemVerilog always_comb), which is elaboration's finding.
        read = dialect.of(task).yosys_read
        script = (f"{read} {DESIGN}; design -save read; delete p:*; write_json ports.json; design -load read; "
                  f"log {_ELABORATE}; hierarchy -check -top {task.top}; proc; check; stat")
        res = self._run(task, "syntax", "yosys", ["-p", script], work, self.limits.tool_s,
                        output_limit=YOSYS_OUTPUT)
        read, _, log = res.output.rpartition(f"\n{_ELABORATE}\n")
        if not read or not (work / "ports.json").is_file():
            raise self._fail("syntax", "yosys", res, "syntax", yosys_errors(res.output))
        ports = ports_from_json(work / "ports.json", task.top) or []
        stages = [self._record("syntax", "yosys", res, "ok")]
        stages.append(self.interface(task, ports, res))
        latches, loops, drivers = elaboration_findings(log)
        if res.returncode != 0 and not latches:  # Yosys stops on a latch in an always_comb
            raise Failed(self._record("elaborate", "yosys", res, "syntax", yosys_errors(log), 0.0))
        if latches or "$_DLATCH" in log or "$dlatch" in log:
            detail = "\n".join(latches) or "a latch was inferred"
            raise Failed(self._record("elaborate", "yosys", res, "latch",
                                      "latch inferred (a signal is not assigned on every path):\n" + short(detail), 0.0))
        if loops and self._loops_bit_by_bit(task, work):
            raise Failed(self._record("elaborate", "yosys", res, "comb-loop", short("\n".join(loops)), 0.0))
        if drivers:
            raise Failed(self._record("elaborate", "yosys", res, "multi-driver", short("\n".join(drivers)), 0.0))
        stages.append(self._record("elaborate", "yosys", res, "ok", duration=0.0))
        return stages

    def _loops_bit_by_bit(self, task: Task, work: Path) -> bool:
        """Whether the design has a combinational loop once its cells are single-bit gates.

        Yosys's `check` takes every input bit of a word-level cell to reach every output bit, so a
        vector computed from its own lower bits (a ripple chain: `c[3:1] = c[2:0] & p`, or `c =
        {c[2:0], a} + b`) shows as a loop that no bit of it has. The same check after `techmap`
        sees each bit's own gates, so a loop found there is real; a loop found on words is only
        ever a superset of those, hence this second run only when the first found one. If it does
        not run to its end, the word-level finding stands."""
        read = dialect.of(task).yosys_read
        script = f"{read} {DESIGN}; hierarchy -check -top {task.top}; proc; techmap; check"
        res = self._run(task, "elaborate", "yosys", ["-q", "-p", script], work, self.limits.tool_s,
                        output_limit=YOSYS_OUTPUT)
        return res.returncode != 0 or bool(elaboration_findings(res.output)[1])

    def interface(self, task: Task, ports: list[PortInfo], res: RunResult) -> StageResult:
        want = self.iface_ports(task)
        t0 = time.perf_counter()
        if ports == []:
            detail = f"no module named `{task.top}`; the design's top module must be `{task.top}`"
        else:
            detail = compare_ports(ports, want, ordered=task.port_order)
        if detail:
            expected = ", ".join(str(p) for p in want)
            raise Failed(self._record("interface", "yosys", res, "interface",
                                      f"{detail}\nexpected ports: {expected}", time.perf_counter() - t0))
        return self._record("interface", "yosys", res, "ok", duration=time.perf_counter() - t0)

    def resources(self, task: Task, work: Path) -> StageResult:
        script = task.resources.script.replace("TOP", task.top)
        read = dialect.of(task).yosys_read
        res = self._run(task, "resources", "yosys", ["-p", f"{read} {DESIGN}; {script}; stat"], work,
                        self.limits.tool_s * 3, output_limit=YOSYS_OUTPUT)
        if res.returncode != 0:
            raise self._fail("resources", "yosys", res, "missing-resource",
                             f"synthesis (`{script}`) failed:\n" + yosys_errors(res.output))
        missing = []
        for cell, need in task.resources.cells.items():
            got = last_count(res.stdout, cell)
            if got < need:
                missing.append(f"{cell}: need at least {need}, synthesis inferred {got}")
        if missing:
            raise self._fail("resources", "yosys", res, "missing-resource",
                             "\n".join(missing) + f"\n(after `{script}`)")
        return self._record("resources", "yosys", res, "ok")

    # ---- Icarus stages ---------------------------------------------------------------------
    def simulate(self, task: Task, work: Path, verilog: str) -> list[StageResult]:
        nonce = simulate.new_nonce()
        comp = work / "compile"
        comp.mkdir()
        (comp / DESIGN).write_text(verilog)
        gen = dialect.of(task).iverilog
        with self._sandboxed(work):  # compile and simulation in one sandbox (bench.judge.simulate)
            # Alone first: a design that reaches a name outside itself (an undotted call resolves
            # upward, in Icarus, to the testbench's own task or function) does not compile alone.
            res = self._run(task, "compile", "iverilog", [gen, "-tnull", DESIGN], comp, self.limits.tool_s)
            if res.returncode != 0:
                raise self._fail("compile", "iverilog", res, "compile", short(res.output))  # nothing hidden read
            alone = res.duration_s
            (comp / "tb.v").write_text(verdicts.nonced(task.text("tb.v"), nonce, task.verdict))
            res = self._run(task, "compile", "iverilog", [gen, "-o", simulate.PROGRAM, "tb.v", DESIGN], comp,
                            self.limits.tool_s)
            if res.returncode != 0 or not (comp / simulate.PROGRAM).is_file():
                raise self._fail("compile", "iverilog", res, "compile",
                                 short(res.output) if self.reveal else with_testbench(res.output))
            stages = [self._record("compile", "iverilog", res, "ok", duration=alone + res.duration_s)]
            with simulate.ProgramPipe(comp, work / "run") as pipe:  # removes comp: tb.v, the nonce
                res = self._run(task, "simulate", "vvp", ["-n", simulate.PROGRAM], pipe.fifo.parent,
                                self.limits.sim_s, file_bytes=self.limits.sim_file_bytes,
                                time_result="timeout", cut_files=True)
        got = verdicts.read(res.stdout, nonce, task.verdict)
        if got is None:
            raise self._fail("simulate", "vvp", res, "no-verdict",
                             "the testbench ended without a verdict\n" + sim_output(res.output))
        if not got.passed:
            raise self._fail("simulate", "vvp", res, "wrong-output", got.line)
        want = self._reference_count(task, got.count)
        if want is not None and got.count != want:
            raise self._fail("simulate", "vvp", res, "wrong-output",
                             f"{got.line}: the testbench's verdict counts {got.count}; with the task's reference "
                             f"it counts {want} (the simulation ended early or ran on)")
        stages.append(self._record("simulate", "vvp", res, "ok", got.line))
        return stages

    # ---- the whole candidate ---------------------------------------------------------------
    def score(self, task: Task, lang: str, source: str | Oversized | None) -> CandidateResult:
        result = CandidateResult(task=task.name, lang=lang, result="PASS")
        why = _unreadable(source)
        if why:
            verdict = "too-large" if isinstance(source, Oversized) or (source and source.strip()) else "no-code"
            result.result = verdict
            result.stages.append(StageResult(stage="read", tool="", tool_version="", ran=True,
                                             verdict=verdict, duration_s=0.0, detail=why, log_digest=digest(why, "")))
            return result
        source = _normal(source)
        key = self._cache_key(task, lang, source)
        if key and (hit := self.cache.get(key)):
            return hit
        self._deadline.at = time.monotonic() + self.limits.total_s
        self._deadline.reference = lang == "verilog" and source == _normal(task.text("ref.v"))
        with scratch.folder(f"bench-{task.name}-") as d, self._sandboxed(d):
            try:
                self._pipeline(task, lang, source, d, result.stages)
            except Failed as f:
                result.stages.append(f.stage)
                result.result = f.stage.verdict
            finally:
                self._deadline.at = float("inf")
                self._deadline.reference = False
        for st in (st for st in result.stages if st.log_digest is None):  # no tool run: what it said
            st.log_digest = digest(st.detail, "")
        if self.shadow and lang == "sysr" and proofs_only(result.stages[-1]):
            result.shadow = self.shadow_of(task, source)  # beside the result, never instead of it
        if key:
            self.cache.put(key, result)
        return result

    def shadow_of(self, task: Task, source: str) -> Shadow:
        """Lower a sysr design the checker rejected on its proofs alone and judge the Verilog as
        any Verilog is judged (the shadow simulation: see `bench.report.shadow`)."""
        with tempfile.TemporaryDirectory(prefix=f"bench-shadow-{task.name}-") as d:
            work = Path(d)
            (work / "candidate.sysr").write_text(source)
            try:
                lower, verilog = self.sysr_lower(task, work)
            except Failed as f:
                return Shadow(result=f.stage.verdict, detail=f.stage.detail, stages=[f.stage])
        rest = self.score(task, "verilog", verilog)
        return Shadow(result=rest.result, detail=rest.detail, stages=[lower, *rest.stages])

    def _cache_key(self, task: Task, lang: str, source: str) -> str:
        """The result cache's key for this candidate, or "" when no cache applies (none given, the
        tools unsandboxed, or a guard replaced by a test)."""
        if self.cache is None or sandbox.disabled() or self.guard is not guard.judge:
            return ""
        return cache_key(self, task, lang, source)

    def _pipeline(self, task: Task, lang: str, source: str, work: Path, stages: list) -> None:
        if lang == "sysr":
            (work / "candidate.sysr").write_text(source)
            stages.append(self.sysr_check(task, work))
            stage, verilog = self.sysr_lower(task, work)
            stages.append(stage)
        else:
            verilog = source
        text, unread = self.guarded(task, work, verilog, stages)
        yosys = work / "front"
        (yosys / DESIGN).write_text(text)
        stages += self.yosys_checks(task, yosys)
        if unread:  # Yosys reads what the parse of bench.judge.agree could not: checked in part only
            raise self._fail("guard", "", None, "forbidden", f"{unread} (the scorer's parse, pyslang, cannot read "
                             "this design whole, so it cannot check that Yosys and Icarus read it alike)")
        if (linted := L.stage(self, task, yosys)) is not None:
            stages.append(linted)
        if task.resources is not None:
            stages.append(self.resources(task, yosys))
        stages += self.simulate(task, work, text)


def _normal(source: str) -> str:
    return as_received(source).replace("\r\n", "\n").replace("\r", "\n")


@dataclass(frozen=True)
class Oversized:
    """A candidate file over `guard.CANDIDATE_LIMIT`, never read: its size (`read_candidate`)."""

    size: int


def read_candidate(path: Path) -> str | Oversized | None:
    """A candidate file's text, its size measured before it is read (at most the limit and one
    byte are ever read, whatever the file claims); None if it is not a readable regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO put there would block an open
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return None
            if st.st_size > guard.CANDIDATE_LIMIT:
                return Oversized(st.st_size)
            data = f.read(guard.CANDIDATE_LIMIT + 1)
        except OSError:
            return None
    return Oversized(len(data)) if len(data) > guard.CANDIDATE_LIMIT else data.decode("utf-8", errors="replace")


def _unreadable(source: str | Oversized | None) -> str:
    if isinstance(source, Oversized):
        return f"the candidate is {source.size} bytes; the limit is {guard.CANDIDATE_LIMIT} bytes (1 MiB)"
    if source is None:
        return "no candidate file"
    if not source.strip():
        return "the file is empty"
    size = len(source.encode("utf-8", errors="surrogatepass"))
    if size > guard.CANDIDATE_LIMIT:
        return f"the candidate is {size} bytes; the limit is {guard.CANDIDATE_LIMIT} bytes (1 MiB)"
    return ""
