"""The stimulus race of upstream testbenches: its check at import and `bench suite import --fix-races`.

tests/fixtures/suites/chipbench/Verilog Gen/dataset_self_contain/Prob002_hold4 is written for this:
a reference that reads its input directly in a clocked block, and a stimulus that writes the
inputs with blocking assignments right after `@(posedge clk)` (and also has a `for` loop, a
comment and a block that already uses `<=`, none of which may change). Prob000_pair_detect's
stimulus writes only with `<=`. The rewrite is also checked on small texts written here.
"""

from __future__ import annotations

import json
import shutil

import pytest

from bench.judge.score import Limits, Scorer
from bench.judge.tasks import load_task
from bench.suites import races as R
from test_suites import FIXTURES, bench

SELF = FIXTURES / "chipbench" / "Verilog Gen" / "dataset_self_contain"
HOLD = "self_contain-Prob002_hold4"
PAIR = "self_contain-Prob000_pair_detect"
# A correct design that reads its input through a continuous assignment, as lowered Verilog does.
THROUGH_A_WIRE = """module TopModule(input clk, input rst, input [3:0] d, output reg [3:0] q);
    wire [3:0] d_w;
    assign d_w = rst ? 4'd0 : d;
    always @(posedge clk) q <= d_w;
endmodule
"""


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """The self-contained fixture dataset imported as upstream wrote it, and with --fix-races."""
    root = tmp_path_factory.mktemp("races")
    src = root / "dataset_self_contain"
    shutil.copytree(SELF, src)
    plain = bench("suite", "import", "chipbench", str(src), "--out", str(root / "plain"), "--allow-unpinned",
                  "--json")
    fixed = bench("suite", "import", "chipbench", str(src), "--out", str(root / "fixed"), "--allow-unpinned",
                  "--fix-races")
    assert plain.returncode == 0 and fixed.returncode == 0, plain.stderr + fixed.stderr
    return root, json.loads(plain.stdout), fixed


def test_race_check_flags_the_racy_fixture_only(imported) -> None:
    root, report, _ = imported
    hold, pair = load_task(root / "plain" / HOLD), load_task(root / "plain" / PAIR)
    assert (hold.invalid, hold.race_sensitive, hold.races_fixed) == (None, True, None)
    assert "\t\td = 0;" in hold.text("tb.v")  # the upstream testbench as it was: the rewrite is opt-in
    assert hold.race.startswith("4 blocking assignment(s) to the designs' inputs; the reference reading its inputs "
                                "one step late fails: wrong-output: Mismatches: 20 in")
    assert (pair.race_sensitive, pair.race) == (False, "the stimulus writes the designs' inputs with nonblocking "
                                                       "assignments only")
    assert (report["race_checked"], report["fix_races"], report["races_fixed"]) == (3, False, 0)
    assert [x["task"] for x in report["race_sensitive"]] == [HOLD]
    assert report == json.loads((root / "plain" / "suite.json").read_text())


def test_fix_races_rewrites_the_stimulus_and_the_reference_still_validates(imported) -> None:
    root, _, fixed = imported
    task = load_task(root / "fixed" / HOLD)
    assert (task.invalid, task.race_sensitive, task.races_fixed) == (None, True, 4)
    assert task.race.endswith("; with the stimulus made nonblocking it passes")
    tb = task.text("tb.v")
    for line in ("rst <= 1; // d = 4'd9 in a comment is not an assignment", "d <= 0;", "@(posedge clk) rst <= 0;",
                 "d <= i[3:0] ^ 4'h5;", "for (i = 0; i < 20; i = i + 1) begin", "d <= $random;",
                 "initial forever #5 clk = ~clk;"):
        assert line in tb, line
    assert tb.count(" = ") == load_task(root / "plain" / HOLD).text("tb.v").count(" = ") - 4
    assert f"{HOLD}: valid; race-sensitive, 4 assignment(s) made nonblocking" in fixed.stderr
    assert "1 of the 3 checked valid task(s) race-sensitive" in fixed.stdout
    assert "4 blocking assignment(s) made nonblocking (--fix-races)" in fixed.stdout
    assert load_task(root / "fixed" / PAIR).races_fixed is None


