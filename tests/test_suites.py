"""Upstream suites imported and scored: `bench suite import` on small fixtures in each layout.

tests/fixtures/suites/ holds problems written for this project in the layouts of VerilogEval v2
(spec-to-rtl and code-completion) and ChipBench (self-contained, not self-contained, CPU-IP),
with the awkward cases of the real suites: `Mismatches:` and `Hint:` verdicts, a testbench
naming a port its reference lacks, a reference failing its own testbench, an FSM whose
always_comb leaves a latch, a stimulus outlasting the testbench's own TIMEOUT, helper modules a
candidate reuses, a module only the prompt defines, macros only the testbench defines, a VCD
write, an asynchronous active-low reset and an output named `match` for the sysr stub, two
unrelated clocks (one used at its falling edge) with 520-bit ports. Each
fixture is imported once, from a copy outside any git checkout, and then scored, looped and
summarised as a user would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.judge import simulate, verdicts
from bench.judge.dialect import SYSTEMVERILOG
from bench.judge.guard import judge
from bench.judge.score import Limits, Scorer
from bench.suites import text as T
from bench.suites.facts import Facts, Port, of_reference
from bench.suites.importer import import_suite
from bench.suites.problem import SuiteError
from bench.suites.stub import port_kinds, stub
from bench.judge.guard import Judged
from bench.judge.tasks import Verdict, load_task

FIXTURES = Path(__file__).parent / "fixtures" / "suites"
EXPECTED = FIXTURES / "expected"
ROOT = Path(__file__).resolve().parent.parent
FIELDS = {"kind", "source", "commit", "tasks", "valid", "invalid", "sysr_expressible", "sysr_not_expressible",
          "race_checked", "race_sensitive", "fix_races", "races_fixed"}


def bench(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)})


def copied(tmp_path_factory, name: str) -> Path:
    """A copy of a fixture checkout outside this project's git checkout (its commit: unknown)."""
    root = tmp_path_factory.mktemp(name)
    shutil.copytree(FIXTURES / name, root / name)
    return root / name


@pytest.fixture(scope="module")
def ve(tmp_path_factory):
    src = copied(tmp_path_factory, "verilogeval")
    out = src.parent / "imported"
    res = bench("suite", "import", "verilogeval", str(src), "--out", str(out), "--jobs", "2", "--allow-unpinned")
    assert res.returncode == 0, res.stderr
    return src, out, res.stdout


@pytest.fixture(scope="module")
def cb(tmp_path_factory):
    src = copied(tmp_path_factory, "chipbench")
    out = src.parent / "imported"
    res = bench("suite", "import", "chipbench", str(src), "--out", str(out), "--jobs", "2", "--json",
                "--allow-unpinned")
    assert res.returncode == 0, res.stderr
    return out, json.loads(res.stdout)


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return Scorer(Limits(sim_s=20))


def kinds(entries: list[dict]) -> dict[str, str]:
    return {e["task"]: e["reason"].split(":", 1)[0] for e in entries}


def check_expected(got: str, name: str, update: bool) -> None:
    exp = EXPECTED / name
    if update:
        exp.write_text(got)
    assert exp.is_file(), f"no {exp}; run `SYSR_UPDATE=1 pytest tests/test_suites.py`"
    assert got == exp.read_text(), f"{exp.name} differs; if intended, regenerate with SYSR_UPDATE=1"


# ---- the import and its report ----------------------------------------------------------------

def test_verilogeval_import_report(ve, update_expected) -> None:
    src, out, plain = ve
    report = json.loads((out / "suite.json").read_text())
    assert set(report) == FIELDS
    assert (report["kind"], report["tasks"], report["valid"], report["commit"]) == ("verilogeval", 5, 3, "unknown")
    assert report["source"] == str((src / "dataset_spec-to-rtl").resolve())
    assert kinds(report["invalid"]) == {"Prob003_badport": "compile", "Prob005_fsm3": "latch"}
    assert "port ``z'' is not a port of good1" in report["invalid"][0]["reason"]
    assert (report["sysr_expressible"], report["sysr_not_expressible"]) == (3, [])
    shown = plain.replace(str(src.resolve()), "SRC").replace(str(out), "OUT")
    check_expected(shown, "import-verilogeval.txt", update_expected)


