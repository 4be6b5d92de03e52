"""Samples: N conversations per task through a fake OpenAI-compatible server (real HTTP), each
its own sample in run.json, temperature and per-sample seeds reaching the server, tokens counted
exactly as reported, and pass@k in `bench summary --json` for a scripted mix of solved, repaired
and never-solved samples; resuming finishes only what is missing (schema 1 runs included);
relay names per sample; a fatal model error stops the run; tool failures are not scorable.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fake_api import FakeServer, chat_completion, error

from bench.loop.runs import Loop, LoopError, Run, RunSpec
from bench.loop.models import get_model
from bench.loop.records import Attempt, RunRecord, Sample, TaskRun
from bench.judge.score import Limits, Scorer
from bench.report.summary import counts, load_run, render
from bench.judge.tasks import load_tasks

FIXTURE = Path(__file__).parent / "fixtures" / "toy"
GOOD = (FIXTURE / "ref.v").read_text()
WRONG = GOOD.replace("q + 4'd1", "q + 4'd2")


def block(code: str) -> str:
    return f"Here it is.\n\n```verilog\n{code}```\n"


@pytest.fixture(scope="module")
def tasks_dir(two_toys) -> Path:
    """Two copies of the toy counter: `toy` and `toy2`."""
    return two_toys


def bench(tasks_dir: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "BENCH_TASKS_DIR": str(tasks_dir), **(env or {})}
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], env=env, capture_output=True, text=True,
                          timeout=300)


# replies by task, then by seed (sample k gets seed 100 + k - 1), one per attempt
SCRIPT = {
    "toy": {100: [GOOD], 101: [WRONG, GOOD], 102: [WRONG, WRONG], 103: [GOOD]},  # n 4, c 3, first 2
    "toy2": {100: [WRONG, WRONG], 101: [WRONG, WRONG], 102: [WRONG, GOOD], 103: [WRONG, WRONG]},  # c 1, first 0
}


def usage_of(task: str, seed: int, attempt: int) -> tuple[int, int, int]:
    """(prompt, completion, cached) tokens the fake server reports: distinct for every request."""
    return 1000 * attempt + seed + (7 if task == "toy2" else 0), 40 + seed - 100, 800 * (attempt - 1)


def scripted_server(path: str, body: dict):
    task = re.match(r"Task: (\S+)", body["messages"][1]["content"]).group(1)
    attempt = (len(body["messages"]) - 1 + 1) // 2
    prompt, completion, cached = usage_of(task, body["seed"], attempt)
    text = block(SCRIPT[task][body["seed"]][attempt - 1])
    return 200, chat_completion(body["model"], text, prompt, completion, cached), {}


def test_samples_against_an_openai_compatible_server(tmp_path, tasks_dir) -> None:
    out = tmp_path / "run"
    with FakeServer(scripted_server) as srv:
        done = bench(tasks_dir, "loop", "--model", "openai:tiny-coder", "--base-url", f"{srv.url}/v1",
                     "--lang", "verilog", "--tasks", "toy,toy2", "--samples", "4", "--temperature", "0.8",
                     "--seed", "100", "--budget", "2", "--jobs", "2", "--out", str(out),
                     env={"OPENAI_API_KEY": ""})
        bodies = srv.bodies()
    assert done.returncode == 0, done.stderr
    assert all(b["temperature"] == 0.8 and b["model"] == "tiny-coder" for b in bodies)
    assert len(bodies) == 1 + 2 + 2 + 1 + 2 * 4  # one request per attempt, none repeated
    rec = json.loads((out / "run.json").read_text())
    assert rec["schema_version"] == 2 and rec["samples"] == 4 and rec["temperature"] == 0.8
    assert rec["endpoint"] == f"{srv.url}/v1"
    for task in ("toy", "toy2"):
        samples = rec["tasks"][task]["samples"]
        assert [s["k"] for s in samples] == [1, 2, 3, 4] and [s["seed"] for s in samples] == [100, 101, 102, 103]
        for s in samples:
            for a in s["attempts"]:
                prompt, completion, cached = usage_of(task, s["seed"], a["n"])
                assert (a["tokens_in"], a["tokens_out"], a["tokens_cached"]) == (prompt, completion, cached)
                assert not a["tokens_approximate"]
    assert [len(s["attempts"]) for s in rec["tasks"]["toy"]["samples"]] == [1, 2, 2, 1]
    assert (out / "toy.transcript.md").is_file() and (out / "toy2-s4.transcript.md").is_file()

    summary = bench(tasks_dir, "summary", "--json", str(out))
    assert summary.returncode == 0, summary.stderr
    [s] = json.loads(summary.stdout)
    assert s["samples"] == 8 and s["samples_per_task"] == 4 and s["approximate"] is False
    # toy: n 4, c 3, first 2; toy2: n 4, c 1, first 0
    assert s["pass_at"] == pytest.approx({"1": (3 / 4 + 1 / 4) / 2, "2": (1 + 1 / 2) / 2,
                                          "3": (1 + 3 / 4) / 2, "4": (1 + 1) / 2})
    assert s["pass_at_first"] == pytest.approx({"1": (2 / 4 + 0) / 2, "2": (5 / 6 + 0) / 2,
                                                "3": (1 + 0) / 2, "4": (1 + 0) / 2})
    assert s["tokens_in"] == sum(usage_of(b["messages"][1]["content"].split()[1], b["seed"],
                                          len(b["messages"]) // 2)[0] for b in bodies)
    assert s["tokens_out"] == sum(usage_of("toy", b["seed"], 1)[1] for b in bodies)
    assert s["tokens_cached"] == 800 * (1 + 1 + 4)  # the second attempts: toy s2, s3, toy2 s1-s4
    per = {t["task"]: t for t in s["per_task"]}
    assert (per["toy"]["samples"], per["toy"]["solved_samples"], per["toy"]["solved_first_samples"]) == (4, 3, 2)
    assert per["toy2"]["pass_at"]["1"] == pytest.approx(1 / 4) and s["checker"] is None
    text = bench(tasks_dir, "summary", str(out)).stdout
    assert "samples solved (c)" in text and "pass@2 0.750" in text and "%" not in text


def scripted(tmp_path: Path, replies) -> object:
    f = tmp_path / "script.json"
    f.write_text(json.dumps(replies))
    return get_model(f"scripted:{f}")


def test_resume_finishes_missing_samples_only(tmp_path, tasks_dir) -> None:
    toy = load_tasks(["toy"], tasks_dir)
    spec = RunSpec("scripted:x", "verilog", 2, samples=2)
    run = Run.create(tmp_path / "run", spec)
    model = scripted(tmp_path, {"toy": [[block(GOOD)]]})  # nothing for sample 2
    with pytest.raises(LoopError, match="sample 2"):
        Loop(run, model, toy, Scorer(Limits(sim_s=10)), log=lambda m: None).go()
    first = run.record.tasks["toy"].samples[0].attempts[0]

    asked = []
    model = scripted(tmp_path, {"toy": [[block(GOOD)], [block(WRONG), block(GOOD)], [block(GOOD)]]})
    complete = model.complete
    model.complete = lambda *a, **kw: asked.append((a[3], kw["sample"])) or complete(*a, **kw)
    run = Run.resume(tmp_path / "run", RunSpec("scripted:x", "verilog", 2))  # samples: the record's
    rec = Loop(run, model, toy, Scorer(Limits(sim_s=10)), log=lambda m: None).go()
    assert asked == [(1, 2), (2, 2)] and rec.tasks["toy"].samples[0].attempts[0] == first
    assert rec.tasks["toy"].done and rec.ended

    run = Run.resume(tmp_path / "run", RunSpec("scripted:x", "verilog", 2, samples=3))  # one more
    rec = Loop(run, model, toy, Scorer(Limits(sim_s=10)), log=lambda m: None).go()
    assert asked[2:] == [(1, 3)] and [s.k for s in rec.tasks["toy"].samples] == [1, 2, 3]
    for bad, match in ((RunSpec("scripted:x", "verilog", 2, samples=1), "not take some away"),
                       (RunSpec("scripted:x", "verilog", 2, temperature=0.2), "--temperature None")):
        with pytest.raises(LoopError, match=match):
            Run.resume(tmp_path / "run", bad)


SCHEMA_1 = {
    "schema_version": 1, "model": "relay:r", "lang": "verilog", "budget": 3, "spec_stubs": False,
    "tool_versions": {}, "commit": "abc", "started": "2025-01-01T00:00:00+00:00", "ended": None,
    "tasks": {"toy": {"task": "toy", "solved": False, "done": False, "attempts": [
        {"n": 1, "feedback": "Task: toy ...", "reply": "no code", "code": None, "result": "no-code",
         "detail": "the reply had no fenced code block", "stages": [], "tokens_in": 10, "tokens_out": 2,
         "tokens_approximate": True, "model_s": 1.0, "score_s": 0.0}]}},
}


def test_schema_1_runs_are_read_and_resumed(tmp_path, tasks_dir) -> None:
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "run.json").write_text(json.dumps(SCHEMA_1))
    c = counts(load_run(folder), "old")
    assert (c.tasks, c.solved, c.attempts, c.results, c.tokens_in) == (1, 0, 1, {"no-code": 1}, 10)
    assert (c.samples, c.unfinished_samples, c.pass_at) == (0, 1, None)
    run = Run.resume(folder, RunSpec("relay:r", "verilog", 3))
    rec = Loop(run, scripted(tmp_path, {"toy": ["unused", block(GOOD)]}), load_tasks(["toy"], tasks_dir),
               Scorer(Limits(sim_s=10)), log=lambda m: None).go()
    saved = json.loads((folder / "run.json").read_text())
    assert saved["schema_version"] == 2
    assert [a["result"] for a in saved["tasks"]["toy"]["samples"][0]["attempts"]] == ["no-code", "PASS"]
    assert rec.tasks["toy"].done
    assert counts(rec, "old").pass_at == {"1": 1.0}


def test_relay_names_per_sample(tmp_path, tasks_dir) -> None:
    relay = tmp_path / "relay"
    for stem in ("toy-1", "toy-s2-1"):
        relay.mkdir(exist_ok=True)
        (relay / f"{stem}.reply.txt").write_text(block(GOOD))
    run = Run.create(tmp_path / "run", RunSpec(f"relay:{relay}", "verilog", 1, samples=2, temperature=0.3))
    rec = Loop(run, get_model(f"relay:{relay}"), load_tasks(["toy"], tasks_dir), Scorer(Limits(sim_s=10)),
               log=lambda m: None).go()
    assert [s.solved for s in rec.tasks["toy"].samples] == [True, True]
    second = json.loads((relay / "toy-s2-1.prompt.json").read_text())
    assert (second["sample"], second["attempt"], second["temperature"]) == (2, 1, 0.3)
    assert (relay / "toy-1.prompt.json").is_file()
    assert json.loads((tmp_path / "run" / "run.json").read_text())["tasks"]["toy"]["done"] is True


def test_a_refused_key_stops_the_run(tmp_path, tasks_dir, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "wrong")
    with FakeServer(lambda p, b: (401, error("invalid_api_key", "bad key"), {})) as srv:
        model = get_model("openai:m", base_url=f"{srv.url}/v1")
        run = Run.create(tmp_path / "run", RunSpec("openai:m", "verilog", 2, samples=3))
        with pytest.raises(LoopError, match=r"the run stopped: toy s1: .*refused the key \(401\)"):
            Loop(run, model, load_tasks(["toy", "toy2"], tasks_dir), log=lambda m: None).go()
    assert len(srv.calls) == 1


def attempt(result: str) -> Attempt:
    return Attempt(n=1, feedback="", reply="", code="x", result=result, detail="", tokens_in=5, tokens_out=1,
                   tokens_approximate=False, model_s=0, score_s=0)


def sample(k: int, *results: str, done: bool = True) -> Sample:
    atts = [attempt(r).model_copy(update={"n": i}) for i, r in enumerate(results, 1)]
    return Sample(k=k, attempts=atts, solved=bool(results) and results[-1] == "PASS", done=done)


def test_tool_failures_and_unfinished_samples_are_not_scored() -> None:
    rec = RunRecord(model="m", lang="verilog", budget=3, spec_stubs=False, tool_versions={}, commit="c",
                    started="now", samples=4, tasks={
                        "a": TaskRun(task="a", samples=[sample(1, "PASS"), sample(2, "tool-failure", "PASS"),
                                                        sample(3, "wrong-output", "PASS"),
                                                        sample(4, "syntax", done=False)]),
                        "b": TaskRun(task="b", samples=[sample(k, "tool-failure") for k in (1, 2, 3, 4)])})
    c = counts(rec, "r")
    a, b = c.per_task
    assert (a.samples, a.solved_samples, a.solved_first_samples, a.tool_failed_samples, a.unfinished_samples) \
        == (2, 2, 1, 1, 1)
    assert (b.samples, b.tool_failed_samples, b.pass_at, b.pass_at_first) == (0, 4, None, None)
    assert c.pass_at == {"1": 1.0, "2": 1.0} and c.pass_at_first == {"1": 0.5, "2": 1.0}  # task a only
    assert "2 with a tool failure" not in render([c]) and "5 with a tool failure, 1 unfinished" in render([c])
    nothing = RunRecord(**{**rec.model_dump(), "tasks": {"b": rec.tasks["b"]}})
    assert counts(nothing, "r").model_dump()["pass_at"] is None
