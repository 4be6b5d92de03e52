"""The write-check-repair loop over a run: every task, every sample, recorded as it happens.

A run folder holds `run.json` (the whole record, rewritten atomically after each attempt) and a
transcript per sample (`<task>.transcript.md` for the first, `<task>-s<k>.transcript.md` for
sample k after it), so a killed run loses nothing and `--resume` finishes the missing and
unfinished samples without repeating an attempt. Each sample is its own conversation
(`bench.loop.conversation`); `--jobs` runs samples of all tasks in parallel, first samples first. A
fatal model error (a refused key, an unknown model) stops the run from starting more work.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..judge import sandbox
from .conversation import Settings, attempts, finished, task_system_prompt
from .models import Model, ModelError
from .records import RunRecord, Sample, TaskRun
from ..judge.score import Scorer
from ..judge.tasks import ROOT, Task
from ..judge.tools import ToolMissing, tool_version


class LoopError(Exception):
    """The loop cannot start or continue (incompatible --resume, unreadable run folder...)."""


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def project_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def tool_versions() -> dict[str, str]:
    from sysr import __version__

    out = {"sysr": __version__}
    for t in ("yosys", "iverilog", "vvp"):
        try:
            out[t] = tool_version(t)
        except ToolMissing:
            out[t] = "missing"
    out["sandbox"] = sandbox.status()
    return out


@dataclass(frozen=True)
class RunSpec:
    """What a run is of. On --resume, samples, temperature and seed left as None take the record's."""

    model: str
    lang: str
    budget: int
    spec_stubs: bool = False
    samples: int | None = None
    temperature: float | None = None
    seed: int | None = None
    endpoint: str | None = None
    suite: str | None = None  # the folder of an imported suite; None: tasks/
    lint: bool = False  # the scorer's lint option (bench.judge.lint)


class Run:
    """One run folder: run.json plus a transcript per sample, written after every attempt."""

    def __init__(self, folder: Path, record: RunRecord) -> None:
        self.folder = folder
        self.record = record
        self.lock = threading.Lock()

    @classmethod
    def create(cls, folder: Path, spec: RunSpec) -> "Run":
        if (folder / "run.json").exists():
            raise LoopError(f"{folder}/run.json exists; use --resume to continue it or choose another --out")
        folder.mkdir(parents=True, exist_ok=True)
        rec = RunRecord(model=spec.model, lang=spec.lang, budget=spec.budget, spec_stubs=spec.spec_stubs,
                        samples=spec.samples or 1, temperature=spec.temperature, seed=spec.seed,
                        endpoint=spec.endpoint, tool_versions=tool_versions(), commit=project_commit(),
                        started=now(), suite=spec.suite, lint=spec.lint)
        run = cls(folder, rec)
        run.save()
        return run

    @classmethod
    def resume(cls, folder: Path, spec: RunSpec) -> "Run":
        path = folder / "run.json"
        if not path.is_file():
            raise LoopError(f"--resume: no {path}")
        try:
            rec = RunRecord.model_validate_json(path.read_text(encoding="utf-8", errors="replace"))
        except ValueError as e:
            raise LoopError(f"--resume: {path} is not a run record: {e}") from None
        if (rec.model, rec.lang, rec.spec_stubs) != (spec.model, spec.lang, spec.spec_stubs):
            raise LoopError(f"--resume: {path} is a run of {rec.model} in {rec.lang}"
                            f"{' with spec stubs' if rec.spec_stubs else ''}; the command asks for something else")
        if spec.lint != rec.lint:
            raise LoopError(f"--resume: {path} was scored with the lint option {'on' if rec.lint else 'off'}; the "
                            "command asks for the other")
        if spec.suite != rec.suite:
            raise LoopError(f"--resume: {path} is a run of the tasks of {rec.suite or 'tasks/'}; the command gives "
                            f"{spec.suite or 'tasks/'}")
        for name, want, have in (("--temperature", spec.temperature, rec.temperature), ("--seed", spec.seed, rec.seed)):
            if want is not None and want != have:
                raise LoopError(f"--resume: {path} was run with {name} {have}; samples drawn with {want} "
                                "would not belong to it")
        if spec.samples is not None and spec.samples < rec.samples:
            raise LoopError(f"--resume: {path} has {rec.samples} samples per task; --samples can add more, "
                            "not take some away")
        rec.samples = spec.samples or rec.samples
        rec.budget = spec.budget
        rec.ended = None
        return cls(folder, rec)

    def save(self) -> None:
        with self.lock:
            data = self.record.model_dump_json(indent=2)
            tmp = self.folder / "run.json.tmp"
            tmp.write_text(data, encoding="utf-8")
            os.replace(tmp, self.folder / "run.json")

    def save_transcript(self, task: str, sample: Sample) -> None:
        stem = task if sample.k == 1 else f"{task}-s{sample.k}"
        with self.lock:
            text = transcript(self.record, task, sample)
            tmp = self.folder / f"{stem}.transcript.md.tmp"
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.folder / f"{stem}.transcript.md")


