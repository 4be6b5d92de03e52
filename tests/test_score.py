"""The scorer on a small task of its own: every kind of failure gets its result, attacks are
rejected before simulation, a forged verdict is not believed, and a missing tool is a tool
failure, not a failed design.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.judge.guard import Judged
from bench.judge.results import CandidateResult, StageResult
from bench.judge.score import Limits, Scorer
from bench.judge.tasks import load_tasks
from bench.report.scores import stage_list

FIXTURE = Path(__file__).parent / "fixtures" / "toy"
HEADER = "module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);"
COUNTER = "  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + 4'd1;"


def design(*body: str, header: str = HEADER) -> str:
    return "\n".join([header, *body, "endmodule", ""])


@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tasks")
    shutil.copytree(FIXTURE, root / "toy")
    bram = root / "toyram"
    shutil.copytree(FIXTURE, bram)
    data = json.loads((bram / "task.json").read_text())
    data.update(name="toyram", resources={"script": "synth_ice40 -top TOP", "cells": {"SB_RAM40_4K": 1}})
    (bram / "task.json").write_text(json.dumps(data))
    return root


@pytest.fixture(scope="module")
def toy(tasks_dir):
    return load_tasks(["toy"], tasks_dir)[0]


@pytest.fixture(scope="module")
def scorer():
    return Scorer(Limits(sim_s=5))


def test_references_pass_in_both_languages(scorer, toy) -> None:
    for lang, name in (("verilog", "ref.v"), ("sysr", "ref.sysr")):
        r = scorer.score(toy, lang, toy.text(name))
        assert r.result == "PASS", r.detail
        assert r.stages[-1].stage == "simulate" and all(s.verdict == "ok" for s in r.stages)
        assert all(s.tool_version for s in r.stages if s.tool)


@pytest.mark.parametrize("source, result, detail", [
    (None, "no-code", "no candidate file"),
    ("  \n", "no-code", "empty"),
    (design("  assign q = ;"), "syntax", "ERROR"),
    (design(COUNTER, header="module toy(input wire clk, input wire rst, input wire en, output reg [4:0] q);"),
     "interface", "port `q` should be `output [3:0] q`"),
    (design(COUNTER, header="module counter(input wire clk, input wire rst, input wire en, output reg [3:0] q);"),
     "interface", "no module named `toy`"),
    (design("  always @* if (en) q = 4'd1;"), "latch", "latch"),
    (design(COUNTER, "  wire a, b;", "  assign a = b & en;", "  assign b = a;"), "comb-loop", "logic loop"),
    (design(COUNTER, "  always @(posedge clk) q <= 4'd3;"), "multi-driver", "driver"),
    (design("  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + 4'd2;"),
     "wrong-output", "FAIL cycle"),
    (design(COUNTER, "  reg x;", "  initial x = 0;", "  always @(x) x <= ~x;"), "timeout", "did not finish"),
    (design(COUNTER, "endmodule", "module tb;"), "compile", "compiles alone but not with the task's testbench"),
])
def test_failures_get_their_result(scorer, toy, source, result, detail) -> None:
    r = scorer.score(toy, "verilog", source)
    assert r.result == result, (r.result, r.detail)
    assert detail in r.detail


def test_a_ripple_chain_on_a_vector_is_no_loop(scorer, toy) -> None:
    """Each carry bit from the one below it: Yosys's word-level check calls that a loop, the
    bit-level one does not; a real loop written the same way still fails."""
    ripple = design("  wire [3:0] c;", "  assign c[0] = en;", "  assign c[3:1] = c[2:0] & q[2:0];",
                    "  always @(posedge clk) if (rst) q <= 4'd0; else q <= q ^ c;")
    r = scorer.score(toy, "verilog", ripple)
    assert r.result == "PASS", (r.result, r.detail)
    looped = ripple.replace("assign c[3:1] = c[2:0] & q[2:0];", "assign c[3:1] = c[3:1] & q[2:0];")
    r = scorer.score(toy, "verilog", looped)
    assert r.result == "comb-loop" and "logic loop" in r.detail, (r.result, r.detail)


def test_sysr_failures(scorer, toy) -> None:
    r = scorer.score(toy, "sysr", toy.text("stub.sysr"))
    assert r.result == "check-failed" and "H001" in r.detail
    bad = toy.text("ref.sysr").replace("q <= q + 1", "q <= q + 2")
    r = scorer.score(toy, "sysr", bad)
    assert r.result == "check-failed" and "V002" in r.detail and "cycle" in r.detail
    assert [s.stage for s in r.stages] == ["check"]


INCR = "module incr(input wire [3:0] a, output wire [3:0] y);\n  assign y = a + 4'd1;\nendmodule"
EXTERN = """extern module incr(a: in u4, y: out u4) { ensures y == a + 1; }
module toy(clk: clock, rst: reset, en: in bool, q: out reg u4 = 0) {
  inst i = incr(a: q);
  seq { if en { q <= i.y; } }
  ensures prev(!en) ==> q == prev(q);
  ensures prev(en) ==> q == prev(q) + 1;
}
"""


def test_a_sysr_extern_module_takes_the_verilog_the_prompt_gives(scorer, toy) -> None:
    given = toy.model_copy(update={"prompt": toy.prompt + f"\n\nUse this module:\n```verilog\n{INCR}\n```\n"})
    r = scorer.score(given, "sysr", EXTERN)
    assert r.result == "PASS", r.detail
    r = scorer.score(toy, "sysr", EXTERN)  # the plain task gives no Verilog
    assert r.result == "lower-failed"
    assert r.detail == ("the design instantiates the extern module(s) `incr`, whose Verilog the task does not "
                        "give (it gives no Verilog module): write them in sysr")


@pytest.mark.parametrize("attack", [
    '  initial $display("PASS");',
    "  initial $finish;",
    "  initial $stop;",
    '  integer f; initial f = $fopen("../tb.v", "r");',
    '  reg [3:0] m [0:3]; initial $readmemh("tb.v", m);',
    '  reg [3:0] m [0:3]; initial $writememh("x.hex", m);',
    '  initial $dumpfile("x.vcd");',
    '  reg [8*8:1] s; initial if ($value$plusargs("nonce=%s", s)) q = 0;',
    "  wire [3:0] peek = tb.model;",
    "  initial force tb.model = 4'd0;",
    '`include "tb.v"',
])
def test_attacks_are_rejected_before_simulation(scorer, toy, attack) -> None:
    r = scorer.score(toy, "verilog", design(COUNTER, attack))
    assert r.result == "forbidden", (r.result, r.detail)
    assert r.stages[-1].stage == "guard"


def test_a_forged_verdict_is_not_believed(toy) -> None:
    scorer = Scorer(Limits(sim_s=5))
    scorer.guard = lambda pre, original, system: Judged(None, pre)  # as if the guard missed it
    wrong = "  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + 4'd2;"
    r = scorer.score(toy, "verilog", design(wrong, '  initial $display("PASS");'))
    assert r.result == "wrong-output" and r.detail.startswith("FAIL cycle ")


def test_missing_block_ram(scorer, tasks_dir) -> None:
    (ram,) = load_tasks(["toyram"], tasks_dir)
    r = scorer.score(ram, "verilog", ram.text("ref.v"))
    assert r.result == "missing-resource" and "SB_RAM40_4K: need at least 1, synthesis inferred 0" in r.detail


def test_missing_tool_is_a_tool_failure(scorer, toy, monkeypatch) -> None:
    import bench.judge.tools as tools

    monkeypatch.setenv("IVERILOG", "/nonexistent/iverilog")
    tools.tool_version.cache_clear()
    r = scorer.score(toy, "verilog", toy.text("ref.v"))
    tools.tool_version.cache_clear()
    assert r.result == "tool-failure" and "IVERILOG" in r.detail
    assert r.stages[-1].ran is False


def test_cli_counts_and_exit_status(tasks_dir, tmp_path) -> None:
    cands = tmp_path / "cands"
    cands.mkdir()
    (cands / "toy.v").write_text(design(COUNTER))
    argv = [sys.executable, "-m", "bench.cli", "score", "--lang", "verilog", "--candidates", str(cands),
            "--tasks", "toy", "--json"]
    env = {"BENCH_TASKS_DIR": str(tasks_dir), "PATH": "/usr/bin:/bin", "BENCH_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["counts"]["passed"] == 1 and data["results"][0]["result"] == "PASS"
    (cands / "toy.v").unlink()
    out = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 1 and json.loads(out.stdout)["results"][0]["result"] == "no-code"
    out = subprocess.run(argv[:-3] + ["--tasks", "nosuch"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 2 and "unknown task" in out.stderr


def test_the_table_and_json_name_the_stages_once(tasks_dir, tmp_path) -> None:
    """`bench score` lists the stages once (the table's caption, `stages` in --json); each row
    shows only the stage that decided its result."""
    cands = tmp_path / "cands"
    cands.mkdir()
    (cands / "toy.v").write_text(design("  always @* if (en) q = 4'd1;"))  # a latch
    argv = [sys.executable, "-m", "bench.cli", "score", "--lang", "verilog", "--candidates", str(cands),
            "--tasks", "toy"]
    env = {"BENCH_TASKS_DIR": str(tasks_dir), "PATH": "/usr/bin:/bin", "BENCH_CACHE_DIR": str(tmp_path / "cache"),
           "COLUMNS": "200"}
    out = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 1, out.stderr
    (row,) = [line for line in out.stdout.splitlines() if line.startswith("│ toy")]
    assert [c.strip() for c in row.strip("│").split("│")][:3] == ["toy", "latch", "elaborate"]
    assert "stages, in order: preprocess guard elaborate" in out.stdout  # the stages this design reached
    assert out.stdout.count("preprocess") == 1
    data = json.loads(subprocess.run(argv + ["--json"], capture_output=True, text=True, env=env, timeout=120).stdout)
    assert [s["stage"] for s in data["stages"]] == ["preprocess", "guard", "elaborate"]
    (r,) = data["results"]
    assert (r["result"], r["stage"], r["cached"]) == ("latch", "elaborate", True) and "latch" in r["detail"]
    assert "stages" not in r


def test_the_stages_are_listed_in_the_order_they_run() -> None:
    """A stage only some candidates reach (`resources`) is listed where it runs, not last."""
    def result(task: str, names: str) -> CandidateResult:
        return CandidateResult(task=task, lang="verilog", result="PASS", stages=[
            StageResult(stage=n, tool="t", tool_version="1", ran=True, verdict="ok", duration_s=0.0)
            for n in names.split()])

    got = stage_list([result("a", "preprocess guard elaborate"),
                      result("b", "preprocess guard syntax elaborate compile simulate"),
                      result("c", "preprocess guard syntax elaborate resources compile simulate")])
    assert [s.stage for s in got] == ["preprocess", "guard", "syntax", "elaborate", "resources", "compile",
                                      "simulate"]


FAKE_SYSR = {
    "internal error": "import sys; print('sysr: internal error', file=sys.stderr); sys.exit(2)",
    "not its report": "print('{\"accepted\": fal')",
    "out of memory": "import sys; print('MemoryError', file=sys.stderr); sys.exit(2)",
    "too slow": "import time; time.sleep(30)",
    "flooding": "import sys\nwhile True: sys.stdout.write('x' * 65536)",
}


@pytest.mark.parametrize("behaviour, result, detail", [
    ("internal error", "check-failed", "internal error (exit status 2); it counts as a rejection"),
    ("not its report", "check-failed", "internal error (exit status 0)"),
    ("out of memory", "resource-limit", "memory limit"),
    ("too slow", "resource-limit", "time limit"),
    ("flooding", "resource-limit", "output limit"),
])
def test_a_checker_that_fails_fails_the_candidate(toy, tmp_path, behaviour, result, detail) -> None:
    """sysr check crashing, printing something that is not its report, or hitting a limit is a
    failure of the candidate, never a tool failure."""
    fake = tmp_path / "fake_sysr.py"
    fake.write_text(FAKE_SYSR[behaviour])
    scorer = Scorer(Limits(check_s=2))
    scorer.sysr = [sys.executable, str(fake)]
    r = scorer.score(toy, "sysr", toy.text("ref.sysr"))
    assert (r.result, r.stages[-1].stage) == (result, "check"), r.detail
    assert detail in r.detail


def test_a_lowering_that_crashes_fails_the_candidate(toy, tmp_path) -> None:
    fake = tmp_path / "fake_sysr.py"
    fake.write_text("import sys\nif sys.argv[1] == 'check': print('{\"accepted\": true, \"text\": \"\"}')\n"
                    "else: sys.exit(2)")
    scorer = Scorer()
    scorer.sysr = [sys.executable, str(fake)]
    r = scorer.score(toy, "sysr", toy.text("ref.sysr"))
    assert r.result == "lower-failed" and "internal error (exit status 2)" in r.detail


def test_a_macro_built_include_is_caught_by_the_preprocessors_file_list(toy, monkeypatch) -> None:
    import bench.judge.guard as guard

    monkeypatch.setattr(guard, "raw_problem", lambda text: None)  # as if the raw check missed it
    once = '`ifndef ONCE\n`define ONCE\n`define J(f) `include f\n`J("candidate.v")\n`endif\n'
    r = Scorer().score(toy, "verilog", once + toy.text("ref.v"))
    assert r.result == "forbidden" and "a macro built one" in r.detail


def test_a_tool_that_crashes_on_the_reference_too_is_a_tool_failure(toy, tmp_path, monkeypatch) -> None:
    """A crash is held against the candidate only when the same stage runs the reference fine."""
    broken = tmp_path / "bin" / "yosys"
    broken.parent.mkdir()
    broken.write_text("#!/bin/sh\nsh -c 'kill -SEGV $$'\nexit $?\n")  # as process 1 it cannot kill itself
    broken.chmod(0o755)
    monkeypatch.setenv("YOSYS", str(broken))
    import bench.judge.tools as tools

    tools.tool_version.cache_clear()
    try:
        r = Scorer().score(toy, "verilog", toy.text("ref.v"))
    finally:
        tools.tool_version.cache_clear()
    assert (r.result, r.stages[-1].stage) == ("tool-failure", "syntax"), r.detail
    assert "on the task's reference too" in r.detail and "SIGSEGV" in r.detail


def test_the_tools_are_given_the_preprocessed_text(scorer, toy) -> None:
    """One text for every tool: a macro and an `ifdef are resolved before Yosys and Icarus see it."""
    src = ("`define STEP 4'd1\n`ifdef YOSYS\nmodule toy(input wire clk); endmodule\n`else\n"
           + toy.text("ref.v").replace("4'd1", "`STEP") + "`endif\n")
    r = scorer.score(toy, "verilog", src)
    assert r.result == "PASS", r.detail
    assert [s.stage for s in r.stages] == ["preprocess", "guard", "syntax", "interface", "elaborate",
                                           "lint", "compile", "simulate"]


