"""The catch rate: slips injected into designs that pass, judged before and by simulation.

For every design (an attempt of a run that passed, or a task's reference), mutants are made at
the source level (`bench.mutation.mutate_sysr`, `bench.mutation.mutate_verilog`) and each is judged twice:

- before simulation. sysr: `sysr check` with the design's own properties (the proofs; a
  mutant that fails the static checks was discarded when it was made). Verilog: the scorer's
  Yosys stages before simulation: `latch`, `comb-loop`, `multi-driver` reject; a mutant that
  Yosys cannot read, whose ports no longer match, or that Icarus cannot compile is ill-formed,
  not a slip, and is discarded like a sysr mutant that fails the static checks.
- by the task's hidden testbench, through the scorer (`Scorer.score` on the Verilog: for sysr
  the mutant lowered). The scorer is run through to the simulation even when an elaboration or
  resources stage fails (`ThroughScorer`), so every mutant gets a testbench verdict.

Each mutant is then (`classify`): caught (rejected, testbench fails), missed (accepted,
testbench fails), extra (rejected, testbench passes: the property sees a difference the
testbench does not, often a testbench gap), equivalent (both pass), or limits: a tool hit a
limit on it (`sysr check` out of time or the solver gave up, V003; a simulation timeout, a
resource limit, a tool that did not run), counted apart, never as a verdict. The catch rate is
caught / (caught + missed).
"""

from __future__ import annotations

import functools
import json
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, List

from pydantic import BaseModel, Field

from .sites import Candidate, Discarded
from ..judge.results import CandidateResult
from ..loop.records import RunRecord
from ..judge.run import run_bounded
from ..judge.score import Failed, Limits, Scorer
from ..judge.tasks import TASKS_DIR, Task, load_task, load_tasks, task_names

VERDICTS = ("caught", "missed", "extra", "equivalent", "limits")
STRUCTURAL = ("latch", "comb-loop", "multi-driver")  # Verilog's rejections before simulation
ILL_FORMED = ("syntax", "interface", "compile", "forbidden", "no-code", "too-large")
LIMIT_RESULTS = ("timeout", "resource-limit", "tool-failure")
WAVES = 4  # rounds of taking more Verilog mutants to replace ill-formed ones


class ThroughScorer(Scorer):
    """The scorer, run on to the simulation when elaboration finds a latch, loop or multiple
    driver, or synthesis misses a required resource: the failing stage is kept in the record
    (so the verdict before simulation is the scorer's own) and the testbench still runs."""

    def yosys_checks(self, task, work):
        try:
            return super().yosys_checks(task, work)
        except Failed as f:
            if f.stage.verdict in STRUCTURAL:  # reading and the ports passed, or it would be another verdict
                return [f.stage]
            raise

    def resources(self, task, work):
        try:
            return super().resources(task, work)
        except Failed as f:
            if f.stage.verdict == "missing-resource":
                return f.stage
            raise


# ---- records -----------------------------------------------------------------------------------

class MutantRecord(BaseModel):
    operator: str
    diff: str
    text: str  # the whole mutant
    verdict: str  # one of VERDICTS
    check: str  # accepted | rejected: CODES | limit: why
    testbench: str  # PASS | fail: RESULT: detail | limit: why
    design: str = ""  # which design it is a mutant of
    what: str = ""  # the mutation in words


class TaskCatch(BaseModel):
    task: str
    lang: str
    mutants: int = 0  # judged (discarded ones not included)
    caught: int = 0
    missed: int = 0
    extra: int = 0
    equivalent: int = 0
    limits: int = 0
    discarded: int = 0  # ill-formed: failed the static checks (sysr) or Yosys/Icarus reading (Verilog)
    discarded_by: dict[str, int] = Field(default_factory=dict)  # why (codes, or the stage) -> mutants
    designs: List[dict] = Field(default_factory=list)  # {design, sites, original: its result today}
    list: List[MutantRecord] = Field(default_factory=list)  # (`List`: the field's name hides `list`)

    def discard(self, why: str) -> None:
        self.discarded += 1
        self.discarded_by[why] = self.discarded_by.get(why, 0) + 1

    def add(self, m: MutantRecord) -> None:
        self.list.append(m)
        self.mutants += 1
        setattr(self, m.verdict, getattr(self, m.verdict) + 1)


