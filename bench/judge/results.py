"""The judge's results as pydantic models: stage results, candidate results, score reports.

These are what `bin/bench score --json` prints and what the loop stores in run.json (inside its
run records, `bench.loop.records`), so a record is a contract: fields are added, never renamed.
"""

from __future__ import annotations

import hashlib

from pydantic import BaseModel, Field

# Result names, in stage order. PASS is decided by Yosys and Icarus only.
RESULTS = (
    "no-code",          # no candidate file, or an empty one
    "too-large",        # the candidate is over 1 MiB (bench.judge.guard.CANDIDATE_LIMIT)
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


def proofs_only(check: StageResult) -> bool:
    """The checker rejected the design on its proofs alone (its static checks passed): every
    error a V-code. Such a design is still lowered and judged, as a `Shadow`."""
    return check.verdict == "check-failed" and bool(check.codes) and all(c.startswith("V") for c in check.codes)


class CandidateResult(BaseModel):
    task: str
    lang: str
    result: str
    stages: list[StageResult] = Field(default_factory=list)
    shadow: Shadow | None = None  # sysr, check-failed with only V-codes: the shadow simulation
    cached: bool = False  # read from the result cache (bench.judge.cache): no tool ran; the stages are the first run's

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


def digest(stdout: str, stderr: str) -> str:
    """A stage's `log_digest`: the SHA-256 of its tool's stdout, a NUL and its stderr."""
    data = stdout.encode("utf-8", errors="surrogatepass") + b"\0" + stderr.encode("utf-8", errors="surrogatepass")
    return "sha256:" + hashlib.sha256(data).hexdigest()
