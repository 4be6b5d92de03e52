"""The write-check-repair loop: a model writes a design, is told what failed, and repairs it.

The same rules in both languages: attempt 1 shows the task's prompt and its starting file;
after a failure the model sees the result and its detail from the scorer and is asked for the
whole corrected file; a task ends at the first PASS or when the budget is spent. Every attempt
is written to `run.json` (atomically, after each attempt) and to a transcript per task, so a
killed run loses nothing and `--resume` continues it without repeating finished attempts.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from string import Template

from . import sandbox
from .extract import as_received, extract_code
from .models import Message, Model, ModelError
from .records import Attempt, RunRecord, TaskRun
from .score import Scorer
from .tasks import ROOT, Task
from .tools import ToolMissing, tool_version

PROMPTS = Path(__file__).parent / "prompts"
LANG_NAME = {"sysr": "sysr", "verilog": "Verilog"}
FENCE = {"sysr": "sysr", "verilog": "verilog"}


class LoopError(Exception):
    """The loop cannot start or continue (incompatible --resume, unreadable run folder...)."""


def template(name: str) -> Template:
    return Template((PROMPTS / name).read_text())


def system_prompt(lang: str) -> str:
    if lang == "sysr":
        reference = (ROOT / "docs" / "reference.md").read_text()
        return template("system-sysr.md").substitute(reference=reference)
    return template("system-verilog.md").substitute()


def first_message(task: Task, lang: str, spec_stubs: bool) -> str:
    if lang == "verilog":
        start_name = "iface.v"
    else:
        start_name = "spec-stub.sysr" if spec_stubs and task.has_spec_stub else "stub.sysr"
    return template("first.md").substitute(name=task.name, prompt=task.prompt, start_name=start_name,
                                           start=task.text(start_name).rstrip(), fence=FENCE[lang],
                                           lang_name=LANG_NAME[lang])


def repair_message(lang: str, result: str, detail: str) -> str:
    if result == "no-code":
        return template("no-code.md").substitute(lang_name=LANG_NAME[lang])
    return template("repair.md").substitute(result=result, detail=detail.strip(), lang_name=LANG_NAME[lang])


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


class Run:
    """One run folder: run.json plus a transcript per task, written after every attempt."""

    def __init__(self, folder: Path, record: RunRecord) -> None:
        self.folder = folder
        self.record = record
        self.lock = threading.Lock()

    @classmethod
    def create(cls, folder: Path, model: str, lang: str, budget: int, spec_stubs: bool) -> "Run":
        if (folder / "run.json").exists():
            raise LoopError(f"{folder}/run.json exists; use --resume to continue it or choose another --out")
        folder.mkdir(parents=True, exist_ok=True)
        rec = RunRecord(model=model, lang=lang, budget=budget, spec_stubs=spec_stubs,
                        tool_versions=tool_versions(), commit=project_commit(), started=now())
        run = cls(folder, rec)
        run.save()
        return run

    @classmethod
    def resume(cls, folder: Path, model: str, lang: str, budget: int, spec_stubs: bool) -> "Run":
        path = folder / "run.json"
        if not path.is_file():
            raise LoopError(f"--resume: no {path}")
        try:
            rec = RunRecord.model_validate_json(path.read_text(encoding="utf-8", errors="replace"))
        except ValueError as e:
            raise LoopError(f"--resume: {path} is not a run record: {e}") from None
        if (rec.model, rec.lang, rec.spec_stubs) != (model, lang, spec_stubs):
            raise LoopError(f"--resume: {path} is a run of {rec.model} in {rec.lang}"
                            f"{' with spec stubs' if rec.spec_stubs else ''}; the command asks for something else")
        rec.budget = budget
        rec.ended = None
        return cls(folder, rec)

    def save(self) -> None:
        with self.lock:
            data = self.record.model_dump_json(indent=2)
            tmp = self.folder / "run.json.tmp"
            tmp.write_text(data, encoding="utf-8")
            os.replace(tmp, self.folder / "run.json")

    def save_transcript(self, task: str) -> None:
        with self.lock:
            text = transcript(self.record, self.record.tasks[task])
            tmp = self.folder / f"{task}.transcript.md.tmp"
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.folder / f"{task}.transcript.md")


def transcript(rec: RunRecord, tr: TaskRun) -> str:
    lines = [f"# {tr.task}: {rec.model}, {rec.lang}", "",
             f"solved: {'yes' if tr.solved else 'no'}; attempts: {len(tr.attempts)} of {rec.budget}", ""]
    for a in tr.attempts:
        approx = " (approximate)" if a.tokens_approximate else ""
        lines += [f"## attempt {a.n}: {a.result}", "",
                  f"tokens in {a.tokens_in}, out {a.tokens_out}{approx}; model {a.model_s:.1f} s, "
                  f"scoring {a.score_s:.1f} s", "", "### to the model", "", a.feedback, "",
                  "### reply", "", a.reply, ""]
        if a.error:
            lines += ["### error", "", a.error, ""]
        elif a.result != "PASS":
            lines += ["### result", "", f"{a.result}", "", "```", a.detail, "```", ""]
    return "\n".join(lines)


class Loop:
    def __init__(self, run: Run, model: Model, tasks: list[Task], scorer: Scorer | None = None,
                 log=None) -> None:
        self.run = run
        self.model = model
        self.tasks = tasks
        self.scorer = scorer or Scorer()
        self.system = system_prompt(run.record.lang)
        self.log = log or (lambda msg: print(msg, file=sys.stderr))

    def messages(self, task: Task, tr: TaskRun) -> list[Message]:
        """The conversation so far, rebuilt from the record (so a resumed run continues it)."""
        msgs: list[Message] = []
        for a in tr.attempts:
            msgs += [Message("user", a.feedback), Message("assistant", a.reply)]
        return msgs

    def next_feedback(self, task: Task, tr: TaskRun) -> str:
        lang = self.run.record.lang
        if not tr.attempts:
            return first_message(task, lang, self.run.record.spec_stubs)
        last = tr.attempts[-1]
        return repair_message(lang, last.result, last.detail)

    def run_task(self, task: Task) -> TaskRun:
        rec = self.run.record
        with self.run.lock:
            tr = rec.tasks.setdefault(task.name, TaskRun(task=task.name))
        while not tr.solved and len(tr.attempts) < rec.budget:
            n = len(tr.attempts) + 1
            feedback = self.next_feedback(task, tr)
            msgs = self.messages(task, tr) + [Message("user", feedback)]
            t0 = time.perf_counter()
            try:
                reply = self.model.complete(self.system, msgs, task.name, n)
            except ModelError as e:
                self.log(f"{task.name}: attempt {n}: model error: {e}")
                raise
            model_s = time.perf_counter() - t0
            text = as_received(reply.text)  # any bytes a model sent are recorded, never a crash
            code = extract_code(text, rec.lang)
            t1 = time.perf_counter()
            result = self.scorer.score(task, rec.lang, code)
            attempt = Attempt(n=n, feedback=feedback, reply=text, code=code, result=result.result,
                              detail=result.detail if code is not None else "the reply had no fenced code block",
                              stages=result.stages, tokens_in=reply.tokens_in, tokens_out=reply.tokens_out,
                              tokens_approximate=reply.approximate, model_s=round(model_s, 3),
                              score_s=round(time.perf_counter() - t1, 3))
            with self.run.lock:
                tr.attempts.append(attempt)
                tr.solved = result.result == "PASS"
            self.run.save()
            self.run.save_transcript(task.name)
            self.log(f"{task.name}: attempt {n}: {result.result}")
        with self.run.lock:
            tr.done = True
        self.run.save()
        return tr

    def go(self, jobs: int = 1) -> RunRecord:
        errors: list[str] = []

        def one(task: Task) -> None:
            try:
                self.run_task(task)
            except ModelError as e:
                errors.append(f"{task.name}: {e}")

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            list(pool.map(one, self.tasks))
        if not errors:
            self.run.record.ended = now()
        self.run.save()
        if errors:
            raise LoopError("the model failed on: " + "; ".join(errors)
                            + f". Everything done so far is in {self.run.folder}/run.json; rerun with --resume.")
        return self.run.record
