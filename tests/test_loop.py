"""The write-check-repair loop with offline models: repairs from the checker's diagnostics and
from the failing test line, the budget, replies without code, the relay round trip, a killed
run resumed, and the summary's counts (the API backends are in test_models.py, samples and
pass@k in test_samples.py, shadow simulation in test_shadow.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bench.loop.runs import Loop, LoopError, Run, RunSpec
from bench.loop.models import ModelError, get_model
from bench.judge.score import Limits, Scorer
from bench.report.summary import counts, load_run, render
from bench.judge.tasks import load_tasks

FIXTURE = Path(__file__).parent / "fixtures" / "toy"
GOOD_V = (FIXTURE / "ref.v").read_text()
WRONG_V = GOOD_V.replace("q + 4'd1", "q + 4'd2")
GOOD_S = (FIXTURE / "ref.sysr").read_text()
WRONG_S = GOOD_S.replace("q <= q + 1", "q <= q + 2")


def block(code: str, tag: str) -> str:
    return f"Here is the design.\n\n```{tag}\n{code}```\n"


@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tasks")
    shutil.copytree(FIXTURE, root / "toy")
    return root


@pytest.fixture(scope="module")
def toy(tasks_dir):
    return load_tasks(["toy"], tasks_dir)


def scripted(tmp_path: Path, replies: list[str]):
    f = tmp_path / "script.json"
    f.write_text(json.dumps({"toy": replies}))
    return get_model(f"scripted:{f}")


def run_loop(tmp_path, toy, lang, replies, budget=4):
    run = Run.create(tmp_path / "run", RunSpec("scripted:test", lang, budget))
    return Loop(run, scripted(tmp_path, replies), toy, Scorer(Limits(sim_s=10)), log=lambda m: None).go()


def test_sysr_proof_failure_repaired_from_the_diagnostics(tmp_path, toy) -> None:
    rec = run_loop(tmp_path, toy, "sysr", [block(WRONG_S, "sysr"), block(GOOD_S, "sysr")])
    tr = rec.tasks["toy"].samples[0]
    assert [a.result for a in tr.attempts] == ["check-failed", "PASS"] and tr.solved
    repair = tr.attempts[1].feedback
    assert "Result: check-failed" in repair and "V002" in repair and "trace from reset" in repair
    # the codes the scorer recorded bring the full reference's explanation (`sysr explain V002`)
    assert tr.attempts[0].stages[0].codes == ["V002"]
    assert "What the full reference says about V002" in repair and "§6.2 Reading a V002 trace" in repair
    assert "stub.sysr" in tr.attempts[0].feedback and "?next" in tr.attempts[0].feedback
    assert (tmp_path / "run" / "toy.transcript.md").read_text().count("## attempt") == 2


def test_verilog_wrong_output_repaired_from_the_failing_line(tmp_path, toy) -> None:
    rec = run_loop(tmp_path, toy, "verilog", [block(WRONG_V, "verilog"), block(GOOD_V, "verilog")])
    tr = rec.tasks["toy"].samples[0]
    assert [a.result for a in tr.attempts] == ["wrong-output", "PASS"]
    assert "FAIL cycle" in tr.attempts[1].feedback and "Result: wrong-output" in tr.attempts[1].feedback
    assert "iface.v" in tr.attempts[0].feedback


def test_budget_is_respected(tmp_path, toy) -> None:
    rec = run_loop(tmp_path, toy, "verilog", [block(WRONG_V, "verilog")] * 5, budget=2)
    tr = rec.tasks["toy"].samples[0]
    assert len(tr.attempts) == 2 and not tr.solved and tr.done


def test_reply_without_code_is_an_attempt(tmp_path, toy) -> None:
    rec = run_loop(tmp_path, toy, "verilog", ["I would use a counter.", block(GOOD_V, "v")])
    tr = rec.tasks["toy"].samples[0]
    assert [a.result for a in tr.attempts] == ["no-code", "PASS"]
    assert tr.attempts[0].code is None and "no fenced code block" in tr.attempts[1].feedback


def test_relay_round_trip(tmp_path, toy) -> None:
    relay = tmp_path / "relay"
    model = get_model(f"relay:{relay}")
    run = Run.create(tmp_path / "run", RunSpec(f"relay:{relay}", "verilog", 3))
    answers = [block(WRONG_V, "verilog"), block(GOOD_V, "verilog")]
    seen = []

    def answer() -> None:
        for n, text in enumerate(answers, 1):
            prompt = relay / f"toy-{n}.prompt.json"
            while not prompt.exists():
                time.sleep(0.05)
            seen.append(json.loads(prompt.read_text()))
            (relay / f"toy-{n}.reply.txt").write_text(text)

    t = threading.Thread(target=answer, daemon=True)
    t.start()
    rec = Loop(run, model, toy, Scorer(Limits(sim_s=10)), log=lambda m: None).go()
    t.join(5)
    tr = rec.tasks["toy"].samples[0]
    assert [a.result for a in tr.attempts] == ["wrong-output", "PASS"]
    assert [m["role"] for m in seen[1]["messages"]] == ["user", "assistant", "user"]
    assert "Verilog-2005" in seen[0]["system"]
    assert all(a.tokens_approximate for a in tr.attempts)


def test_killed_run_resumes_without_repeating_attempts(tmp_path, tasks_dir) -> None:
    relay, out = tmp_path / "relay", tmp_path / "run"
    env = {**os.environ, "BENCH_TASKS_DIR": str(tasks_dir)}
    argv = [sys.executable, "-m", "bench.cli", "loop", "--model", f"relay:{relay}", "--lang", "verilog",
            "--tasks", "toy", "--out", str(out)]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for(relay / "toy-1.prompt.json")
    (relay / "toy-1.reply.txt").write_text(block(WRONG_V, "verilog"))
    wait_for(relay / "toy-2.prompt.json")
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    rec = json.loads((out / "run.json").read_text())
    assert [a["result"] for a in rec["tasks"]["toy"]["samples"][0]["attempts"]] == ["wrong-output"]
    first_prompt = (relay / "toy-1.prompt.json").stat().st_mtime_ns
    (relay / "toy-2.reply.txt").write_text(block(GOOD_V, "verilog"))
    done = subprocess.run(argv + ["--resume"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rec = json.loads((out / "run.json").read_text())
    assert [a["result"] for a in rec["tasks"]["toy"]["samples"][0]["attempts"]] == ["wrong-output", "PASS"]
    assert rec["ended"] and (relay / "toy-1.prompt.json").stat().st_mtime_ns == first_prompt


def wait_for(path: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"timed out waiting for {path}"
        time.sleep(0.05)


def test_model_failure_keeps_what_was_done(tmp_path, toy) -> None:
    run = Run.create(tmp_path / "run", RunSpec("scripted:x", "verilog", 4))
    with pytest.raises(LoopError, match="--resume"):
        Loop(run, scripted(tmp_path, [block(WRONG_V, "verilog")]), toy, log=lambda m: None).go()
    rec = json.loads((tmp_path / "run" / "run.json").read_text())
    assert len(rec["tasks"]["toy"]["samples"][0]["attempts"]) == 1 and rec["ended"] is None
    with pytest.raises(LoopError, match="exists"):
        Run.create(tmp_path / "run", RunSpec("scripted:x", "verilog", 4))


def test_unknown_model_spec() -> None:
    with pytest.raises(ModelError, match="scripted:FILE"):
        get_model("gpt:4")


def test_summary_counts_of_a_known_run(tmp_path, toy) -> None:
    run_loop(tmp_path / "a", toy, "verilog", ["no code here", block(WRONG_V, "verilog"), block(GOOD_V, "verilog")])
    run_loop(tmp_path / "b", toy, "sysr", [block(GOOD_S, "sysr")])
    ca, cb = counts(load_run(tmp_path / "a" / "run"), "verilog"), counts(load_run(tmp_path / "b" / "run"), "sysr")
    assert (ca.tasks, ca.solved, ca.solved_first, ca.attempts) == (1, 1, 0, 3)
    assert ca.results == {"PASS": 1, "no-code": 1, "wrong-output": 1}
    assert (cb.solved, cb.solved_first, cb.attempts) == (1, 1, 1)
    text = render([ca, cb])
    rows = {cells[0]: cells[1:] for cells in (re.split(r"\s{2,}", l.strip()) for l in text.splitlines())}
    assert rows["solved on the first attempt"] == ["0", "1"]
    assert rows["attempts used"] == ["3", "1"]
    assert rows["results: wrong-output"] == ["1", "0"]
    assert "%" not in text and "~" in text
