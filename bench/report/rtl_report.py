"""The rtl_report.json contract (`tuneplane/rtl-report/v1` and `/v2`) as pydantic models.

This is the file an RTL harness hands to the dashboards and training pipelines that run it
(`bench report`, `bench-harness`: `bench.cli.report`, `bench.cli.harness`): the models here are the contract, and they refuse what the
contract forbids at construction, so a report that validates is one a reader may trust.

- v1: `results`, per suite, `pass@1`, `pass@k` (with its `k`), `tool_failures` and `pass_rate`
  (`null` when nothing was scored: no sample of the suite had every tool run), and the suite's
  `upstream_commit` (also at the top when all suites share one).
- v2: v1 and `verifications`, one per scored sample: `task_id`, `final` (`pass`, `fail`,
  `unknown`), `complete`, `tool_failures`, and `stages`, each with `stage` from the closed,
  ordered set `STAGES`, `tool`, `tool_version` (required), `tool_ok`, `verdict`, `metrics`,
  `log_digest` (a digest of the tool's output, never the output) and `duration_s`.

Two stage shapes are refused: a tool that ran (`tool_ok`) with no verdict, and a `pass` or
`fail` from a tool that did not run. A verification's `final`, `tool_failures` and `complete`
are derived from its stages, never declared: a declared value that disagrees is refused, so a
producer cannot claim a pass its stages do not show. No stages, or any tool failure, makes the
final verdict `unknown`; `as_reward()` refuses to turn such a verification into a number
(`ToolFailure`, naming the broken stages) instead of returning 0.0, since a tool failure scored
as 0 teaches a policy to avoid whatever it was doing. `read_report` accepts both versions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

V1 = "tuneplane/rtl-report/v1"
V2 = "tuneplane/rtl-report/v2"
STAGES = ("lint", "compile", "simulate", "formal", "synthesize", "coverage", "custom")
Stage = Literal["lint", "compile", "simulate", "formal", "synthesize", "coverage", "custom"]
Verdict = Literal["pass", "fail", "unknown"]
Metric = Union[bool, int, float, str]


class ToolFailure(Exception):
    """A verification whose tools did not all run: it has no reward (the message names the stages)."""

    def __init__(self, task_id: str, broken: list[str]) -> None:
        what = ", ".join(broken) if broken else "no stage ran"
        super().__init__(f"{task_id}: no reward: a tool did not run ({what}); this is a failure of the harness, "
                         "not of the design")
        self.task_id = task_id
        self.broken = broken


class StageReport(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stage: Stage
    tool: str = Field(min_length=1)
    tool_version: str = Field(min_length=1)
    tool_ok: bool
    verdict: Verdict | None = None
    metrics: dict[str, Metric] = Field(default_factory=dict)
    log_digest: str | None = None  # "sha256:<hex>" of the tool's output
    duration_s: float = Field(ge=0)
    name: str | None = None  # the producer's own name for the stage ("elaborate"), when it differs

    @model_validator(mode="after")
    def _legal(self) -> StageReport:
        if self.tool_ok and self.verdict is None:
            raise ValueError(f"stage {self.stage} ({self.tool}): the tool ran but the stage has no verdict")
        if not self.tool_ok and self.verdict in ("pass", "fail"):
            raise ValueError(f"stage {self.stage} ({self.tool}): a {self.verdict} from a tool that did not run")
        return self

    @field_validator("log_digest")
    @classmethod
    def _digest(cls, v: str | None) -> str | None:
        if v is not None and not (v.startswith("sha256:") and len(v) == 71
                                  and all(c in "0123456789abcdef" for c in v[7:])):
            raise ValueError("log_digest must be sha256:<64 lowercase hex digits> (a digest, not the log)")
        return v

    @property
    def broken(self) -> bool:
        return not self.tool_ok


def derive_final(stages: list[StageReport]) -> Verdict:
    if not stages or any(s.broken for s in stages):
        return "unknown"
    if any(s.verdict == "fail" for s in stages):
        return "fail"
    if any(s.verdict != "pass" for s in stages):
        return "unknown"
    return "pass"


class Verification(BaseModel):
    """One scored sample of one task: its stages and what they add up to."""

    model_config = ConfigDict(extra="forbid")
    task_id: str = Field(min_length=1)
    sample: int = Field(default=1, ge=1)  # which sample of the task (1 when one per task)
    stages: list[StageReport] = Field(default_factory=list)
    planned: int | None = Field(default=None, ge=0)  # stages the producer's pipeline has for this task
    final: Verdict = "unknown"
    complete: bool = False
    tool_failures: int = 0

    @model_validator(mode="before")
    @classmethod
    def _derived(cls, data):
        """final, tool_failures and complete are computed; a declared value must agree."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        stages = [s if isinstance(s, StageReport) else StageReport.model_validate(s) for s in data.get("stages", [])]
        planned = data.get("planned")
        derived = {"final": derive_final(stages), "tool_failures": sum(s.broken for s in stages),
                   "complete": bool(stages) and not any(s.broken for s in stages)
                   and (planned is None or len(stages) >= planned)}
        for key, value in derived.items():
            if key in data and data[key] != value:
                raise ValueError(f"{key} is derived from the stages ({value!r}), never declared ({data[key]!r})")
            data[key] = value
        data["stages"] = stages
        return data

    def broken_stages(self) -> list[str]:
        return [f"{s.name or s.stage} ({s.tool})" for s in self.stages if s.broken]

    def as_reward(self) -> float:
        """1.0 for pass, 0.0 for fail; ToolFailure when a tool did not run or nothing ran."""
        if self.final == "unknown":
            raise ToolFailure(self.task_id, self.broken_stages())
        return 1.0 if self.final == "pass" else 0.0