def test_chipbench_import_report(cb) -> None:
    out, report = cb
    assert set(report) == FIELDS and report == json.loads((out / "suite.json").read_text())
    assert (report["tasks"], report["valid"], report["sysr_expressible"]) == (7, 6, 6)
    assert report["invalid"] == [{"task": "self_contain-Prob001_scaled_sum",
                                  "reason": "wrong-output: Mismatches: 60 in 60 samples"}]
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == [
        "cpu_ip-Prob001_acc", "not_self_contain-Prob001_min3", "not_self_contain-Prob002_given_adder",
        "self_contain-Prob000_pair_detect", "self_contain-Prob001_scaled_sum", "self_contain-Prob002_hold4",
        "self_contain-Prob003_wide_handoff"]


def test_imported_task_folder(ve, update_expected) -> None:
    _, out, _ = ve
    task = load_task(out / "Prob002_dffar")
    assert (task.language, task.verdict, task.port_order, task.tags) == (
        "systemverilog", Verdict(style="mismatches"), False, ["verilogeval", "spec-to-rtl"])
    assert (task.origin.problem, task.origin.commit, task.sequential, task.invalid) == (
        "Prob002_dffar", "unknown", True, None)
    assert task.cycles == 52  # the samples its testbench compared for the reference
    assert "asynchronous" in task.prompt and not (out / "Prob002_dffar" / "ref.sysr").exists()
    check_expected(task.text("iface.v"), "Prob002_dffar.iface.v", update_expected)
    check_expected(task.text("stub.sysr"), "Prob002_dffar.stub.sysr", update_expected)
    assert load_task(out / "Prob005_fsm3").invalid.startswith("latch: ERROR: Latch inferred for signal")


def test_stub_of_an_active_low_asynchronous_reset_checks_with_only_holes(cb, update_expected) -> None:
    out, _ = cb
    stub = out / "self_contain-Prob000_pair_detect" / "stub.sysr"
    check_expected(stub.read_text(), "pair_detect.stub.sysr", update_expected)
    res = subprocess.run([str(ROOT / "bin" / "sysr"), "check", "--json", str(stub)], capture_output=True, text=True,
                         timeout=120)
    codes = {d["code"] for d in json.loads(res.stdout)["diagnostics"] if d["severity"] == "error"}
    assert codes == {"H001"} and res.returncode == 1