class Counts(BaseModel):
    mutants: int = 0
    caught: int = 0
    missed: int = 0
    extra: int = 0
    equivalent: int = 0
    limits: int = 0
    discarded: int = 0
    catch_rate: float | None = None  # caught / (caught + missed); None when nothing was wrong


class CatchReport(BaseModel):
    tasks: list[TaskCatch]
    total: dict[str, Counts]


def totals(tasks: list[TaskCatch]) -> dict[str, Counts]:
    out = {lang: Counts() for lang in ("sysr", "verilog")}
    for t in tasks:
        c = out[t.lang]
        for k in ("mutants", "discarded", *VERDICTS):
            setattr(c, k, getattr(c, k) + getattr(t, k))
    for c in out.values():
        wrong = c.caught + c.missed
        c.catch_rate = round(c.caught / wrong, 4) if wrong else None
    return out


# ---- designs -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Design:
    task: Task
    lang: str
    source: str
    origin: str  # "reference", or "RUN: task sample k attempt n"


class CatchError(Exception):
    """A run folder or task list that cannot be read: the message says which and why."""


def reference_designs(tasks: list[Task], langs=("sysr", "verilog")) -> list[Design]:
    return [Design(t, lang, t.text("ref.sysr" if lang == "sysr" else "ref.v"), "reference")
            for t in tasks for lang in langs]


def run_designs(folder: Path, suite: Path | None = None, names: set[str] | None = None) -> list[Design]:
    """Every attempt that passed, in a run folder (its run.json) or an Inspect AI log, of the tasks
    `names` (all when None). Each task is read from `suite` when given, else from the suite the run
    records (`bench loop --suite`), else from the task folder."""
    from ..report.inspect_log import is_inspect_log, load_logs

    path = folder / "run.json" if folder.is_dir() and not is_inspect_log(folder) else folder
    try:
        records = load_logs(folder) if is_inspect_log(folder) else \
            [(str(folder), RunRecord.model_validate_json(path.read_text()))]
    except (OSError, ValueError) as e:
        raise CatchError(f"{path}: not a run record: {str(e).splitlines()[0]}") from None
    out = []
    for label, rec in records:
        tasks_dir = suite or (Path(rec.suite) if rec.suite else TASKS_DIR)
        if not tasks_dir.is_dir():
            raise CatchError(f"{path}: the run's tasks come from {tasks_dir}, which is not a folder here; "
                             "give the suite's folder with --suite DIR")
        known = set(task_names(tasks_dir))
        for name, tr in sorted(rec.tasks.items()):
            if names is not None and name not in names:
                continue
            for s in tr.samples:
                for a in s.attempts:
                    if a.result != "PASS" or not a.code:
                        continue
                    if name not in known:
                        where = "the suite the run records" if rec.suite and not suite else "the task folder"
                        raise CatchError(f"{path}: task {name!r} is not in {where} ({tasks_dir}); "
                                         "give the run's suite with --suite DIR")
                    out.append(Design(_task(tasks_dir, name), rec.lang, a.code,
                                      f"{label}: {name} sample {s.k} attempt {a.n}"))
    return out


@functools.lru_cache(maxsize=None)
def _task(tasks_dir: Path, name: str) -> Task:
    return load_task(tasks_dir / name)


# ---- judging one mutant ------------------------------------------------------------------------

@dataclass(frozen=True)
class Judged:
    verdict: str  # VERDICTS, or "discarded"
    check: str
    testbench: str