def test_a_correct_design_through_a_wire_fails_before_the_fix_and_passes_after(imported) -> None:
    root, _, _ = imported
    scorer = Scorer(Limits(sim_s=20))
    before = scorer.score(load_task(root / "plain" / HOLD), "verilog", THROUGH_A_WIRE)
    after = scorer.score(load_task(root / "fixed" / HOLD), "verilog", THROUGH_A_WIRE)
    assert before.result == "wrong-output" and before.detail.startswith("Mismatches: ")
    assert after.result == "PASS", after.detail


STIM = """module stimulus_gen #(parameter W = 4) (
    input clk,
    output logic [W-1:0] a, b,
    output reg c,
    input tb_match
);
    int k;
    logic [3:0] local_v;
    assign c_copy = c;
    task drive(input [3:0] v);
        a = v; @(posedge clk);
    endtask
    initial begin
        k = 0; local_v = 1;
        {a, b} = 0;
        if (k == 0) c = 1; else c = 0;
        case (k) 0: b[1] = 1'b1; default: b = 2; endcase
        #1 a = 3;
        $display("a = %d", a);
        for (k = 0; k < 3; k++) @(negedge clk) a = k;
        repeat (2) @(posedge clk, negedge clk) begin a <= 1; b <= (a == 1) ? 2 : 3; c <= a >= 2; end
        {a, local_v} = 0;
    end
endmodule

module tb(); stimulus_gen s(.clk(1'b0)); assign x = 1; endmodule
"""


def test_the_rewrite_touches_only_blocking_assignments_to_the_stimulus_outputs() -> None:
    found = R.stimulus(STIM)
    assert found is not None and found.outputs == ("a", "b", "c")
    fixed, n = R.fix(STIM)
    assert n == 8
    for line in ("a <= v; @(posedge clk);", "k = 0; local_v = 1;", "{a, b} <= 0;", "if (k == 0) c <= 1; else c <= 0;",
                 "case (k) 0: b[1] <= 1'b1; default: b <= 2; endcase", "#1 a <= 3;", '$display("a = %d", a);',
                 "for (k = 0; k < 3; k++) @(negedge clk) a <= k;",
                 "begin a <= 1; b <= (a == 1) ? 2 : 3; c <= a >= 2; end", "{a, local_v} = 0;",
                 "assign c_copy = c;", "assign x = 1;"):
        assert line in fixed, line


def test_an_old_style_port_list_and_no_stimulus() -> None:
    old = "module stimulus_gen(clk, q);\n input clk;\n output reg [1:0] q;\n initial q = 0;\n" \
          " always @(posedge clk) q = q + 1;\nendmodule\n"
    assert R.fix(old) == (old.replace("q = 0", "q <= 0").replace("q = q + 1", "q <= q + 1"), 2)
    assert R.stimulus("module tb(); initial a = 1; endmodule") is None
    assert R.fix("module stimulus_gen(input clk, output a);\n") == ("module stimulus_gen(input clk, output a);\n", 0)


def test_summary_counts_the_race_sensitive_tasks_apart(imported, tmp_path) -> None:
    root, _, _ = imported
    script = tmp_path / "replies.json"
    script.write_text(json.dumps({HOLD: [f"```systemverilog\n{THROUGH_A_WIRE}```"]}))
    for suite in ("plain", "fixed"):
        res = bench("loop", "--model", f"scripted:{script}", "--suite", str(root / suite), "--tasks", HOLD,
                    "--lang", "verilog", "--budget", "1", "--out", str(tmp_path / suite))
        assert res.returncode == 0, res.stderr
    res = bench("summary", str(tmp_path / "plain"), str(tmp_path / "fixed"), "--suite", str(root / "plain"))
    assert res.returncode == 0, res.stderr
    row = next(line for line in res.stdout.splitlines() if line.startswith("race-sensitive tasks: solved"))
    assert row.split()[3:] == ["0", "of", "1", "(0", "first", "attempt)", "1", "of", "1", "(1", "first", "attempt)"]