def transcript(rec: RunRecord, task: str, sample: Sample) -> str:
    which = f", sample {sample.k} of {rec.samples}" if rec.samples > 1 else ""
    lines = [f"# {task}: {rec.model}, {rec.lang}{which}", "",
             f"solved: {'yes' if sample.solved else 'no'}; attempts: {len(sample.attempts)} of {rec.budget}", ""]
    for a in sample.attempts:
        approx = " (approximate)" if a.tokens_approximate else ""
        cached = f", {a.tokens_cached} of them cached" if a.tokens_cached else ""
        lines += [f"## attempt {a.n}: {a.result}", "",
                  f"tokens in {a.tokens_in}{cached}, out {a.tokens_out}{approx}; model {a.model_s:.1f} s, "
                  f"scoring {a.score_s:.1f} s", "", "### to the model", "", a.feedback, "",
                  "### reply", "", a.reply, ""]
        if a.error:
            lines += ["### error", "", a.error, ""]
        elif a.result != "PASS":
            lines += ["### result", "", f"{a.result}", "", "```", a.detail, "```", ""]
        if a.shadow is not None:
            lines += ["### shadow simulation (not shown to the model)", "", a.shadow.result, ""]
            if a.shadow.detail:
                lines += ["```", a.shadow.detail, "```", ""]
    return "\n".join(lines)


class Loop:
    def __init__(self, run: Run, model: Model, tasks: list[Task], scorer: Scorer | None = None,
                 log=None) -> None:
        self.run = run
        self.model = model
        self.tasks = tasks
        rec = run.record
        self.scorer = scorer or Scorer(lint=rec.lint)
        self.settings = Settings(lang=rec.lang, budget=rec.budget, spec_stubs=rec.spec_stubs,
                                 temperature=rec.temperature)
        self.log = log or (lambda msg: print(msg, file=sys.stderr))
        self.stop = threading.Event()

    def label(self, task: Task, k: int) -> str:
        return task.name if self.run.record.samples == 1 else f"{task.name} s{k}"

    def run_sample(self, task: Task, k: int) -> Sample:
        """Finish sample k of a task, recording each attempt as it is scored."""
        rec = self.run.record
        with self.run.lock:
            tr = rec.tasks.setdefault(task.name, TaskRun(task=task.name))
            sample = tr.sample(k)
            if sample.seed is None and rec.seed is not None:
                sample.seed = rec.seed + k - 1
            sample.done = False
        system = task_system_prompt(task, rec.lang, rec.spec_stubs)
        for attempt in attempts(self.model, self.scorer, task, self.settings, sample.attempts, k, sample.seed,
                                system):
            with self.run.lock:
                sample.attempts.append(attempt)
                sample.solved = attempt.result == "PASS"
            self.run.save()
            self.run.save_transcript(task.name, sample)
            self.log(f"{self.label(task, k)}: attempt {attempt.n}: {attempt.result}")
            if self.stop.is_set():
                return sample
        with self.run.lock:
            sample.done = True
            tr.done = sum(s.done for s in tr.samples if s.k <= rec.samples) == rec.samples
        self.run.save()
        return sample

    def pending(self) -> list[tuple[Task, int]]:
        """(task, sample) pairs left to do, first samples of every task first."""
        rec = self.run.record
        out = []
        for k in range(1, rec.samples + 1):
            for task in self.tasks:
                tr = rec.tasks.get(task.name)
                s = next((x for x in tr.samples if x.k == k), None) if tr else None
                if s is None or not s.done or not finished(self.settings, s.attempts):
                    out.append((task, k))
        return out

    def go(self, jobs: int = 1) -> RunRecord:
        errors: list[str] = []
        todo = self.pending()
        for task in self.tasks:  # a raised --samples reopens tasks that were done
            tr = self.run.record.tasks.get(task.name)
            if tr is not None and any(t is task for t, _ in todo):
                tr.done = False
        self.run.save()  # before any prompt goes out, so no reader takes a reopened task for done

        finished_count = [0]

        def one(item: tuple[Task, int]) -> None:
            task, k = item
            if self.stop.is_set():
                return
            try:
                s = self.run_sample(task, k)
                if s.done:
                    with self.run.lock:
                        finished_count[0] += 1
                        n = finished_count[0]
                    outcome = f"solved in {len(s.attempts)}" if s.solved else f"unsolved after {len(s.attempts)}"
                    self.log(f"{self.label(task, k)}: {outcome} attempt(s) [{n}/{len(todo)} samples done]")
            except ModelError as e:
                self.log(f"{self.label(task, k)}: model error: {e}")
                errors.append(f"{self.label(task, k)}: {str(e).rstrip('.')}")
                if e.fatal:
                    self.stop.set()

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            list(pool.map(one, todo))
        if not errors:
            self.run.record.ended = now()
        self.run.save()
        if errors:
            shown = "; ".join(errors[:5]) + (f"; and {len(errors) - 5} more" if len(errors) > 5 else "")
            raise LoopError(("the model failed, so the run stopped: " if self.stop.is_set() else
                             "the model failed on: ") + shown
                            + f". Everything done so far is in {self.run.folder}/run.json; rerun with --resume.")
        return self.run.record