def suite_stubs():
    """benchmarks/suite_stubs.py, the check of every stub of an imported suite, as a module."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("suite_stubs", ROOT / "benchmarks" / "suite_stubs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["suite_stubs"] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


def test_every_stub_checks_with_only_its_hole_errors(ve, cb, tmp_path, capsys) -> None:
    """benchmarks/suite_stubs.py over the imported fixtures: every valid task has a stub, and
    `sysr check` gives each one H001 per output and nothing else. A stub with another error, or
    with no hole left, is reported and fails the run."""
    check = suite_stubs()
    for out, kind, valid in ((ve[1], "verilogeval", 3), (cb[0], "chipbench", 6)):
        s = check.survey(out)
        assert (s.suite, s.valid, len(s.stubs), s.only_holes, s.no_stub, s.ok) == (kind, valid, valid, valid, {}, True)
    broken = tmp_path / "imported"
    shutil.copytree(ve[1], broken)
    dffar, and2 = broken / "Prob002_dffar" / "stub.sysr", broken / "Prob001_and2" / "stub.sysr"
    dffar.write_text(dffar.read_text().replace("q = ?q;", "q = ?q;\n  wire w: u3 = 9;"))
    and2.write_text(re.sub(r"= \?\w+;", "= false;", and2.read_text()))
    s = check.survey(broken)
    assert (s.only_holes, s.ok) == (1, False)
    assert {r.task: r.others for r in s.stubs if r.others} == {
        "Prob001_and2": ["accepted: the stub has no hole left"],
        "Prob002_dffar": ["T002 line 5: the literal `9` does not fit in `u3`"]}
    assert check.main([str(broken)]) == 1
    printed = capsys.readouterr().out
    assert "stubs with only hole errors 1 of 3" in printed and "Prob002_dffar: T002 line 5:" in printed


HANDOFF = """module TopModule(wclk: clock, rclk: clock, load: in bool, din: in u520, held: out reg u520,
                 dout: out reg u520) {
  seq(wclk) { if load { held <= din; } }
  seq(falling rclk) { dout <= held; }
  // dout is held as the last falling edge of rclk saw it (no reset: from the first such edge on)
  ghost reg last: u520;
  ghost reg fell: bool initial false;
  ghost seq(falling rclk) { last <= held; fell <= true; }
  ensures fell ==> dout == last;
}
"""


def test_two_clocks_a_falling_edge_and_a_wide_bus_from_stub_to_score(cb, scorer, update_expected) -> None:
    """A reference with two clocks, one used at its falling edge, and 520-bit ports: its stub
    names both clocks' `seq` blocks, and a sysr solution of it passes the imported testbench,
    where the same design on the rising edge of `rclk` fails."""
    out, _ = cb
    task = load_task(out / "self_contain-Prob003_wide_handoff")
    check_expected(task.text("stub.sysr"), "wide_handoff.stub.sysr", update_expected)
    assert scorer.score(task, "sysr", HANDOFF).result == "PASS"
    rising = HANDOFF.replace("falling rclk", "rclk")
    assert scorer.score(task, "sysr", rising).result == "wrong-output"


def test_testbench_timeout_before_the_stimulus_ends(ve, scorer) -> None:
    _, out, plain = ve
    task = load_task(out / "Prob004_count10")
    assert task.verdict == Verdict(style="mismatches", timeout_fails=False) and task.invalid is None
    assert "judged on their mismatch count alone" in plain and "Prob004_count10" in plain
    strict = task.model_copy(update={"verdict": Verdict(style="mismatches")})
    r = scorer.score(strict, "verilog", task.text("ref.v"))
    assert r.result == "wrong-output" and r.detail.startswith("TIMEOUT: the testbench's own time limit")


def code_completion(folder: Path) -> Path:
    """The code-completion fixture, completed with the spec-to-rtl fixture's AND gate as the
    reference and testbench of both its problems (the OR gate's made an OR)."""
    shutil.copytree(FIXTURES / "verilogeval" / "dataset_code-complete-iccad2023", folder)
    spec = FIXTURES / "verilogeval" / "dataset_spec-to-rtl"
    for part in ("ref.sv", "test.sv"):
        text = (spec / f"Prob001_and2_{part}").read_text()
        (folder / f"Prob001_and2_{part}").write_text(text)
        (folder / f"Prob002_or2_{part}").write_text(text.replace("a & b", "a | b"))
    return folder


def test_code_completion_layout_and_its_interface(tmp_path) -> None:
    src = code_completion(tmp_path / "cc")
    (src / "Prob003_gone_prompt.txt").write_text("A problem whose reference and testbench are missing.\n")
    report = import_suite("verilogeval", src, tmp_path / "out", jobs=2, allow_unpinned=True)
    assert (report.tasks, report.valid) == (3, 1)
    why = {x.task: x.reason for x in report.invalid}
    assert why["Prob002_or2"] == ("interface: the ports the prompt gives (_ifc.txt) are not the reference's: missing "
                                  "port(s) y; unexpected port(s) out (in the prompt's, against the reference's)")
    assert why["Prob003_gone"] == ("missing file(s) in the checkout: Prob003_gone_ref.sv, Prob003_gone_test.sv, "
                                   "Prob003_gone_ifc.txt")
    assert load_task(tmp_path / "out" / "Prob001_and2").tags == ["verilogeval", "code-complete"]
    # an earlier import is replaced; a folder that is not one is refused
    (src / "Prob003_gone_prompt.txt").unlink()
    assert import_suite("verilogeval", src, tmp_path / "out", allow_unpinned=True).tasks == 2
    assert not (tmp_path / "out" / "Prob003_gone").exists()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(SuiteError, match="is not an imported suite"):
        import_suite("verilogeval", src, tmp_path / "other", allow_unpinned=True)
    with pytest.raises(SuiteError, match="no VerilogEval v2 problems"):
        import_suite("verilogeval", tmp_path / "other", tmp_path / "out2", allow_unpinned=True)
    with pytest.raises(SuiteError, match="--allow-unpinned"):
        import_suite("verilogeval", src, tmp_path / "out")


def test_the_upstream_commit_is_recorded(tmp_path) -> None:
    src = code_completion(tmp_path / "cc")
    for f in src.glob("Prob002_*"):
        f.unlink()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=src, check=True)
    subprocess.run([*git, "add", "."], cwd=src, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "fixture"], cwd=src, check=True)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=src, capture_output=True, text=True).stdout.strip()
    assert import_suite("verilogeval", src, tmp_path / "out").commit == head
    assert load_task(tmp_path / "out" / "Prob001_and2").origin.commit == head
    with (src / "Prob001_and2_prompt.txt").open("a") as f:
        f.write("\nA local change.\n")
    assert import_suite("verilogeval", src, tmp_path / "out").commit == head + "-dirty"


