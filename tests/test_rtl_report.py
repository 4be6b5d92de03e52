"""rtl_report.json (`bench.report.rtl_report`, `bench.report.rtl_from_bench`): the contract's models refuse what it
forbids, derive what it derives, and a report made from bench's records validates and round-trips."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from bench.judge.results import StageResult
from bench.loop.records import Attempt, RunRecord, Sample, TaskRun
from bench.report.rtl_from_bench import MAPPING, report, stage_report
from bench.report.rtl_report import (STAGES, V1, V2, ReportV1, ReportV2, StageReport, SuiteResult, ToolFailure,
                              Verification, read_report)

DIGEST = "sha256:" + "ab" * 32


def st(stage="simulate", ok=True, verdict="pass", **kw) -> StageReport:
    kw.setdefault("log_digest", DIGEST)
    return StageReport(stage=stage, tool="vvp", tool_version="Icarus Verilog runtime version 12.0", tool_ok=ok,
                       verdict=verdict, duration_s=0.1, **kw)


def test_a_tool_that_ran_must_give_a_verdict():
    with pytest.raises(ValidationError, match="ran but the stage has no verdict"):
        st(verdict=None)


@pytest.mark.parametrize("verdict", ["pass", "fail"])
def test_a_tool_that_did_not_run_gives_no_pass_or_fail(verdict):
    with pytest.raises(ValidationError, match=f"a {verdict} from a tool that did not run"):
        st(ok=False, verdict=verdict)
    assert st(ok=False, verdict="unknown").broken
    assert st(ok=False, verdict=None).broken


def test_stage_names_are_the_closed_set_and_tool_version_is_required():
    assert STAGES == ("lint", "compile", "simulate", "formal", "synthesize", "coverage", "custom")
    with pytest.raises(ValidationError):
        st(stage="elaborate")
    with pytest.raises(ValidationError):
        StageReport(stage="lint", tool="verilator", tool_ok=True, verdict="pass", duration_s=0)
    with pytest.raises(ValidationError, match="digest"):
        st(log_digest="the whole log of the tool")


def test_the_final_verdict_is_derived():
    assert Verification(task_id="t").final == "unknown"
    assert Verification(task_id="t", stages=[st(), st("compile")]).final == "pass"
    assert Verification(task_id="t", stages=[st("compile"), st(verdict="fail")]).final == "fail"
    broken = Verification(task_id="t", stages=[st("lint", ok=False, verdict="unknown"), st(verdict="fail")])
    assert (broken.final, broken.tool_failures, broken.complete) == ("unknown", 1, False)
    with pytest.raises(ValidationError, match="derived"):
        Verification(task_id="t", stages=[st(verdict="fail")], final="pass")
    with pytest.raises(ValidationError, match="derived"):
        Verification(task_id="t", stages=[st(ok=False, verdict="unknown")], tool_failures=0)


def test_as_reward_refuses_tool_failures_and_names_the_stages():
    assert Verification(task_id="t", stages=[st()]).as_reward() == 1.0
    assert Verification(task_id="t", stages=[st(verdict="fail")]).as_reward() == 0.0
    v = Verification(task_id="adder", stages=[st("compile"), st(ok=False, verdict="unknown", name="simulate")])
    with pytest.raises(ToolFailure, match=r"adder: .*simulate \(vvp\)") as e:
        v.as_reward()
    assert e.value.broken == ["simulate (vvp)"]
    with pytest.raises(ToolFailure, match="no stage ran"):
        Verification(task_id="t").as_reward()


def test_pass_rate_is_null_when_nothing_was_scored_and_derived_otherwise():
    empty = SuiteResult(tool_failures=3, tasks=2, samples=0, passed=0)
    assert empty.pass_rate is None and empty.pass_at_1 is None
    assert SuiteResult(tool_failures=0, samples=4, passed=1, **{"pass@1": 0.25}).pass_rate == 0.25
    with pytest.raises(ValidationError, match="derived"):
        SuiteResult(tool_failures=0, samples=4, passed=1, pass_rate=1.0)
    with pytest.raises(ValidationError, match="null when nothing was scored"):
        SuiteResult(tool_failures=1, samples=0, passed=0, **{"pass@1": 0.0})


def test_the_reader_takes_both_versions_and_round_trips():
    res = {"s": SuiteResult(tool_failures=0, samples=2, passed=1, **{"pass@1": 0.5, "pass@k": 0.5})}
    v1 = ReportV1(results=res, benchmark="s")
    v2 = ReportV2(results=res, verifications=[Verification(task_id="t", stages=[st()])])
    one, two = read_report(v1.dump()), read_report(v2.dump())
    assert isinstance(one, ReportV1) and not isinstance(one, ReportV2) and one.schema_ == V1
    assert isinstance(two, ReportV2) and two.schema_ == V2 and two == v2
    assert json.loads(v1.dump())["results"]["s"]["pass@1"] == 0.5
    assert json.loads(v2.dump())["schema"] == V2
    with pytest.raises(ValueError, match="not an rtl_report"):
        read_report({"schema": "other", "results": {}})
    with pytest.raises(ValidationError):
        read_report({"schema": V1, "results": {}, "verifications": []})  # v1 has no verifications


def stage(name, verdict="ok", tool="yosys", detail="", codes=()):
    return StageResult(stage=name, tool=tool, tool_version="Yosys 0.23" if tool else "", ran=verdict != "tool-failure",
                       verdict=verdict, duration_s=0.01, detail=detail, codes=list(codes))


def attempt(result, stages):
    return Attempt(n=1, feedback="", reply="", code=None, result=result, detail="", stages=stages, tokens_in=1,
                   tokens_out=1, tokens_approximate=True, model_s=0, score_s=0)


PASSING = [stage("preprocess", tool="iverilog"), stage("guard", tool=""), stage("syntax"), stage("interface"),
           stage("elaborate"), stage("compile", tool="iverilog"),
           stage("simulate", tool="vvp", detail="Mismatches: 0 in 20 samples")]


def run_of(tasks: dict[str, list[Attempt]], samples=1) -> RunRecord:
    rec = RunRecord(model="scripted:x", lang="verilog", budget=1, spec_stubs=False, tool_versions={}, commit="c",
                    started="now", samples=samples)
    for name, attempts in tasks.items():
        tr = rec.tasks.setdefault(name, TaskRun(task=name))
        for k, a in enumerate(attempts, 1):
            tr.samples.append(Sample(k=k, attempts=[a], solved=a.result == "PASS", done=True))
    return rec


def test_every_bench_stage_maps_into_the_closed_set():
    assert set(MAPPING.values()) <= set(STAGES)
    s = stage_report(stage("elaborate", "latch"))
    assert (s.stage, s.name, s.verdict, s.metrics["bench_result"]) == ("synthesize", "elaborate", "fail", "latch")
    g = stage_report(stage("guard", tool=""))
    assert g.tool == "bench" and g.tool_version.startswith("bench ")
    t = stage_report(stage("compile", "tool-failure", tool="iverilog"))
    assert (t.tool_ok, t.verdict) == (False, "unknown")
    sim = stage_report(PASSING[-1])
    assert sim.metrics == {"mismatches": 0, "samples": 20}


def test_a_report_from_a_run_has_derived_verdicts_and_round_trips():
    rec = run_of({"a": [attempt("PASS", PASSING)],
                  "b": [attempt("latch", PASSING[:4] + [stage("elaborate", "latch")])],
                  "c": [attempt("tool-failure", PASSING[:5] + [stage("compile", "tool-failure", tool="iverilog")])]})
    rep = report([("run", rec)])
    back = read_report(rep.dump())
    assert back == rep
    by = {v.task_id: v for v in back.verifications}
    assert (by["a"].final, by["a"].complete, by["a"].as_reward()) == ("pass", True, 1.0)
    assert (by["b"].final, by["b"].complete, by["b"].as_reward()) == ("fail", False, 0.0)
    assert by["c"].final == "unknown"
    with pytest.raises(ToolFailure, match="compile"):
        by["c"].as_reward()
    r = back.results["sysr-bench"]
    assert (r.samples, r.passed, r.tool_failures, r.pass_rate, r.pass_at_1) == (2, 1, 1, 0.5, 0.5)
    assert isinstance(read_report(report([("run", rec)], version=1).dump()), ReportV1)


def test_an_empty_run_has_a_null_pass_rate():
    rep = report([("run", run_of({}))])
    r = rep.results["sysr-bench"]
    assert (r.pass_rate, r.pass_at_1, r.pass_at_k, r.samples) == (None, None, None, 0)
    only_broken = report([("run", run_of({"c": [attempt("tool-failure", [stage("compile", "tool-failure")])]}))])
    assert only_broken.results["sysr-bench"].pass_rate is None
    assert only_broken.results["sysr-bench"].tool_failures == 1
