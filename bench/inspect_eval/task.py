"""bench on Inspect AI: the write-check-repair loop and the project's scorer as an Inspect task.

    inspect eval bench/inspect_eval/task.py@sysr_bench -T lang=sysr --model openai/MODEL \\
        --epochs 5 --epochs-reducer pass_at_1,pass_at_5

`sysr_bench(lang, tasks, suite, spec_stubs, budget)` has one sample per task folder (of `tasks/`,
or of `suite=DIR`, an imported suite in the same format, whose invalid tasks, and in sysr those
not expressible in sysr, are left out as `bench loop --suite` leaves them: `bench.judge.tasks.select`),
and three parts:

- the dataset: a sample's input is the task's first message (its prompt and starting file);
- the solver `bench_loop`: the sample's conversation exactly as `bench loop` has it, by
  running `bench.loop.conversation.attempts` itself (same prompt templates, feedback and budget,
  the same `bench.judge.score.Scorer`: Yosys and Icarus) with Inspect's model behind the project's
  `Model` protocol (`bench.loop.models.inspect_backend`). Each attempt is recorded as it is scored:
  the whole `Attempt` record (feedback, reply, code, result, detail, stages, shadow, tokens)
  in the sample's store under `bench.attempts`, the conversation in the sample's messages and
  an info event in its transcript. With `--seed S`, epoch k is sent the seed S+k-1 (as sample k
  of `bench loop --seed S` is), so that epochs differ on a server that honours seeds. Scoring
  runs at most `score_jobs` candidates at once (default: the processors this process may use),
  whatever `--max-samples` allows;
- the scorer `bench_scorer`: reports what the loop's scorer found (scoring again would be
  the same verdict at twice the cost). Its value is `{"solved": C|I, "first_attempt": C|I}`
  (solved within the budget, solved by attempt 1); its metadata holds the final result, its
  stages, every attempt's result, detail, stages and, for sysr, shadow simulation and checker
  classification (`bench.report.shadow`).

Epochs are samples: `--epochs N` runs N conversations per task, and a reducer turns them into
one score per task (the task's default is `pass_at_1`; Inspect's `pass_at_k` is the same
unbiased estimator as `bench.report.passk`, computed over the scored epochs).

A sample in which a tool did not run (any attempt a `tool-failure`) is not a failed design:
its score is `Score.unscored(reason="scoring_failed")`, a NaN value that Inspect's metrics and
reducers leave out (counted as unscored), while the score's metadata still says what failed.
Raising instead would make it a sample error, which by default (`fail_on_error`) stops the
whole eval, and a 0 would count the instrument's failure against the model; `bench summary`
counts such samples apart in the same way. A model that fails after Inspect's retries errors
the sample (Inspect's `--retry-on-error` reruns it); the attempts done so far stay in the log.

`bench summary LOG` reads the log back into the project's run record (`bench.report.inspect_log`).
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import anyio
import anyio.from_thread
import anyio.to_thread
from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import transcript
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, get_model
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer, stderr
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.util import concurrency

from bench.loop.conversation import Settings, attempts, first_message, task_system_prompt
from bench.report.inspect_log import STORE_KEY
from bench.loop.runs import project_commit, tool_versions
from bench.loop.models.inspect_backend import InspectModel
from bench.loop.records import Attempt
from bench.judge.results import CandidateResult
from bench.judge.score import Scorer
from bench.report.shadow import classify
from bench.judge.tasks import TASKS_DIR, Task as BenchTask, load_task, select

LANGS = ("sysr", "verilog")


def _names(tasks: str | list[str] | None) -> list[str] | None:
    if tasks is None:
        return None
    names = tasks.split(",") if isinstance(tasks, str) else [str(t) for t in tasks]
    return [n.strip() for n in names if n.strip()] or None


def _suite(suite: str | None) -> Path:
    """The suite folder. A relative path is taken from where the command was started ($PWD):
    Inspect creates a task loaded from a file inside that file's folder."""
    if not suite:
        return TASKS_DIR
    path = Path(suite).expanduser()
    if path.is_absolute():
        return path
    bases = [Path(os.environ["PWD"])] if os.environ.get("PWD") else []
    for base in [*bases, Path.cwd()]:
        if (base / path).is_dir():
            return (base / path).resolve()
    looked = ", ".join(str(b) for b in [*bases, Path.cwd()])
    raise ValueError(f"sysr_bench: suite {suite} is not a folder (looked in {looked})")


def _processors() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@task
def sysr_bench(lang: str = "sysr", tasks: str | list[str] | None = None, suite: str | None = None,
               spec_stubs: bool = False, budget: int = 4, score_jobs: int | None = None) -> Task:
    """The benchmark's tasks in one language, each sample a write-check-repair conversation.

    Args:
        lang: "sysr" or "verilog".
        tasks: only these tasks ("a,b" or a list); default every task of the suite.
        suite: a folder of task folders in the format of tasks/ (default the project's tasks).
        spec_stubs: start sysr tasks from spec-stub.sysr where there is one.
        budget: attempts per sample.
        score_jobs: candidates scored at once (default: the processors this process may use).
    """
    if lang not in LANGS:
        raise ValueError(f"sysr_bench: lang must be sysr or verilog, not {lang!r}")
    if int(budget) < 1:
        raise ValueError("sysr_bench: budget must be at least 1")
    if score_jobs is not None and int(score_jobs) < 1:
        raise ValueError("sysr_bench: score_jobs must be at least 1")
    folder = _suite(suite)
    if not folder.is_dir():
        raise ValueError(f"sysr_bench: suite {folder} is not a folder")
    chosen, _ = select(_names(tasks), lang, folder)  # an imported suite's invalid tasks are left out
    samples = [Sample(id=t.name, input=first_message(t, lang, spec_stubs), target="PASS",
                      metadata={"task": t.name, "tags": t.tags}) for t in chosen]
    meta = {"lang": lang, "budget": int(budget), "spec_stubs": bool(spec_stubs), "suite": str(folder),
            "tool_versions": tool_versions(), "commit": project_commit()}
    return Task(dataset=MemoryDataset(samples, name=folder.name),
                solver=bench_loop(lang, int(budget), bool(spec_stubs), str(folder),
                                  None if score_jobs is None else int(score_jobs)),
                scorer=bench_scorer(lang), epochs=Epochs(1, "pass_at_1"), metadata={"bench": meta})