def test_a_candidate_over_the_size_limit_is_too_large(scorer, toy) -> None:
    r = scorer.score(toy, "verilog", toy.text("ref.v") + "//" + "x" * (1024 * 1024))
    assert r.result == "too-large" and "limit is 1048576 bytes" in r.detail


def test_compile_errors_show_only_the_candidates_lines(scorer, toy) -> None:
    r = scorer.score(toy, "verilog", design(COUNTER, "endmodule", "module tb;"))
    assert r.result == "compile"
    assert all(line.startswith("design.v:") or "not shown" in line or "error(s)" in line
               for line in r.detail.splitlines()), r.detail


def test_one_candidate_has_one_time_budget(toy) -> None:
    """However many stages it reaches, a candidate's tool runs share `total_s` (300 s by default)."""
    r = Scorer(Limits(total_s=1e-6)).score(toy, "verilog", toy.text("ref.v"))
    assert (r.result, r.stages[-1].stage, r.stages[-1].ran) == ("resource-limit", "preprocess", False)
    assert "used up its 1e-06 s" in r.detail
    spin = Path(__file__).parent / "attacks" / "yosys-spin.v"
    r = Scorer(Limits(total_s=3)).score(toy, "verilog", spin.read_text())
    assert (r.result, r.stages[-1].stage) == ("resource-limit", "syntax") and "time limit" in r.detail