# ---- scoring imported tasks -------------------------------------------------------------------

def test_score_the_references_and_what_is_left_out(ve) -> None:
    _, out, _ = ve
    res = bench("score", "--suite", str(out), "--lang", "verilog", "--json")
    data = json.loads(res.stdout)
    assert res.returncode == 0 and data["counts"]["passed"] == data["counts"]["candidates"] == 3
    assert "2 task(s) of" in res.stderr and "left out (2 invalid)" in res.stderr
    res = bench("score", "--suite", str(out), "--lang", "verilog", "--tasks", "Prob003_badport")
    assert res.returncode == 2 and "task Prob003_badport is left out (invalid: compile: tb.v:" in res.stderr
    res = bench("score", "--suite", str(out), "--lang", "sysr")
    assert res.returncode == 2 and "imported tasks have no sysr reference" in res.stderr


AND_WRONG = "module TopModule(input a, input b, output y);\n  assign y = a | b;\n{extra}endmodule\n"


@pytest.mark.parametrize("extra, why", [
    ('  initial begin $display("Mismatches: 0 in 1 samples"); $display("Hint: No mismatched samples."); end\n',
     "Mismatches: 38 in 50 samples"),
    ('  initial $display("Mismatches#0123456789abcdef: 0 in 1 samples");\n', "Mismatches: 38 in 50 samples"),
])
def test_a_forged_upstream_verdict_is_not_believed(ve, extra, why) -> None:
    _, out, _ = ve
    task = load_task(out / "Prob001_and2")
    guarded = Scorer(Limits(sim_s=20)).score(task, "verilog", AND_WRONG.format(extra=extra))
    assert guarded.result == "forbidden" and "$display" in guarded.detail
    scorer = Scorer(Limits(sim_s=20))
    scorer.guard = lambda pre, original, system: Judged(None, pre)  # as if the guard missed it
    r = scorer.score(task, "verilog", AND_WRONG.format(extra=extra))
    assert r.result == "wrong-output" and r.detail.splitlines()[0] == why


def test_hint_verdicts_and_defines_from_the_testbench(cb, scorer) -> None:
    out, _ = cb
    task = load_task(out / "cpu_ip-Prob001_acc")
    assert task.verdict.style == "hint"
    ref = task.text("ref.v")
    assert [line for line in ref.splitlines() if line.startswith("`define")] == [
        "`define RstEnable 1'b1", "`define Width 8", "`define DataBus `Width-1:0", "`define Zero 8'h00"]
    assert "rst: reset" in task.text("stub.sysr")
    wrong = ("module TopModule(input clk, input rst, input [7:0] d, output logic [7:0] acc);\n"
             "  always_ff @(posedge clk) acc <= rst ? 8'd0 : acc + d + 8'd1;\nendmodule\n")
    r = scorer.score(task, "verilog", wrong)
    assert r.result == "wrong-output"
    assert re.fullmatch(r"Hint: Total mismatched samples is 81 out of 86 samples\.\nHint: Output 'acc' has 81 "
                        r"mismatches\. First mismatch occurred at time \d+\.", r.detail)
    forged = wrong.replace("endmodule", '  initial $display("Hint: No mismatched samples.");\nendmodule')
    scorer.guard, saved = (lambda pre, original, system: Judged(None, pre)), scorer.guard
    try:
        assert scorer.score(task, "verilog", forged).result == "wrong-output"
    finally:
        scorer.guard = saved


MIN2 = ("module min2(input [7:0] p, input [7:0] q, output [7:0] r);\n  assign r = (p <= q) ? p : q;\nendmodule\n"
        "module TopModule(input [7:0] a, input [7:0] b, input [7:0] c, output [7:0] m);\n"
        "  wire [7:0] t;\n  min2 u0 (.p(a), .q(b), .r(t));\n  min2 u1 (.p(t), .q(c), .r(m));\nendmodule\n")
