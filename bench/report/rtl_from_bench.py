"""bench's own records (a loop's run.json, an Inspect log) as an rtl_report.json (`bench.report.rtl_report`).

Each run gives one entry of `results`, named after its suite (the imported suite's kind from
its suite.json, `sysr-bench` for this project's tasks; with the run's language appended when
two runs share a suite; the benchmark's name when one is given for a single run): `pass@1` and `pass@k` by the unbiased estimator over the samples that
finished with every tool run (`bench.report.summary`, `bench.report.passk`), `k` the largest the run allows,
`tool_failures` the samples a tool failure left unscored, and `pass_rate` passed / scored.

Version 2 adds one verification per sample: the stages of its last attempt (the answer the
conversation ended on), each of bench's stages mapped to the contract's closed set (`MAPPING`,
also in the README), its name kept in `name`:

    read, guard               custom       the scorer's own checks (tool `bench`)
    check                     formal       sysr check: the design's properties proved with z3
    lower, preprocess,        compile      sysr lower; iverilog -E; iverilog with the testbench
      compile
    lint                      lint         Verilator --lint-only
    syntax, interface,        synthesize   Yosys reading, the ports, elaboration (latches, loops,
      elaborate, resources                 drivers), synthesis counting cells
    simulate                  simulate     vvp running the hidden testbench

A bench stage whose verdict is `ok` is `pass`; `tool-failure` is `tool_ok: false` with verdict
`unknown`; any other result (a limit hit on the design included, which bench counts against
the design) is `fail`, the result kept in `metrics.bench_result`. `complete` means the
pipeline reached its last stage (the simulation): a failure stops it earlier, so a failed
verification is usually not complete. The upstream commit comes from the suite's suite.json.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from sysr import __version__ as SYSR_VERSION

from ..judge.results import StageResult
from ..loop.records import Attempt, RunRecord
from .rtl_report import V1, V2, Report, ReportV1, ReportV2, StageReport, SuiteResult, Verification
from .summary import counts

MAPPING = {"read": "custom", "guard": "custom", "check": "formal", "lower": "compile", "preprocess": "compile",
           "compile": "compile", "lint": "lint", "syntax": "synthesize", "interface": "synthesize",
           "elaborate": "synthesize", "resources": "synthesize", "simulate": "simulate"}
LAST = "simulate"
HARNESS = f"bench (sysr {SYSR_VERSION})"
_SAMPLES = re.compile(r"Mismatches: (\d+) in (\d+) samples|Total mismatched samples is (\d+) out of (\d+) samples")


def stage_report(s: StageResult) -> StageReport:
    broken = s.verdict == "tool-failure"
    metrics: dict = {}
    if s.verdict not in ("ok", "tool-failure"):
        metrics["bench_result"] = s.verdict
    if s.stage == "simulate" and (m := _SAMPLES.search(s.detail)):
        metrics["mismatches"] = int(m.group(1) or m.group(3))
        metrics["samples"] = int(m.group(2) or m.group(4))
    if s.stage == "lint":
        metrics["warnings"] = len(s.codes)
        for code in s.codes:
            metrics[f"warnings.{code}"] = metrics.get(f"warnings.{code}", 0) + 1
    if s.stage == "check" and s.codes:
        metrics["errors"] = len(s.codes)
    return StageReport(stage=MAPPING.get(s.stage, "custom"), name=s.stage, tool=s.tool or "bench",
                       tool_version=s.tool_version or f"bench {SYSR_VERSION}", tool_ok=not broken,
                       verdict="unknown" if broken else ("pass" if s.verdict == "ok" else "fail"),
                       metrics=metrics, log_digest=getattr(s, "log_digest", None) or None,
                       duration_s=max(0.0, s.duration_s))


def verification(task: str, k: int, stages: list[StageResult]) -> Verification:
    reports = [stage_report(s) for s in stages]
    planned = len(reports) if stages and stages[-1].stage == LAST else len(reports) + 1
    return Verification(task_id=task, sample=k, stages=reports, planned=planned)


def _last(attempts: list[Attempt]) -> Attempt | None:
    return attempts[-1] if attempts else None


def suite_of(rec: RunRecord) -> tuple[str, str | None]:
    """(the suite's name, the upstream commit) of a run."""
    if not rec.suite:
        return "sysr-bench", None
    try:
        meta = json.loads((Path(rec.suite) / "suite.json").read_text())
        return str(meta.get("kind") or Path(rec.suite).name), meta.get("commit")
    except (OSError, ValueError):
        return Path(rec.suite).name, None


def suite_result(rec: RunRecord, commit: str | None = None) -> SuiteResult:
    c = counts(rec, "")
    k = max((int(x) for x in c.pass_at), default=1) if c.pass_at else 1
    return SuiteResult(**{"pass@1": c.pass_at["1"] if c.pass_at else None,
                          "pass@k": c.pass_at[str(k)] if c.pass_at else None},
                       k=k, tool_failures=c.tool_failed_samples, tasks=c.tasks, samples=c.samples,
                       passed=c.solved_samples, upstream_commit=commit)


def report(runs: list[tuple[str, RunRecord]], version: int = 2, benchmark: str | None = None) -> Report:
    """The report of one or more runs; version 1 or 2."""
    names = [suite_of(rec) for _, rec in runs]
    clash = len({n for n, _ in names}) < len(names)
    results, verifications = {}, []
    for (label, rec), (name, commit) in zip(runs, names):
        key = benchmark if benchmark and len(runs) == 1 else (f"{name}/{rec.lang}" if clash else name)
        if key in results:
            key = f"{key}/{label}"
        results[key] = suite_result(rec, commit)
        for tname in sorted(rec.tasks):
            for s in rec.tasks[tname].samples:
                if s.k > rec.samples:
                    continue
                last = _last(s.attempts)
                verifications.append(verification(tname, s.k, last.stages if last else []))
    commits = {c for _, c in names}
    models = sorted({rec.model for _, rec in runs})
    common = dict(benchmark=benchmark or ",".join(dict.fromkeys(n for n, _ in names)), model=",".join(models),
                  harness=HARNESS, upstream_commit=commits.pop() if len(commits) == 1 else None, results=results)
    if version == 1:
        return ReportV1(schema=V1, **common)
    return ReportV2(schema=V2, verifications=verifications, **common)