def test_what_engineers_write_passes_the_guard(scorer, toy) -> None:
    """Macros, `ifdef, attributes that map memories, event control `@(*)`, named port connections
    and escaped identifiers of plain characters are all fine (a delay is not: bench.judge.agree)."""
    src = "\n".join([
        "`timescale 1ns/1ps", "`default_nettype none", "`define W 4", "`define INC(x) ((x) + `W'd1)",
        "module inc(input wire [`W-1:0] a, output wire [`W-1:0] y); assign y = `INC(a); endmodule",
        "module toy(input wire clk, input wire rst, input wire en, output reg [`W-1:0] q);",
        "  wire [`W-1:0] \\next[0] ;  // an escaped identifier",
        "  (* keep *) wire unused = en;",
        "  inc u (.a(q), .y(\\next[0] ));",
        "  reg [`W-1:0] d;",
        "  always @(*) d = rst ? `W'd0 : (en ? \\next[0] : q);",
        "  always @(posedge clk) q <= d;",
        "`ifdef NEVER", "  initial $display(\"not compiled\");", "`endif",
        "endmodule", "`default_nettype wire", ""])
    r = scorer.score(toy, "verilog", src)
    assert r.result == "PASS", r.detail


def test_guard_lines_are_the_candidates_unless_a_macro_spans_lines(scorer, toy) -> None:
    bad = toy.text("ref.v").replace("endmodule", "  initial $finish;\nendmodule")
    r = scorer.score(toy, "verilog", bad)
    assert r.detail.startswith(f"line {bad.splitlines().index('  initial $finish;') + 1}: the system task")
    spans = "`define TWO wire a; \\\n  wire b;\nmodule unused; `TWO endmodule\n" + bad
    r = scorer.score(toy, "verilog", spans)
    assert r.result == "forbidden" and " of the preprocessed candidate: the system task or function `$finish`" in r.detail