class SuiteResult(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    pass_at_1: float | None = Field(alias="pass@1", default=None, ge=0, le=1)
    pass_at_k: float | None = Field(alias="pass@k", default=None, ge=0, le=1)
    k: int = Field(default=1, ge=1)
    tool_failures: int = Field(ge=0)
    tasks: int = Field(default=0, ge=0)
    samples: int = Field(default=0, ge=0)  # scored: finished with every tool run
    passed: int = Field(default=0, ge=0)
    pass_rate: float | None = Field(default=None, ge=0, le=1)
    upstream_commit: str | None = None  # of the suite's checkout (an imported suite)

    @model_validator(mode="after")
    def _rate(self) -> SuiteResult:
        if self.passed > self.samples:
            raise ValueError(f"passed ({self.passed}) exceeds the samples scored ({self.samples})")
        want = None if self.samples == 0 else self.passed / self.samples
        if self.pass_rate is None:
            self.pass_rate = want
        elif want is None or abs(self.pass_rate - want) > 1e-9:
            raise ValueError(f"pass_rate is derived ({want}), never declared ({self.pass_rate})")
        if self.samples == 0 and (self.pass_at_1 is not None or self.pass_at_k is not None):
            raise ValueError("pass@1 and pass@k are null when nothing was scored")
        return self


class ReportV1(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_: Literal["tuneplane/rtl-report/v1"] = Field(V1, alias="schema")
    benchmark: str = ""
    model: str = ""
    harness: str = ""  # the producer and its version
    upstream_commit: str | None = None  # of the suites' checkout, when every suite has the same one
    results: dict[str, SuiteResult]

    def dump(self) -> str:
        return json.dumps(self.model_dump(mode="json", by_alias=True), indent=2) + "\n"


class ReportV2(ReportV1):
    schema_: Literal["tuneplane/rtl-report/v2"] = Field(V2, alias="schema")  # type: ignore[assignment]
    verifications: list[Verification] = Field(default_factory=list)


Report = Union[ReportV1, ReportV2]
_READER: TypeAdapter = TypeAdapter(Union[ReportV2, ReportV1])


def read_report(data: str | bytes | dict | Path) -> Report:
    """A report of either version (v2 when its schema says so, else v1); ValidationError if neither."""
    if isinstance(data, Path):
        data = data.read_text()
    if isinstance(data, (str, bytes)):
        data = json.loads(data)
    if isinstance(data, dict) and data.get("schema") not in (V1, V2):
        raise ValueError(f"not an rtl_report: schema {data.get('schema')!r}, expected {V1} or {V2}")
    if isinstance(data, dict) and data["schema"] == V1:
        return ReportV1.model_validate(data)
    return ReportV2.model_validate(data)
