"""Shadow simulation and the checker-versus-testbench matrix, on small edits of the toy counter:
a wrong design under the right property (caught), a right design under a wrong property (false
alarm), a wrong design under a weak property (missed), the reference (agreed) and a design with
a name error (static: outside the matrix). The shadow never turns a rejection into a PASS and
never reaches the model.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from bench.loop.runs import Loop, Run, RunSpec
from bench.loop.models import get_model
from bench.loop.records import Attempt
from bench.judge.results import Shadow, StageResult
from bench.judge.score import Limits, Scorer
from bench.report.shadow import classify
from bench.report.summary import counts, render
from bench.judge.tasks import load_tasks

FIXTURE = Path(__file__).parent / "fixtures" / "toy"
GOOD = (FIXTURE / "ref.sysr").read_text()
PROPERTY = "ensures prev(en) ==> q == prev(q) + 1;"
assert PROPERTY in GOOD
CAUGHT = GOOD.replace("q <= q + 1", "q <= q + 2")
FALSE_ALARM = GOOD.replace(PROPERTY, "ensures prev(en) ==> q == prev(q) + 2;")
MISSED = CAUGHT.replace(PROPERTY, "")
STATIC = GOOD.replace("q <= q + 1", "q <= q + step")


def block(code: str) -> str:
    return f"```sysr\n{code}```\n"


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    root = tmp_path_factory.mktemp("tasks")
    shutil.copytree(FIXTURE, root / "toy")
    return load_tasks(["toy"], root)


@pytest.fixture(scope="module")
def scorer():
    return Scorer(Limits(sim_s=10))


def test_false_alarm_is_recorded_beside_the_rejection_never_as_a_pass(toy, scorer) -> None:
    r = scorer.score(toy[0], "sysr", FALSE_ALARM)
    assert r.result == "check-failed" and r.stages[-1].codes == ["V002"]
    assert r.shadow is not None and r.shadow.result == "PASS"
    assert [s.stage for s in r.shadow.stages] == ["lower", "preprocess", "guard", "syntax", "interface",
                                                   "elaborate", "lint", "compile", "simulate"]
    assert "V002" in r.detail and "PASS" not in r.detail


def test_caught_design_fails_in_the_shadow(toy, scorer) -> None:
    r = scorer.score(toy[0], "sysr", CAUGHT)
    assert r.result == "check-failed"
    assert r.shadow.result == "wrong-output" and r.shadow.detail.startswith("FAIL cycle")


def test_no_shadow_when_static_checks_fail_or_the_design_is_accepted(toy, scorer) -> None:
    r = scorer.score(toy[0], "sysr", STATIC)
    assert r.result == "check-failed" and r.stages[-1].codes == ["N001"] and r.shadow is None
    r = scorer.score(toy[0], "sysr", MISSED)
    assert r.result == "wrong-output" and r.shadow is None
    assert Scorer(shadow=False).score(toy[0], "sysr", FALSE_ALARM).shadow is None


def test_scripted_run_with_one_design_of_each_kind(tmp_path, toy) -> None:
    designs = [CAUGHT, FALSE_ALARM, MISSED, GOOD, STATIC]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"toy": [[block(d)] for d in designs]}))
    run = Run.create(tmp_path / "run", RunSpec("scripted:kinds", "sysr", 1, samples=len(designs)))
    Loop(run, get_model(f"scripted:{script}"), toy, Scorer(Limits(sim_s=10)), log=lambda m: None).go(jobs=2)
    rec = json.loads((tmp_path / "run" / "run.json").read_text())
    results = [s["attempts"][0]["result"] for s in rec["tasks"]["toy"]["samples"]]
    assert results == ["check-failed", "check-failed", "wrong-output", "PASS", "check-failed"]
    c = counts(run.record, "kinds")
    assert c.checker == {"caught": 1, "false_alarm": 1, "missed": 1, "agreed": 1, "static_rejected": 1,
                         "unjudged": 0}
    assert c.per_task[0].checker == c.checker
    assert c.solved_samples == 1  # the false alarm stays a failure
    rows = dict(re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in render([c]).splitlines()
                if line.startswith(("checker", "not in the matrix")))
    assert rows == {"checker caught (rejected, testbench fails)": "1",
                    "checker false alarm (rejected, testbench passes)": "1",
                    "checker missed (accepted, testbench fails)": "1",
                    "checker agreed (accepted, testbench passes)": "1",
                    "not in the matrix: static checks failed": "1",
                    "not in the matrix: no code, or a tool did not run": "0"}
    transcript = (tmp_path / "run" / "toy-s2.transcript.md").read_text()
    assert "shadow simulation (not shown to the model)" in transcript


def test_the_model_never_sees_the_shadow(tmp_path, toy) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"toy": [block(CAUGHT), block(GOOD)]}))
    run = Run.create(tmp_path / "run", RunSpec("scripted:x", "sysr", 2))
    rec = Loop(run, get_model(f"scripted:{script}"), toy, Scorer(Limits(sim_s=10)), log=lambda m: None).go()
    first, second = rec.tasks["toy"].samples[0].attempts
    assert first.shadow.result == "wrong-output"
    assert "V002" in second.feedback and "FAIL" not in second.feedback and "wrong-output" not in second.feedback


def attempt(result: str, shadow: str | None = None, codes: list[str] | None = None) -> Attempt:
    stages = [StageResult(stage="check", tool="sysr", tool_version="", ran=True, duration_s=0,
                          verdict="check-failed", codes=codes or [])] if result == "check-failed" else []
    return Attempt(n=1, feedback="", reply="", code="x", result=result, detail="", stages=stages, tokens_in=0,
                   tokens_out=0, tokens_approximate=False, model_s=0, score_s=0,
                   shadow=Shadow(result=shadow) if shadow else None)


@pytest.mark.parametrize("a,kind", [
    (attempt("check-failed", "wrong-output", ["V002"]), "caught"),
    (attempt("check-failed", "latch", ["V003"]), "caught"),
    (attempt("check-failed", "PASS", ["V007"]), "false_alarm"),
    (attempt("check-failed", "tool-failure", ["V002"]), "unjudged"),
    (attempt("check-failed", None, ["T001", "V002"]), "static_rejected"),
    (attempt("check-failed", None, []), "unjudged"),  # recorded before shadow simulation
    (attempt("wrong-output"), "missed"),
    (attempt("interface"), "missed"),
    (attempt("PASS"), "agreed"),
    (attempt("no-code"), "unjudged"),
    (attempt("tool-failure"), "unjudged"),
])
def test_classify(a, kind) -> None:
    assert classify(a) == kind
