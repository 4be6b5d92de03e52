"""RTLLM v2 and ChipBench's debugging track from small fixtures in their layouts, end to end:
imported (pinned to the fixture's commit), every valid reference scored with the lint option
on and off, a scripted model looped over each, the summary, the rtl_report.json written from the
runs, the Inspect task, and `bench-harness` on top of them.

tests/fixtures/suites/rtllm/ and tests/fixtures/suites/chipbench/Verilog Debugging/ are written
for this project (see their README): an adder whose reference is `verified_adder_4bit`, a table
whose testbench loads its expected words with `$readmemh`, a counter whose reference fails its own
testbench (invalid), an archived-outputs folder that is not a design; one buggy incrementer in
the zero-shot and one-shot settings.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.judge import verdicts
from bench.report.rtl_report import ReportV2, ToolFailure, read_report
from bench.judge.score import Limits, Scorer
from bench.judge.tasks import Verdict, load_task

FIXTURES = Path(__file__).parent / "fixtures" / "suites"
ROOT = Path(__file__).resolve().parent.parent
ADDER = "module adder_4bit(input [3:0] a, input [3:0] b, input cin, output [3:0] sum, output cout);\n{}\nendmodule\n"
ADDER_GOOD = ADDER.format("  assign {cout, sum} = a + b + cin;")
ADDER_WRONG = ADDER.format("  assign {cout, sum} = a + b;")
ADDER_WIDE = ADDER.format("  wire [7:0] t = a + b + cin;\n  assign {cout, sum} = t;")  # WIDTH: 8 bits into 5
ADDER_IMPLICIT = ADDER.format("  assign {cout, sum} = a + b + cin;\n  assign spare = a[0];")  # IMPLICIT: no declaration
ROM_GOOD = ("module rom_table(input clk, input [2:0] addr, output reg [7:0] data);\n"
            "  wire [3:0] next = addr + 3'd1 == 3'd0 ? 4'd8 : {1'b0, addr + 3'd1};\n"
            "  always @(posedge clk) data <= {next, next};\nendmodule\n")
INC_GOOD = ("module TopModule(input clk, input rst, output reg [3:0] q);\n"
            "  always @(posedge clk) q <= rst ? 4'd0 : q + 4'd1;\nendmodule\n")


def bench(*args: str, env: dict | None = None, exe: str = "bench.cli") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", exe, *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false",
                           "-c", "core.hooksPath=/dev/null", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture(scope="module")
def rt(tmp_path_factory):
    root = tmp_path_factory.mktemp("rtllm")
    src = root / "RTLLM"
    shutil.copytree(FIXTURES / "rtllm", src)
    git(src, "init", "-q")
    git(src, "add", ".")
    git(src, "commit", "-qm", "fixture")
    out = root / "imported"
    res = bench("suite", "import", "rtllm", str(src), "--out", str(out), "--json")
    assert res.returncode == 0, res.stderr
    return out, json.loads(res.stdout), git(src, "rev-parse", "HEAD"), src


@pytest.fixture(scope="module")
def dbg(tmp_path_factory):
    root = tmp_path_factory.mktemp("debug")
    shutil.copytree(FIXTURES / "chipbench", root / "ChipBench")
    out = root / "imported"
    res = bench("suite", "import", "chipbench-debug", str(root / "ChipBench"), "--out", str(out), "--json",
                "--allow-unpinned")
    assert res.returncode == 0, res.stderr
    return out, json.loads(res.stdout)


def test_rtllm_import(rt) -> None:
    out, report, head, _ = rt
    assert (report["kind"], report["tasks"], report["valid"], report["commit"]) == ("rtllm", 3, 2, head)
    assert [(x["task"], x["reason"].split(":")[0]) for x in report["invalid"]] == [("counter_bad", "wrong-output")]
    assert "Test completed with" in report["invalid"][0]["reason"]  # the testbench's own words, for the user
    task = load_task(out / "adder_4bit")
    assert (task.top, task.verdict.style, task.tags, task.origin.commit) == ("adder_4bit", "rtllm",
                                                                             ["rtllm", "Arithmetic"], head)
    assert "module adder_4bit(" in task.text("ref.v") and "verified_" not in task.text("ref.v")
    assert "module adder_4bit(" in task.text("stub.sysr") and "module adder_4bit (" in task.text("iface.v")
    tb = load_task(out / "rom_table").text("tb.v")
    assert "$readmemh" not in tb and "expected[7] = 'h88;" in tb
    assert not (out / "_archive").exists()


def test_debug_track_import(dbg) -> None:
    out, report = dbg
    names = ["one_shot-arithmetic-Prob001_inc4", "zero_shot-arithmetic-Prob001_inc4"]
    assert (report["kind"], report["tasks"], report["valid"], report["sysr_expressible"]) == ("chipbench-debug", 2, 2, 0)
    assert sorted(x["task"] for x in report["sysr_not_expressible"]) == names
    task = load_task(out / names[0])
    assert task.tags == ["chipbench-debug", "debug_one_shot_arithmetic"] and "VCD OUTPUT" in task.prompt
    assert "has a bug" in task.prompt and not (out / names[0] / "stub.sysr").exists()
    assert task.sysr_unavailable.startswith("the debug track gives buggy Verilog")


@pytest.mark.parametrize("lint", [False, True])
def test_every_valid_reference_passes_with_lint_on_and_off(rt, dbg, lint) -> None:
    for out in (rt[0], dbg[0]):
        res = bench("score", "--lang", "verilog", "--suite", str(out), "--json", "--no-cache", *(["--lint"] * lint))
        assert res.returncode == 0, res.stdout + res.stderr
        report = json.loads(res.stdout)
        assert report["results"] and all(r["result"] == "PASS" for r in report["results"])
        assert any(s["stage"] == "lint" and s["tool"] == "verilator" for s in report["stages"])


def test_the_lint_option_fails_only_when_asked(rt) -> None:
    task = load_task(rt[0] / "adder_4bit")
    off = Scorer(Limits(sim_s=20)).score(task, "verilog", ADDER_IMPLICIT)
    on = Scorer(Limits(sim_s=20), lint=True).score(task, "verilog", ADDER_IMPLICIT)
    assert off.result == "PASS" and "IMPLICIT" in next(s for s in off.stages if s.stage == "lint").codes
    assert all(s.log_digest and s.log_digest.startswith("sha256:") for s in off.stages)
    assert on.result == "lint" and on.stages[-1].stage == "lint" and "IMPLICIT: line 3" in on.detail
    hidden = "/* verilator lint_off IMPLICIT */\n" + ADDER_IMPLICIT
    assert Scorer(Limits(sim_s=20), lint=True).score(task, "verilog", hidden).result == "lint"
    # the reference's own `a + b + cin` widens 4 bits to 5 (WIDTH; WIDTHEXPAND from Verilator 5.010 on):
    # a rule the reference breaks fails no candidate, it is recorded only
    ref = Scorer().score(task, "verilog", task.text("ref.v"))
    ref_codes = set(next(s for s in ref.stages if s.stage == "lint").codes)
    assert ref_codes & {"WIDTH", "WIDTHEXPAND"}
    wide = Scorer(Limits(sim_s=20), lint=True).score(task, "verilog", ADDER_WIDE)
    wide_codes = set(next(s for s in wide.stages if s.stage == "lint").codes)
    assert wide_codes & {"WIDTH", "WIDTHTRUNC"}
    assert (wide.result == "PASS") is (wide_codes & {"WIDTH", "WIDTHTRUNC"} <= ref_codes)


def test_rtllm_verdicts_read_only_the_nonced_pass_line() -> None:
    style = Verdict(style="rtllm")
    tb = verdicts.nonced('$display("===========Your Design Passed===========");', "n0nce", style)
    assert "Your Design Passed#n0nce" in tb
    assert verdicts.read("===========Your Design Passed#n0nce===========\n", "n0nce", style).passed
    forged = verdicts.read("===========Your Design Passed===========\nError: got 3\n", "n0nce", style)
    assert not forged.passed and "Error: got 3" in forged.line


def loop(suite: Path, out: Path, script: dict, *extra: str) -> dict:
    f = out.parent / f"{out.name}.json"
    f.write_text(json.dumps(script))
    res = bench("loop", "--model", f"scripted:{f}", "--suite", str(suite), "--lang", "verilog", "--out", str(out),
                *extra)
    assert res.returncode == 0, res.stderr
    return json.loads((out / "run.json").read_text())


def test_scripted_runs_end_to_end_with_summary_and_report(rt, dbg, tmp_path) -> None:
    rec = loop(rt[0], tmp_path / "rtllm", {"adder_4bit": [f"```verilog\n{ADDER_WRONG}```", f"```verilog\n{ADDER_GOOD}```"],
                                           "rom_table": [f"```verilog\n{ROM_GOOD}```"]}, "--budget", "2")
    adder = rec["tasks"]["adder_4bit"]["samples"][0]["attempts"]
    assert [a["result"] for a in adder] == ["wrong-output", "PASS"]
    assert "did not print its pass line" in adder[1]["feedback"]
    drec = loop(dbg[0], tmp_path / "debug", {n: [f"```verilog\n{INC_GOOD}```"] for n in
                                             ("one_shot-arithmetic-Prob001_inc4", "zero_shot-arithmetic-Prob001_inc4")})
    assert all(t["samples"][0]["solved"] for t in drec["tasks"].values())
    res = bench("summary", str(tmp_path / "rtllm"), "--suite", str(rt[0]))
    assert res.returncode == 0 and "category Arithmetic: solved" in res.stdout, res.stdout + res.stderr
    res = bench("report", str(tmp_path / "rtllm"), str(tmp_path / "debug"), "--out", str(tmp_path / "rtl_report.json"))
    assert res.returncode == 0, res.stderr
    report = read_report(tmp_path / "rtl_report.json")
    assert isinstance(report, ReportV2) and report.upstream_commit is None  # two suites, two commits
    assert set(report.results) == {"rtllm", "chipbench-debug"}
    assert (report.results["rtllm"].upstream_commit, report.results["chipbench-debug"].upstream_commit) == (
        rt[2], "unknown")
    assert (report.results["rtllm"].pass_rate, report.results["chipbench-debug"].pass_rate) == (1.0, 1.0)
    by = {v.task_id: v for v in report.verifications}
    assert by["adder_4bit"].final == "pass" and by["adder_4bit"].as_reward() == 1.0
    assert [s.stage for s in by["adder_4bit"].stages] == ["compile", "custom", "synthesize", "synthesize",
                                                          "synthesize", "lint", "compile", "simulate"]
    assert read_report(report.dump()) == report


def test_bench_harness_contract(rt, tmp_path) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"adder_4bit": [f"```verilog\n{ADDER_GOOD}```"]}))
    args = ["--benchmark", "rtllm", "--model", f"scripted:{script}", "--output-dir", str(tmp_path / "h")]
    missing = bench(*args, env={"RTLLM_DIR": ""}, exe="bench.cli.harness")
    assert missing.returncode == 2 and "RTLLM_DIR is not set" in missing.stderr and "Traceback" not in missing.stderr
    assert not (tmp_path / "h" / "rtl_report.json").exists()
    res = bench(*args, "--limit", "1", env={"RTLLM_DIR": str(rt[0])}, exe="bench.cli.harness")
    assert res.returncode == 0, res.stderr
    report = read_report(tmp_path / "h" / "rtl_report.json")
    assert [v.task_id for v in report.verifications] == ["adder_4bit"]
    assert report.results["rtllm"].pass_at_1 == 1.0 and report.upstream_commit == rt[2]
    assert report.benchmark == "rtllm"
    # RTLLM_DIR naming the checkout itself: imported into DIR/suite first, pinned to its commit
    res = bench("--benchmark", "rtllm", "--model", f"scripted:{script}", "--output-dir", str(tmp_path / "c"),
                "--limit", "1", env={"RTLLM_DIR": str(rt[3])}, exe="bench.cli.harness")
    assert res.returncode == 0, res.stderr
    assert json.loads((tmp_path / "c" / "suite" / "suite.json").read_text())["commit"] == rt[2]
    assert read_report(tmp_path / "c" / "rtl_report.json").results["rtllm"].upstream_commit == rt[2]
    again = bench("--benchmark", "rtllm", "--model", f"scripted:{script}", "--output-dir", str(tmp_path / "c"),
                  "--limit", "1", env={"RTLLM_DIR": str(rt[3])}, exe="bench.cli.harness")
    assert again.returncode == 0 and "importing" not in again.stderr, again.stderr  # same commit: reused


def test_a_run_with_a_tool_failure_refuses_a_reward(rt, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("VVP", str(tmp_path / "no-vvp"))
    rec = loop(rt[0], tmp_path / "broken", {"adder_4bit": [f"```verilog\n{ADDER_GOOD}```"]}, "--tasks", "adder_4bit",
               "--budget", "1")
    assert rec["tasks"]["adder_4bit"]["samples"][0]["attempts"][0]["result"] == "tool-failure"
    res = bench("report", str(tmp_path / "broken"), "--out", "-")
    report = read_report(res.stdout)
    [v] = report.verifications
    assert (v.final, v.tool_failures) == ("unknown", 1)
    with pytest.raises(ToolFailure, match=r"simulate \(vvp\)"):
        v.as_reward()
    assert report.results["rtllm"].pass_rate is None and report.results["rtllm"].tool_failures == 1


def test_the_inspect_task_runs_an_imported_rtllm_suite(rt, tmp_path) -> None:
    pytest.importorskip("inspect_ai")
    from test_inspect import run_inspect

    from bench.inspect_eval.task import sysr_bench
    log = run_inspect(tmp_path, sysr_bench(lang="verilog", suite=str(rt[0]), tasks="adder_4bit", budget=1),
                      {"adder_4bit": [[f"```verilog\n{ADDER_GOOD}```"]]})
    assert log.status == "success"
    res = bench("report", str(tmp_path / "logs"), "--out", "-")
    assert res.returncode == 0, res.stderr
    assert read_report(res.stdout).verifications[0].final == "pass"
