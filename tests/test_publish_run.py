"""Publishing a run's record (benchmarks/publish_run.py): a run of an imported suite loses the
upstream prompt it quotes and this machine's paths, and `bench summary` reads the published
record to the same figures."""

from __future__ import annotations

import json
import sys

from bench.cli.main import main as bench_main
from bench.loop.records import Attempt, RunRecord, Sample, TaskRun
from bench.judge.tasks import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from publish_run import main as publish_main  # noqa: E402

GIVEN = "  assign sum = a + b + carry_in;  // the adder the task gives"
PROMPT = f"Task: Prob001_upstream\n\nI would like you to implement a module named TopModule ...\n{GIVEN}\n"


def _attempt(n: int, feedback: str, result: str) -> Attempt:
    return Attempt(n=n, feedback=feedback, reply=f"```sysr\nmodule TopModule() {{}} // {n}\n{GIVEN}\n```",
                   code=f"module TopModule() {{}}\n{GIVEN}",
                   result=result, detail="Mismatches: 3 in 40 samples" if result != "PASS" else "", tokens_in=900 + n,
                   tokens_out=100, tokens_approximate=True, model_s=1, score_s=1)


def _run(tmp_path, suite: str | None):
    rec = RunRecord(model="relay:/somewhere/R-cb-s", lang="sysr", budget=4, spec_stubs=False, tool_versions={},
                    commit="abc", started="now", suite=suite,
                    tasks={"Prob001_upstream": TaskRun(task="Prob001_upstream", samples=[Sample(
                        k=1, done=True, attempts=[_attempt(1, PROMPT, "wrong-output"),
                                                  _attempt(2, "Your design failed: wrong-output ...", "PASS")])])})
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "run.json").write_text(rec.model_dump_json())
    return tmp_path / "run"


def _summary(path, capsys) -> dict:
    assert bench_main(["summary", "--json", str(path)]) == 0
    got = json.loads(capsys.readouterr().out)[0]
    return {k: got[k] for k in ("solved", "first", "attempts", "tokens_in", "tokens_out") if k in got}


def test_an_imported_suites_run_loses_the_upstream_prompt_and_keeps_its_figures(tmp_path, capsys):
    run = _run(tmp_path, "/machine/path/to/cb")
    before = _summary(run, capsys)
    assert publish_main([str(run), "--out", str(tmp_path / "pub")]) == 0
    capsys.readouterr()
    text = (tmp_path / "pub" / "run" / "run.json").read_text()
    assert "TopModule ..." not in text and "/machine/path" not in text and "/somewhere" not in text
    data = json.loads(text)
    first, repair = data["tasks"]["Prob001_upstream"]["samples"][0]["attempts"]
    assert first["feedback"].startswith("[the task's first message, left out") and f"({len(PROMPT)} characters" in first["feedback"]
    assert repair["feedback"] == "Your design failed: wrong-output ..."  # the judge's words are kept
    assert first["reply"].startswith("```sysr") and data["suite"] == "cb" and data["model"] == "relay:R-cb-s"
    assert GIVEN not in text and first["code"] == "module TopModule() {}\n// [a line of the upstream prompt, left out of the published record]"
    assert _summary(tmp_path / "pub" / "run", capsys) == before and before


def test_a_run_of_the_projects_tasks_is_kept_whole(tmp_path, capsys):
    run = _run(tmp_path, None)
    assert publish_main([str(run), "--out", str(tmp_path / "pub")]) == 0
    data = json.loads((tmp_path / "pub" / "run" / "run.json").read_text())
    assert data["tasks"]["Prob001_upstream"]["samples"][0]["attempts"][0]["feedback"] == PROMPT
