"""The benchmark's records as pydantic models: stage results, candidate results, score reports.

These are what `bin/bench score --json` prints and what the loop stores in run.json, so a
record is a contract: fields are added, never renamed.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

# Result names, in stage order. PASS is decided by Yosys and Icarus only.
RESULTS = (
    "no-code",          # no candidate file, or an empty one
    "too-large",        # the candidate is over 1 MiB (bench.guard.CANDIDATE_LIMIT)
    "forbidden",        # uses a construct candidates may not use (system tasks, hierarchical refs...)
    "check-failed",     # sysr: the checker rejected the design (or failed on it: exit 2, a crash)
    "lower-failed",     # sysr: the lowering refused it
    "syntax",           # the preprocessor or Yosys could not read the Verilog
    "interface",        # ports differ from iface.v
    "latch",            # Yosys inferred a latch
    "comb-loop",        # Yosys found a combinational loop
    "multi-driver",     # Yosys found a signal with more than one driver
    "lint",             # Verilator's lint found a failing warning (only with the scorer's lint option)
    "missing-resource", # synthesis did not infer the cells the task requires
    "compile",          # iverilog could not compile the design with the testbench
    "wrong-output",     # the testbench printed FAIL
    "timeout",          # the simulation did not finish in time
    "no-verdict",       # the simulation finished without PASS or FAIL
    "resource-limit",   # a tool (any stage) hit its time, memory or output limit on the design
    "PASS",
    "tool-failure",     # a tool did not run (missing, no sandbox, broken on the reference too):
                        # not a verdict on the design
)


class StageResult(BaseModel):
    stage: str
    tool: str
    tool_version: str
    ran: bool
    verdict: str  # "ok" or a result name
    duration_s: float
    detail: str = ""
    codes: list[str] = Field(default_factory=list)  # check: the checker's error codes; lint: Verilator's warnings
    log_digest: str | None = None  # "sha256:<hex>" of the tool's output (stdout, then stderr); None: no tool output


class Shadow(BaseModel):
    """What the rest of the judge says about a sysr design the checker rejected on its proofs alone.

    Recorded beside the result, never instead of it: a shadow PASS leaves the result
    `check-failed`, and the model never sees it. `result` is a result name (PASS included).
    """

    result: str
    detail: str = ""
    stages: list[StageResult] = Field(default_factory=list)


class CandidateResult(BaseModel):
    task: str
    lang: str
    result: str
    stages: list[StageResult] = Field(default_factory=list)
    shadow: Shadow | None = None  # sysr, check-failed with only V-codes: the shadow simulation
    cached: bool = False  # read from the result cache (bench.cache): no tool ran; the stages are the first run's

    @property
    def detail(self) -> str:
        """What a model or a person needs to see about the failure."""
        for s in self.stages:
            if s.verdict != "ok":
                return s.detail
        return ""


class Counts(BaseModel):
    candidates: int
    passed: int
    failed: int
    tool_failures: int
    scorable: int
    by_result: dict[str, int]


class ScoreReport(BaseModel):
    lang: str
    results: list[CandidateResult]
    counts: Counts
    wall_s: float


def count(results: list[CandidateResult]) -> Counts:
    by: dict[str, int] = {}
    for r in results:
        by[r.result] = by.get(r.result, 0) + 1
    tool = by.get("tool-failure", 0)
    passed = by.get("PASS", 0)
    return Counts(candidates=len(results), passed=passed, failed=len(results) - passed - tool,
                  tool_failures=tool, scorable=len(results) - tool, by_result=dict(sorted(by.items())))


# ---- the loop's run records ------------------------------------------------------------------

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
    lint: bool = False  # the scorer's lint option (bench.lint): Verilator's failing warnings failed designs
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