ADDER = ("module TopModule(input a, input b, input ci, output s, output co);\n  wire s1, c1, c2;\n"
         "  half_adder h1 (.x(a), .y(b), .s(s1), .c(c1));\n  half_adder h2 (.x(s1), .y(ci), .s(s), .c(c2));\n"
         "  assign co = c1 | c2;\nendmodule\n"
         "module half_adder(input x, input y, output s, output c);\n  assign s = x ^ y;\n  assign c = x & y;\n"
         "endmodule\n")


def test_a_candidate_may_name_its_submodules_as_the_reference_does(cb, scorer) -> None:
    out, _ = cb
    task = load_task(out / "not_self_contain-Prob001_min3")
    assert "module ref__min2" in task.text("tb.v") and "module min2" not in task.text("tb.v")
    assert "module min2" in task.text("ref.v")
    assert scorer.score(task, "verilog", MIN2).result == "PASS"
    given = load_task(out / "not_self_contain-Prob002_given_adder")
    assert "module ref__half_adder" in given.text("tb.v") and "module half_adder" in given.text("ref.v")
    assert scorer.score(given, "verilog", ADDER).result == "PASS"


def test_vcd_files_stay_in_the_work_folder_and_are_bounded(ve, tmp_path, monkeypatch) -> None:
    _, out, _ = ve
    task = load_task(out / "Prob001_and2")
    sizes = []
    leave = simulate.ProgramPipe.__exit__

    def seen(pipe, *exc):  # the run folder just after vvp, before the scorer removes it
        sizes.append(sorted((f.name, f.stat().st_size) for f in pipe.fifo.parent.iterdir() if f.name != "sim"))
        return leave(pipe, *exc)

    monkeypatch.setattr(simulate.ProgramPipe, "__exit__", seen)
    monkeypatch.chdir(tmp_path)
    r = Scorer(Limits(sim_s=20)).score(task, "verilog", task.text("ref.v"))
    small = Scorer(Limits(sim_s=20, sim_file_bytes=512)).score(task, "verilog", task.text("ref.v"))
    assert r.result == small.result == "PASS"  # a cut VCD, which nobody reads, changes no verdict
    assert sizes[0][0][0] == "wave.vcd" and sizes[0][0][1] > 512 and sizes[1] == [("wave.vcd", 512)]
    assert not list(tmp_path.iterdir()) and not list((out / "Prob001_and2").glob("*.vcd"))


def test_systemverilog_stages_latch_and_port_order(ve, scorer) -> None:
    _, out, _ = ve
    task = load_task(out / "Prob001_and2")
    latch = "module TopModule(input a, input b, output logic y);\n  always_comb if (a) y = b;\nendmodule\n"
    r = scorer.score(task, "verilog", latch)
    assert r.result == "latch" and "always_comb" in r.detail
    dff = load_task(out / "Prob002_dffar")
    reordered = ("module TopModule(output logic [3:0] q, input logic [3:0] d, input logic areset, input logic clk);\n"
                 "  always_ff @(posedge clk, posedge areset) if (areset) q <= 4'd0; else q <= d;\nendmodule\n")
    assert scorer.score(dff, "verilog", reordered).result == "PASS"
    counted = ("module TopModule(input a, input b, output y);\n  assign y = $countones({a, b}) == 2;\nendmodule\n")
    assert scorer.score(task, "verilog", counted).result == "PASS"
    ripple = ("module TopModule(input a, input b, output y);\n  logic [2:0] c;\n  assign c[0] = a;\n"
              "  assign c[2:1] = c[1:0] & {b, 1'b1};\n  assign y = c[2];\nendmodule\n")
    assert scorer.score(task, "verilog", ripple).result == "PASS"  # a loop on words only (tests/test_score.py)


# ---- the loop and the summary on an imported suite ---------------------------------------------

DFF_WRONG = ("module TopModule(input clk, input areset, input [3:0] d, output logic [3:0] q);\n"
             "  always_ff @(posedge clk) if (areset) q <= 4'd0; else q <= d;\nendmodule\n")
DFF_GOOD = DFF_WRONG.replace("@(posedge clk)", "@(posedge clk, posedge areset)")
DFF_SYSR = """module TopModule(clk: clock, areset: areset, d: in u4, q: out u4) {
  reg r: u4 = 0;
  q = r;
  seq { r <= d; }
  ensures areset ==> q == 0;
}
"""