def classify(rejected: bool | None, passes: bool | None) -> str:
    """The cell of the matrix; None on either side (a limit) is `limits`."""
    if rejected is None or passes is None:
        return "limits"
    if rejected:
        return "extra" if passes else "caught"
    return "equivalent" if passes else "missed"


def _testbench(r: CandidateResult) -> tuple[bool | None, str]:
    """Whether the simulation passed (None: a limit or no verdict to be had), and how to say it."""
    if r.result == "PASS":
        return True, "PASS"
    detail = (r.detail.splitlines() or [""])[0][:200]
    if r.result in LIMIT_RESULTS:
        return None, f"limit: {r.result}: {detail}"
    return False, f"fail: {r.result}: {detail}"


class Judge:
    def __init__(self, limits: Limits | None = None, check_args: tuple[str, ...] = ()) -> None:
        self.limits = limits or Limits()
        self.scorer = ThroughScorer(self.limits)
        self.check_args = check_args  # extra `sysr check` options (tests: a smaller --depth)

    def sysr_check(self, task: Task, text: str) -> tuple[bool | None, str]:
        """`sysr check` on the mutant, bounded like the scorer's check stage (the task's top)."""
        with tempfile.TemporaryDirectory(prefix="bench-catch-") as d:
            Path(d, "candidate.sysr").write_text(text)
            argv = [sys.executable, "-P", "-m", "sysr.cli", "check", "--json", "--top", task.top, *self.check_args,
                    "candidate.sysr"]
            res = run_bounded(argv, d, self.limits.check_s)
        if res.timed_out:
            return None, f"limit: sysr check did not finish in {self.limits.check_s:g} s"
        try:
            data = json.loads(res.stdout)
        except json.JSONDecodeError:
            return None, f"limit: sysr check failed ({res.error or f'exit status {res.returncode}'})"
        if data.get("accepted"):
            return False, "accepted"
        codes = sorted({x["code"] for x in data.get("diagnostics", []) if x.get("severity") == "error"})
        if codes and all(c == "V003" for c in codes):
            return None, "limit: V003 (the solver gave up)"
        return True, "rejected: " + " ".join(codes)

    def sysr(self, task: Task, text: str) -> Judged:
        from sysr.lower import lower_text

        rejected, check = self.sysr_check(task, text)
        try:
            verilog, _ = lower_text(text, "candidate.sysr", top=task.top)
        except Exception as e:  # a crash of our lowering is a bug to report, not a verdict
            return Judged("limits", check, f"limit: sysr lower crashed: {type(e).__name__}: {e}")
        if verilog is None:
            return Judged("discarded", check, "sysr lower refused it")
        passes, tb = _testbench(self.scorer.score(task, "verilog", verilog))
        return Judged(classify(rejected, passes), check, tb)

    def verilog(self, task: Task, text: str) -> Judged:
        r = self.scorer.score(task, "verilog", text)
        if r.result in ILL_FORMED:
            return Judged("discarded", f"ill-formed: {r.result}", "")
        found = [s.verdict for s in r.stages if s.verdict in STRUCTURAL]
        check = "rejected: " + " ".join(found) if found else "accepted"
        passes, tb = _testbench(r)
        return Judged(classify(bool(found), passes), check, tb)

    def original_passes(self, d: Design) -> str:
        """The unmutated design's result now (it must pass for its mutants to mean anything)."""
        return Scorer(self.limits).score(d.task, d.lang, d.source).result if d.lang == "verilog" else \
            self._sysr_original(d)

    def _sysr_original(self, d: Design) -> str:
        rejected, check = self.sysr_check(d.task, d.source)
        if rejected is not False:
            return f"check {check}"
        from sysr.lower import lower_text

        verilog, _ = lower_text(d.source, "candidate.sysr", top=d.task.top)
        return self.scorer.score(d.task, "verilog", verilog).result if verilog else "lower-failed"


