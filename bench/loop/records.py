"""The loop's run records as pydantic models: attempts, samples, task runs, the run record.

A run record is what `bench loop` writes to run.json and what `bench summary`, `bench catch`
and the Inspect task read back, so it is a contract: fields are added, never renamed. The
judge's results inside it (stages, shadow) are `bench.judge.results`.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from ..judge.results import Shadow, StageResult

# 1: one conversation per task (TaskRun held attempts, solved, done).
# 2: samples: TaskRun holds a list of Sample, each its own conversation; cache token counts; shadow.
SCHEMA_VERSION = 2


class Attempt(BaseModel):
    n: int  # 1-based, within its sample
    feedback: str  # the user message that asked for this attempt
    reply: str
    code: str | None
    result: str
    detail: str
    stages: list[StageResult] = Field(default_factory=list)
    tokens_in: int  # every prompt token, cached or not
    tokens_out: int
    tokens_approximate: bool
    model_s: float
    score_s: float
    error: str = ""  # a model backend that failed: the attempt did not happen
    tokens_cached: int = 0  # of tokens_in: read from the server's prompt cache
    tokens_cache_write: int = 0  # of tokens_in: written to the prompt cache (anthropic)
    shadow: Shadow | None = None  # see Shadow; never shown to the model


class Sample(BaseModel):
    k: int  # 1-based sample number within its task
    seed: int | None = None  # the seed sent with every request of this sample
    attempts: list[Attempt] = Field(default_factory=list)
    solved: bool = False
    done: bool = False


class TaskRun(BaseModel):
    task: str
    samples: list[Sample] = Field(default_factory=list)
    done: bool = False  # every sample of the run has finished

    def sample(self, k: int) -> Sample:
        """Sample k, created (empty) when the run has not started it yet."""
        for s in self.samples:
            if s.k == k:
                return s
        s = Sample(k=k)
        self.samples.append(s)
        self.samples.sort(key=lambda x: x.k)
        return s


class RunRecord(BaseModel):
    schema_version: int = SCHEMA_VERSION
    model: str
    lang: str
    budget: int
    spec_stubs: bool
    tool_versions: dict[str, str]
    commit: str
    started: str
    ended: str | None = None
    samples: int = 1  # conversations per task
    temperature: float | None = None  # None: the backend's default (not sent)
    seed: int | None = None  # sample k is sent seed + k - 1; None: no seed sent
    endpoint: str | None = None  # the base URL an API backend was pointed at, when one was given
    suite: str | None = None  # the imported suite's folder (`bench loop --suite`); None: tasks/
    lint: bool = False  # the scorer's lint option (bench.judge.lint): Verilator's failing warnings failed designs
    tasks: dict[str, TaskRun] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _upgrade(cls, data):
        """Read a schema 1 record (one conversation per task) as a run of one sample."""
        if isinstance(data, dict) and data.get("schema_version", SCHEMA_VERSION) < 2:
            data = dict(data)
            tasks = {}
            for name, tr in (data.get("tasks") or {}).items():
                sample = {"k": 1, "attempts": tr.get("attempts", []), "solved": tr.get("solved", False),
                          "done": tr.get("done", False)}
                tasks[name] = {"task": tr.get("task", name), "samples": [sample], "done": tr.get("done", False)}
            data["tasks"] = tasks
            data["schema_version"] = SCHEMA_VERSION
        return data
