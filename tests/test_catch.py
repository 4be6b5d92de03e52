"""The catch rate and testbench strength (bench/mutation/catch.py, bench/mutation/mutants.py, their commands) on a
fixture task with known answers: tests/fixtures/tick, whose properties cover `q` and `half` and
whose testbench checks `q` and `wrap`. So a slip in `q` is caught, one in `wrap` missed, one in
`half` an extra, and a rewrite that keeps the behaviour equivalent.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bench.mutation.catch import Judge, ThroughScorer, _testbench, classify, measure, reference_designs
from bench.mutation.mutants import equivalent, measure_task, mutations, requirements_monitor
from bench.judge.results import CandidateResult
from bench.judge.score import Limits
from bench.judge.tasks import load_tasks
from bench.judge.probe import read_ports

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "tick"
REF_S = (FIXTURE / "ref.sysr").read_text()
REF_V = (FIXTURE / "ref.v").read_text()


@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tasks")
    shutil.copytree(FIXTURE, root / "tick")
    return root


@pytest.fixture(scope="module")
def tick(tasks_dir):
    return load_tasks(["tick"], tasks_dir)[0]


@pytest.fixture(scope="module")
def judge():
    return Judge(Limits(check_s=120, sim_s=20))


def test_matrix() -> None:
    assert [classify(True, False), classify(False, False), classify(True, True), classify(False, True)] == \
        ["caught", "missed", "extra", "equivalent"]
    assert classify(None, False) == classify(True, None) == "limits"


@pytest.mark.parametrize("old, new, verdict", [
    ("q <= q + 1", "q <= q + 2", "caught"),          # the properties see it, so does the testbench
    ("wrap = q == 15", "wrap = q == 14", "missed"),  # no property on wrap
    ("half = q[3]", "half = q[2]", "extra"),          # a property on half, which the testbench ignores
    ("wrap = q == 15", "wrap = q >= 15", "equivalent"),
])
def test_sysr_mutants_with_known_answers(tick, judge, old: str, new: str, verdict: str) -> None:
    got = judge.sysr(tick, REF_S.replace(old, new))
    assert got.verdict == verdict, got
    assert got.check.startswith("rejected: V002") if verdict in ("caught", "extra") else got.check == "accepted"
    assert got.testbench.startswith("fail: wrong-output: FAIL cycle") if verdict in ("caught", "missed") \
        else got.testbench == "PASS"


LATCH_WRAP = "  reg w;\n  always @* if (q == 4'd15) w = 1'b1;\n  assign wrap = w;\n"
LATCH_HALF = "  reg h;\n  always @* if (en) h = q[3];\n  assign half = h;\n"


@pytest.mark.parametrize("old, new, verdict, check", [
    ("  assign wrap = q == 4'd15;\n", LATCH_WRAP, "caught", "rejected: latch"),  # wrap sticks at 1
    ("q == 4'd15", "q == 4'd14", "missed", "accepted"),
    ("  assign half = q[3];\n", LATCH_HALF, "extra", "rejected: latch"),        # half is not checked
    ("q == 4'd15", "q >= 4'd15", "equivalent", "accepted"),
])
def test_verilog_mutants_with_known_answers(tick, judge, old: str, new: str, verdict: str, check: str) -> None:
    got = judge.verilog(tick, REF_V.replace(old, new))
    assert (got.verdict, got.check) == (verdict, check), got


def test_the_scorer_runs_on_to_the_simulation_past_a_latch(tick) -> None:
    r = ThroughScorer(Limits(sim_s=20)).score(tick, "verilog", REF_V.replace("  assign half = q[3];\n", LATCH_HALF))
    assert r.result == "PASS"
    assert [s.verdict for s in r.stages if s.stage == "elaborate"] == ["latch"]
    assert r.stages[-1].stage == "simulate"


def test_ill_formed_and_limit_mutants_are_counted_apart(tick, judge) -> None:
    assert judge.verilog(tick, REF_V.replace("assign half", "assign half half")).verdict == "discarded"
    loop = REF_V.replace("  assign half = q[3];\n", "  wire h;\n  assign h = ~h ^ q[0];\n  assign half = h;\n")
    got = judge.verilog(tick, loop)
    assert (got.verdict, got.check, got.testbench) == ("extra", "rejected: comb-loop", "PASS")
    for result in ("timeout", "resource-limit", "tool-failure"):
        assert _testbench(CandidateResult(task="tick", lang="verilog", result=result))[0] is None
    assert _testbench(CandidateResult(task="tick", lang="verilog", result="no-verdict"))[0] is False
    slow = Judge(Limits(check_s=0.01, sim_s=20))  # no Python starts in 10 ms
    got = slow.sysr(tick, REF_S.replace("q + 1", "q + 2"))
    assert got.verdict == "limits" and got.check.startswith("limit: sysr check did not finish")


def test_measure_gives_the_issue_json(tick) -> None:
    report = measure(reference_designs([tick]), 2, seed=1, jobs=2, judge=Judge(Limits(sim_s=20)))
    data = json.loads(report.model_dump_json())
    assert set(data) == {"tasks", "total"} and set(data["total"]) == {"sysr", "verilog"}
    assert [(t["task"], t["lang"]) for t in data["tasks"]] == [("tick", "sysr"), ("tick", "verilog")]
    for t in data["tasks"]:
        assert {"task", "lang", "mutants", "caught", "missed", "extra", "equivalent", "limits", "list"} <= set(t)
        assert t["mutants"] == len(t["list"]) == 2
        assert t["mutants"] == sum(t[k] for k in ("caught", "missed", "extra", "equivalent", "limits"))
        assert t["designs"] == [{"design": "reference", "sites": t["designs"][0]["sites"], "original": "PASS"}]
        for m in t["list"]:
            assert {"operator", "diff", "text", "verdict", "check", "testbench"} <= set(m)
            assert m["diff"] and m["text"] and m["verdict"] in ("caught", "missed", "extra", "equivalent", "limits")
    total = data["total"]["sysr"]
    assert total["mutants"] == 2 and total["catch_rate"] == (
        None if total["caught"] + total["missed"] == 0 else round(total["caught"] / (total["caught"] + total["missed"]), 4))


def _bench(args: list[str], tasks_dir: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {**os.environ, "BENCH_TASKS_DIR": str(tasks_dir)}
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_catch_on_run_folders_of_a_scripted_model(tmp_path, tasks_dir) -> None:
    wrong = REF_V.replace("q + 4'd1", "q + 4'd2")
    script = tmp_path / "script.json"
    runs = []
    for lang, replies in (("sysr", [REF_S]), ("verilog", [wrong, REF_V])):
        tag = "sysr" if lang == "sysr" else "verilog"
        script.write_text(json.dumps({"tick": [f"```{tag}\n{r}```\n" for r in replies]}))
        out = tmp_path / f"run-{lang}"
        done = _bench(["loop", "--model", f"scripted:{script}", "--lang", lang, "--tasks", "tick", "--out", str(out)],
                      tasks_dir)
        assert done.returncode == 0, done.stderr
        runs.append(str(out))
    done = _bench(["catch", *runs, "--mutants", "2", "--jobs", "2", "--json"], tasks_dir)
    assert done.returncode in (0, 1), done.stderr
    data = json.loads(done.stdout)
    by = {t["lang"]: t for t in data["tasks"]}
    assert by["sysr"]["designs"][0]["design"] == f"{runs[0]}: tick sample 1 attempt 1"
    assert by["verilog"]["designs"][0]["design"] == f"{runs[1]}: tick sample 1 attempt 2"  # only the attempt that passed
    assert by["sysr"]["mutants"] == by["verilog"]["mutants"] == 2
    assert "[2/4]" in done.stderr  # progress
    plain = _bench(["catch", "--refs", "--lang", "sysr", "--mutants", "1"], tasks_dir)
    assert plain.returncode in (0, 1), plain.stderr
    assert "sysr: caught " in plain.stdout and "wrong mutants before simulation" in plain.stdout
    assert _bench(["catch"], tasks_dir).returncode == 2


# ---- bench mutants ---------------------------------------------------------------------------

def test_yosys_mutants_and_the_bounded_equivalence_check(tick) -> None:
    with tempfile.TemporaryDirectory() as d:
        original, muts = mutations(tick, 6, 1, Path(d))
    assert len(muts) == 6 and all(m.command.startswith("mutate -mode ") for m in muts)
    ports, _ = read_ports(tick.text("iface.v"), tick.top)
    same = equivalent(tick, original, original, ports, None, depth=8)
    assert same[0] == "equivalent" and "no requirements" in same[1]
    half = original.replace("assign half = q[3];", "assign half = q[2];")
    assert half != original
    kind, reason, cycle, outs = equivalent(tick, original, half, ports, None, depth=8)
    assert (kind, outs) == ("differs", ["half"]) and cycle is not None and "half" in reason
    # the requirements monitor: its assumptions constrain the inputs, its asserts are dropped
    monitor = ("module requirements(input clk, input rst, input en, output [3:0] q, output wrap, output half);\n"
               "  always @* begin stay_off: assume (!en); never: assert (1'b0); end\nendmodule\n")
    slower = original.replace("q + 1'h1", "q + 2'h2") if "q + 1'h1" in original else None
    assert slower is not None and slower != original, original
    assert equivalent(tick, original, slower, ports, None, depth=8)[0] == "differs"
    assert equivalent(tick, original, slower, ports, monitor, depth=8)[0] == "equivalent"


def test_bench_mutants_json(tasks_dir) -> None:
    done = _bench(["mutants", "--mutants", "4", "--depth", "6", "--jobs", "2", "--json"], tasks_dir)
    assert done.returncode in (0, 1), done.stderr
    data = json.loads(done.stdout)
    (t,) = data["tasks"]
    assert {"task", "mutants", "killed", "equivalent", "survivors"} <= set(t)
    assert t["task"] == "tick" and t["mutants"] == 4 and t["killed"] + len(t["survivors"]) == 4
    assert all({"mutation", "verdict", "reason"} <= set(s) for s in t["survivors"])
    assert t["equivalent"] == sum(s["verdict"] == "equivalent" for s in t["survivors"])


def test_measure_task_counts(tick) -> None:
    r = measure_task(tick, 3, 2, depth=6, jobs=2)
    assert r.mutants == 3 and r.killed == sum(r.killed_by.values())
    assert r.score is None or 0 <= r.score <= 1


def test_the_requirements_of_ref_sysr_are_assumed(tmp_path) -> None:
    fifo = load_tasks(["fifo"])[0]
    monitor = requirements_monitor(fifo, tmp_path)
    assert monitor is not None and "module requirements" in monitor and "assume" in monitor
    ref = fifo.text("ref.v")
    gate = ref.replace("assign full  = (n == 4'd8);", "assign full  = n[3];")  # also 1 at a count of 9
    assert gate != ref
    ports, _ = read_ports(fifo.text("iface.v"), fifo.top)
    free = equivalent(fifo, ref, gate, ports, None, depth=12)
    assert free[0] == "differs" and free[3] == ["full"]  # a push while full reaches 9
    held = equivalent(fifo, ref, gate, ports, monitor, depth=12)
    assert held[0] == "equivalent" and "under the task's requirements" in held[1]


def test_catch_reads_the_suite_a_run_records(tmp_path) -> None:
    """A run of `bench loop --suite DIR` is judged against DIR's tasks (its record names the
    suite), whatever the default task folder holds; `--suite` says where a moved suite is."""
    suite = tmp_path / "suite"
    suite.mkdir()
    shutil.copytree(FIXTURE, suite / "tick")
    empty = tmp_path / "tasks"
    empty.mkdir()
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"tick": [f"```sysr\n{REF_S}```\n"]}))
    run = tmp_path / "run"
    done = _bench(["loop", "--model", f"scripted:{script}", "--lang", "sysr", "--suite", str(suite),
                   "--out", str(run)], empty)
    assert done.returncode == 0, done.stderr
    done = _bench(["catch", str(run), "--mutants", "1", "--json"], empty)
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["tasks"][0]["designs"][0]["design"] == f"{run}: tick sample 1 attempt 1"
    moved = tmp_path / "moved"
    suite.rename(moved)
    done = _bench(["catch", str(run), "--mutants", "1"], empty)
    assert done.returncode == 2 and "give the suite's folder with --suite DIR" in done.stderr
    done = _bench(["catch", str(run), "--suite", str(moved), "--mutants", "1", "--json"], empty)
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["tasks"][0]["mutants"] == 1
    done = _bench(["catch", str(run), "--suite", str(empty), "--mutants", "1"], empty)
    assert done.returncode == 2 and "task 'tick' is not in the task folder" in done.stderr
    assert _bench(["catch", str(run), "--suite", str(tmp_path / "nowhere")], empty).returncode == 2