# ---- the measurement ---------------------------------------------------------------------------

@dataclass
class _Pending:
    design: Design
    stream: Iterator[Candidate]
    want: int
    entry: TaskCatch
    info: dict = field(default_factory=dict)  # its entry in TaskCatch.designs
    expect: int = 0  # how many mutants it should give
    kept: int = 0
    done: bool = False


def _streams(d: Design, n: int, seed: int) -> tuple[Iterator[Candidate], int, list[Discarded], int]:
    """The mutants to judge for a design, how many sites it has, those discarded already, and
    how many mutants it will give (for the progress count)."""
    if d.lang == "sysr":
        from .mutate_sysr import mutants

        ms = mutants(d.source, n, seed)
        return iter(ms.mutants), ms.sites, list(ms.discarded), len(ms.mutants)
    from .mutate_verilog import mutant_stream

    stream, sites = mutant_stream(d.source, seed)
    return stream, sites, [], min(n, sites)


def measure(designs: list[Design], n: int, seed: int = 1, jobs: int = 1, judge: Judge | None = None,
            progress: Callable[[str], None] | None = None) -> CatchReport:
    """N mutants of every design, judged in parallel; one entry per task and language."""
    judge = judge or Judge()
    entries: dict[tuple[str, str], TaskCatch] = {}
    lock = threading.Lock()
    pending: list[_Pending] = []
    for d in designs:
        entry = entries.setdefault((d.task.name, d.lang), TaskCatch(task=d.task.name, lang=d.lang))
        stream, sites, discarded, expect = _streams(d, n, seed)
        for x in discarded:
            entry.discard(x.why)
        p = _Pending(d, stream, n, entry, {"design": d.origin, "sites": sites}, expect=expect)
        entry.designs.append(p.info)
        pending.append(p)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        originals = list(pool.map(judge.original_passes, [p.design for p in pending]))
        for p, result in zip(pending, originals):
            p.info["original"] = result
            if result != "PASS":
                p.done = True  # its mutants would say nothing: the design does not pass today
        total = sum(p.expect for p in pending if not p.done)
        count = [0]

        def one(item: tuple[_Pending, Candidate]) -> None:
            p, c = item
            j = judge.sysr(p.design.task, c.text) if p.design.lang == "sysr" else judge.verilog(p.design.task, c.text)
            with lock:
                if j.verdict == "discarded":
                    p.entry.discard(j.check)
                    return
                p.kept += 1
                p.entry.add(MutantRecord(operator=c.operator, diff=c.diff, text=c.text, verdict=j.verdict,
                                         check=j.check, testbench=j.testbench, design=p.design.origin,
                                         what=c.what))
                count[0] += 1
                if progress:
                    progress(f"[{count[0]}/{total}] {p.design.task.name} {p.design.lang}: {c.operator}: {j.verdict}")

        for _ in range(WAVES):
            work = []
            for p in pending:
                if p.done:
                    continue
                batch = [c for _, c in zip(range(p.want - p.kept), p.stream)]
                if len(batch) < p.want - p.kept:
                    p.done = True  # no more sites
                work += [(p, c) for c in batch]
            if not work:
                break
            # larger designs first, so parallel workers finish together
            work.sort(key=lambda pc: -len(pc[1].text))
            list(pool.map(one, work))
            for p in pending:
                p.done = p.done or p.kept >= p.want
    tasks = sorted(entries.values(), key=lambda t: (t.task, t.lang))
    for t in tasks:
        t.list.sort(key=lambda m: (m.design, m.operator, m.what, m.text))
        t.discarded_by = dict(sorted(t.discarded_by.items()))
    return CatchReport(tasks=tasks, total=totals(tasks))


def tasks_named(arg: str | None, tasks_dir: Path = TASKS_DIR) -> list[Task]:
    names = [n.strip() for n in arg.split(",") if n.strip()] if arg else None
    return load_tasks(names, tasks_dir)