def test_loop_and_summary_in_both_languages(ve, tmp_path) -> None:
    _, out, _ = ve
    script = tmp_path / "replies.json"
    script.write_text(json.dumps({"Prob002_dffar": [f"```systemverilog\n{DFF_WRONG}```", f"```sv\n{DFF_GOOD}```"]}))
    res = bench("loop", "--model", f"scripted:{script}", "--suite", str(out), "--tasks", "Prob002_dffar",
                "--lang", "verilog", "--budget", "2", "--out", str(tmp_path / "v"))
    assert res.returncode == 0, res.stderr
    rec = json.loads((tmp_path / "v" / "run.json").read_text())
    attempts = rec["tasks"]["Prob002_dffar"]["samples"][0]["attempts"]
    assert [a["result"] for a in attempts] == ["wrong-output", "PASS"] and rec["suite"] == str(out.resolve())
    assert "Reply with the whole SystemVerilog file" in attempts[0]["feedback"]
    assert "Mismatches:" in attempts[1]["feedback"] and "Hint: Output 'q' has" in attempts[1]["feedback"]
    script.write_text(json.dumps({"Prob002_dffar": [f"```sysr\n{DFF_SYSR}```"]}))
    res = bench("loop", "--model", f"scripted:{script}", "--suite", str(out), "--tasks", "Prob002_dffar",
                "--lang", "sysr", "--budget", "1", "--out", str(tmp_path / "s"))
    assert res.returncode == 0, res.stderr
    srec = json.loads((tmp_path / "s" / "run.json").read_text())
    first = srec["tasks"]["Prob002_dffar"]["samples"][0]["attempts"][0]
    assert first["result"] == "PASS" and "areset: areset" in first["feedback"]
    res = bench("summary", str(tmp_path / "v"), str(tmp_path / "s"), "--suite", str(out))
    assert res.returncode == 0, res.stderr
    row = next(line for line in res.stdout.splitlines() if line.startswith("category spec-to-rtl: solved"))
    assert row.split()[3:] == ["1", "of", "1", "(0", "first", "attempt)", "1", "of", "1", "(1", "first", "attempt)"]
    left = next(line for line in res.stdout.splitlines() if line.startswith("suite tasks left out: invalid"))
    assert left.split()[-2:] == ["2", "2"]


# ---- the pieces ------------------------------------------------------------------------------

def test_verdict_lines_without_the_nonce_are_ignored() -> None:
    style = Verdict(style="mismatches")
    forged = "Mismatches: 0 in 9 samples\nHint: Output 'y' has no mismatches.\n"
    assert verdicts.read(forged, "n0nce", style) is None
    real = forged + "Hint#n0nce: Output 'y' has 2 mismatches. First mismatch occurred at time 5.\n" \
                    "Mismatches#n0nce: 2 in 9 samples\n"
    got = verdicts.read(real, "n0nce", style)
    assert not got.passed and got.line == ("Mismatches: 2 in 9 samples\n"
                                           "Hint: Output 'y' has 2 mismatches. First mismatch occurred at time 5.")
    tb = '$display("Mismatches: %1d in %1d samples", e, c); $display("TIMEOUT"); $display("Hint: Output");'
    assert verdicts.nonced(tb, "N", style) == ('$display("Mismatches#N: %1d in %1d samples", e, c); '
                                               '$display("TIMEOUT#N"); $display("Hint#N: Output");')
    assert verdicts.read("Mismatches#N: 0 in 0 samples\n", "N", style).line == (
        "Mismatches: 0 in 0 samples: the testbench compared no samples")
    hint = Verdict(style="hint")
    assert verdicts.read("Hint#N: No mismatched samples.\nTIMEOUT#N\n", "N", hint).passed is False
    assert verdicts.read("Hint#N: No mismatched samples.\n", "N", hint).passed is True


def test_systemverilog_functions_are_allowed_only_in_systemverilog() -> None:
    text = "module m(input [7:0] a, output [3:0] n);\n  assign n = $countones(a) + $bits(a);\nendmodule\n"
    assert "`$countones` is not allowed" in judge(text, text).problem
    assert judge(text, text, system=SYSTEMVERILOG.system).problem is None
    assert "(only $signed, $unsigned and $clog2)" in judge("module m; initial $finish; endmodule", "").problem