class _LimitedScorer:
    """bench.judge.score.Scorer called from a sample's worker thread, at most `jobs` at once in the eval."""

    def __init__(self, jobs: int) -> None:
        self.scorer = Scorer()
        self.jobs = jobs

    def score(self, task: BenchTask, lang: str, code: str | None) -> CandidateResult:
        return anyio.from_thread.run(self._score, task, lang, code)

    async def _score(self, task: BenchTask, lang: str, code: str | None) -> CandidateResult:
        async with concurrency("bench scoring", self.jobs):
            return await anyio.to_thread.run_sync(self.scorer.score, task, lang, code)


@solver
def bench_loop(lang: str = "sysr", budget: int = 4, spec_stubs: bool = False, suite: str | None = None,
               score_jobs: int | None = None):
    """The write-check-repair conversation of `bench loop` for the sample's task (`bench.loop.conversation`)."""
    settings = Settings(lang=lang, budget=budget, spec_stubs=spec_stubs)
    folder = _suite(suite)
    scorer = _LimitedScorer(score_jobs or _processors())

    @cache
    def bench_task(name: str) -> BenchTask:
        return load_task(folder / name)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task = bench_task(str(state.metadata.get("task", state.sample_id)))
        system = task_system_prompt(task, lang, spec_stubs)
        model = InspectModel(get_model())
        base = model.model.config.seed  # --seed S: epoch k is sent S+k-1, as bench loop's sample k is
        seed = None if base is None else base + state.epoch - 1
        steps = attempts(model, scorer, task, settings, sample=state.epoch, seed=seed, system=system)
        done: list[Attempt] = []
        state.messages = [ChatMessageSystem(content=system)]
        # a thread of its own for each running sample (not from anyio's shared pool, which Inspect
        # uses too): --max-samples bounds them; scoring is bounded apart, by score_jobs
        own = anyio.CapacityLimiter(1)
        while (attempt := await anyio.to_thread.run_sync(next, steps, None, limiter=own)) is not None:
            done.append(attempt)
            state.store.set(STORE_KEY, [a.model_dump(mode="json") for a in done])
            state.messages += [ChatMessageUser(content=attempt.feedback), model.outputs[-1].message]
            state.output = model.outputs[-1]
            transcript().info({"attempt": attempt.n, "result": attempt.result, "detail": attempt.detail,
                               **({"shadow": attempt.shadow.result} if attempt.shadow else {})},
                              source="bench")
        return state

    return solve


def attempts_of(state: TaskState) -> list[Attempt]:
    return [Attempt.model_validate(a) for a in state.store.get(STORE_KEY, [])]


def verdicts(a: Attempt, lang: str) -> dict:
    """What the score's metadata keeps of an attempt: everything but the texts (those are in the messages)."""
    out = {"n": a.n, "result": a.result, "detail": a.detail, "stages": [s.model_dump(mode="json") for s in a.stages]}
    if lang == "sysr":
        out["shadow"] = a.shadow.model_dump(mode="json") if a.shadow else None
        out["checker"] = classify(a)
    return out


@scorer(metrics={"solved": [accuracy(), stderr()], "first_attempt": [accuracy(), stderr()]})
def bench_scorer(lang: str = "sysr"):
    """The verdicts of bench.judge.score.Scorer on the loop's attempts (Yosys and Icarus only)."""

    async def score(state: TaskState, target: Target) -> Score:
        done = attempts_of(state)
        if not done:
            return Score.unscored(reason="scoring_failed",
                                  explanation="no attempt recorded: bench_scorer scores what bench_loop did")
        last = done[-1]
        meta = {"result": last.result, "stages": [s.model_dump(mode="json") for s in last.stages],
                "attempts_used": len(done), "attempts": [verdicts(a, lang) for a in done]}
        if lang == "sysr":
            meta["shadow"] = last.shadow.model_dump(mode="json") if last.shadow else None
            meta["checker"] = [classify(a) for a in done]
        failed_tool = next((a for a in done if a.result == "tool-failure"), None)
        if failed_tool is not None:
            return Score.unscored(reason="scoring_failed", answer=last.code, metadata=meta,
                                  explanation=f"a tool did not run on attempt {failed_tool.n}, so the sample "
                                              f"is not scored:\n{failed_tool.detail}")
        solved = last.result == "PASS"
        explanation = (f"PASS on attempt {last.n}" if solved else
                       f"{last.result} on attempt {last.n} (the last)" + (f":\n{last.detail}" if last.detail else ""))
        return Score(value={"solved": CORRECT if solved else INCORRECT,
                            "first_attempt": CORRECT if done[0].result == "PASS" else INCORRECT},
                     answer=last.code, explanation=explanation, metadata=meta)

    return score