def test_text_edits_keep_comments_and_strings() -> None:
    ref = ('module RefModule(input [`W] a, output y); // RefModule\n  helper h(.a(a), .y(y));\n'
           '  initial $display("helper");\nendmodule\nmodule helper(input [`W] a, output y); assign y = `ONE; endmodule\n')
    assert T.module_names(ref) == ["RefModule", "helper"]
    renamed = T.rename(ref, {"helper": "ref__helper"})
    assert "ref__helper h(" in renamed and "module ref__helper(" in renamed and '"helper"' in renamed
    assert "// RefModule" in T.rename(ref, {"RefModule": "TopModule"})
    tb = "`define HI 1'b1\n`define ONE `HI\n`define W 7:0\n`define UNUSED 0\n`define M(x) \\\n  (x)\n"
    assert T.needed_defines(ref, tb) == ["`define HI 1'b1", "`define ONE `HI", "`define W 7:0"]
    assert T.defines(tb)["M"] == "`define M(x) \\\n  (x)"
    prompt = "Use this:\n\n```\nmodule helper(input a, output y);\n  assign y = a;\nendmodule\n```\n"
    assert T.provided_modules("module RefModule(); helper h(); endmodule", prompt) == [
        "module helper(input a, output y);\n  assign y = a;\nendmodule"]
    assert T.provided_modules(ref, prompt) == []  # the reference defines its own


def facts(**kw) -> Facts:
    ports = [Port("clk", "input", 1), Port("rst", "input", 1), Port("d", "input", 8), Port("q", "output", 8)]
    return Facts(ports=kw.pop("ports", ports), elaborated=True, **kw)


@pytest.mark.parametrize("given, want", [
    (facts(clocks={("clk", True)}), ({"clk": "clock", "rst": "reset"}, "")),
    (facts(clocks={("clk", True)}, sync_resets={"rst": {False}}), ({"clk": "clock", "rst": "reset_n"}, "")),
    (facts(clocks={("clk", True)}, async_resets={("rst", False)}), ({"clk": "clock", "rst": "areset_n"}, "")),
    (facts(), ({}, "")),
    (facts(clocks={("clk", False)}), ({"clk": "clock", "rst": "reset"}, "")),
    (facts(clocks={("clk", True), ("clk", False)}), ({"clk": "clock", "rst": "reset"}, "")),
    (facts(clocks={("clk", True), ("rst", True)}), ({"clk": "clock", "rst": "clock"}, "")),
    (facts(clocks={("clk", True)}, odd={"a latch"}), ({}, "the reference has a latch, which sysr cannot write")),
    (facts(ports=[Port("io", "inout", 2)]), ({}, "port `io` is inout; sysr ports are inputs and outputs")),
    (facts(ports=[Port("w", "input", 5000)]), ({}, "port `w` is 5000 bits wide; sysr types are at most 4096 bits "
                                                   "(T011)")),
])
def test_port_kinds(given: Facts, want) -> None:
    assert port_kinds(given) == want


def test_a_stub_with_two_clocks_names_their_seq_blocks() -> None:
    ports = [Port("wclk", "input", 1), Port("rclk", "input", 1), Port("d", "input", 8), Port("q", "output", 8)]
    text, why = stub(Facts(ports=ports, elaborated=True, clocks={("wclk", True), ("rclk", False)}), "t")
    assert why == "" and "module TopModule(wclk: clock, rclk: clock, d: in u8, q: out u8) {" in text
    assert "// `rclk` clocks the reference at its falling edge: `seq(falling rclk) { ... }`" in text
    assert "// `wclk` clocks the reference at its rising edge: `seq(wclk) { ... }`" in text


def test_facts_from_yosys() -> None:
    ref = ("module TopModule(input clk, input resetn, input [6:1] y, input signed [3:0] s, output reg [3:0] q);\n"
           "  always @(posedge clk) if (!resetn) q <= 0; else q <= y[4:1] + s;\nendmodule\n")
    f = of_reference(ref)
    assert f.elaborated and f.clocks == {("clk", True)} and f.sync_resets == {"resetn": {False}}
    assert [p.declaration() for p in f.ports] == ["input logic clk", "input logic resetn", "input logic [6:1] y",
                                                  "input logic signed [3:0] s", "output logic [3:0] q"]
