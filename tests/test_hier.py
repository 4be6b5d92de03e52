"""Hierarchies end to end: what a user of several modules sees from `sysr check`, `sysr lower`
and `bench score`.

The verdicts and rendered messages of the hierarchical designs are tests/verify/hier_*.sysr
(tests/test_verify.py), their static errors tests/cases/bad (N006, N007, A011, A012, and A003,
A008 and T001 at instances), their Verilog tests/lower/instances.v and the example's
(tests/test_lower.py, which also runs Yosys' `hierarchy -check` and Icarus on it), their
`--formal` Verilog and the smtbmc cross-check tests/test_formal.py, and their semantics the
differential test (tests/test_differential_hier.py). Here: the JSON fields of a hierarchy,
the VCD scopes of instances, `--top`, the lowering's one module per sysr module, the scorer on
candidates with several modules, and mutation and printing of hierarchies.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.mutation.mutate_sysr import mutants
from bench.judge.score import Limits, Scorer
from bench.judge.tasks import load_tasks
from bench.judge.tools import find_tool
from sysr.front.parse import parse
from sysr.lower import lower_text

ROOT = Path(__file__).resolve().parent.parent
VERIFY = ROOT / "tests" / "verify"
FIXTURES = ROOT / "tests" / "fixtures"
TWO_TOPS = """\
module first(a: in bool, y: out bool) {
  y = a;
}

module second(a: in bool, y: out bool) {
  inst f = first(a: !a);
  y = f.y;
}

module third(a: in u8, y: out u8) {
  y = a + 1;
}
"""


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sysr.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def modules_of(verilog: str) -> list[str]:
    return re.findall(r"^module (\S+)", verilog, re.M)


# ---- what `sysr check` reports --------------------------------------------------------------

def test_json_names_the_module_the_instance_and_the_clause() -> None:
    r = run("check", "--json", str(VERIFY / "hier_breaks_requires.sysr"))
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert [(p["module"], p["kind"], p["status"]) for p in out["properties"]] == [
        ("div8", "ensures", "proven"), ("div8", "divisor", "proven"), ("countdown", "instance", "refuted")]
    req = out["properties"][2]
    assert req["text"] == "b != 0" and req["instance"] == "d" and req["real_failure"] is True
    assert req["span"]["line"] == 13 and req["clause"] == {"line": 5, "column": 12, "end_line": 5, "end_column": 18}
    (diag,) = out["diagnostics"]
    assert diag["code"] == "V002" and diag["span"]["line"] == 13
    assert diag["related"] == [{"span": req["clause"], "message": "the requirement, in `div8`"}]
    assert diag["trace"]["columns"] == ["rst", "x", "y", "n", "d.a", "d.b", "d.q"]
    assert [p["name"] for p in out["ports"]] == ["clk", "rst", "x", "y"]  # the top's


def test_json_says_when_only_the_contract_fails() -> None:
    out = json.loads(run("check", "--json", str(VERIFY / "hier_claims_more.sysr")).stdout)
    (claim,) = [p for p in out["properties"] if p["status"] == "refuted"]
    assert (claim["module"], claim["text"], claim["real_failure"]) == ("top", "digit <= 9", False)
    assert "the contract of `satcount` is too weak" in " ".join(out["diagnostics"][0]["notes"])


def test_vcd_shows_instance_signals_under_the_instance(tmp_path: Path, update_expected: bool) -> None:
    vcd = tmp_path / "t.vcd"
    r = run("check", "--vcd", str(vcd), str(VERIFY / "hier_breaks_requires.sysr"))
    assert r.returncode == 1
    expected = VERIFY / "hier_breaks_requires.vcd"
    if update_expected:
        expected.write_text(vcd.read_text())
    assert vcd.read_text() == expected.read_text()
    assert "$scope module d $end" in vcd.read_text()


# ---- the top module -------------------------------------------------------------------------

def test_the_top_is_the_module_no_other_instantiates_or_the_one_named(tmp_path: Path) -> None:
    src = tmp_path / "tops.sysr"
    src.write_text(TWO_TOPS)
    r = run("check", str(src))
    assert r.returncode == 1 and "error[P005]: the top module is ambiguous: `second`, `third`" in r.stdout
    r = run("check", "--json", "--top", "second", str(src))
    out = json.loads(r.stdout)
    assert r.returncode == 0 and [p["name"] for p in out["ports"]] == ["a", "y"]
    r = run("lower", "--top", "second", str(src))
    assert r.returncode == 0 and modules_of(r.stdout) == ["second", "first"]  # not `third`
    r = run("lower", "--top", "third", str(src))
    assert r.returncode == 0 and modules_of(r.stdout) == ["third"]
    r = run("check", "--top", "fourth", str(src))
    assert r.returncode == 1 and "error[P005]: the file has no module `fourth`" in r.stdout


def test_lowering_keeps_the_hierarchy(tmp_path: Path) -> None:
    """One Verilog module per sysr module, the top first; Yosys' hierarchy check passes."""
    code, _ = lower_text((VERIFY / "hier_two_level.sysr").read_text(), "hier_two_level.sysr")
    assert modules_of(code) == ["scaler", "digit"]
    assert "  digit lo (\n    .clk(clk),\n    .rst(rst),\n    .en(tick),\n    .d(lo_d)\n  );" in code
    (tmp_path / "d.v").write_text(code)
    r = subprocess.run([find_tool("yosys"), "-q", "-p", "read_verilog d.v; hierarchy -check -top scaler; proc; check -assert"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


# ---- the scorer -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tasks")
    shutil.copytree(FIXTURES / "scaler", root / "scaler")
    return root


@pytest.fixture(scope="module")
def scaler(tasks_dir):
    return load_tasks(["scaler"], tasks_dir)[0]


@pytest.fixture(scope="module")
def scorer():
    return Scorer(Limits(sim_s=5))


def test_a_candidate_of_several_modules_is_scored(scorer, scaler) -> None:
    ref = scaler.text("ref.sysr")
    r = scorer.score(scaler, "sysr", ref)
    assert r.result == "PASS", r.detail
    assert [s.stage for s in r.stages] == ["check", "lower", "preprocess", "guard", "syntax", "interface",
                                           "elaborate", "lint", "compile", "simulate"]
    # an unused helper module makes the top ambiguous for `sysr check` alone: the scorer names it
    spare = ref + "\nmodule spare(a: in u8, y: out u8) {\n  y = a;\n}\n"
    r = scorer.score(scaler, "sysr", spare)
    assert r.result == "PASS", r.detail
    r = scorer.score(scaler, "sysr", ref.replace("module scaler(", "module scaled("))
    assert r.result == "check-failed" and "P005" in r.detail and "no module `scaler`" in r.detail


def test_a_hierarchy_that_breaks_a_child_is_rejected_by_the_check(scorer, scaler) -> None:
    bad = scaler.text("ref.sysr").replace("d <= if d == 9 then 0 else d + 1;", "d <= d + 1;")
    r = scorer.score(scaler, "sysr", bad)
    assert r.result == "check-failed" and "V002" in r.detail
    assert [s.stage for s in r.stages] == ["check"]


def test_the_split_rv32i_reference_passes_the_task_testbench(scorer) -> None:
    task = load_tasks(["rv32i-ex"])[0]
    r = scorer.score(task, "sysr", task.text("split.sysr"))
    assert r.result == "PASS", r.detail


# ---- mutation and printing ------------------------------------------------------------------

def _specs(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip().startswith(("ensures", "requires", "invariant"))]


def test_mutants_of_a_hierarchy_change_the_logic_of_every_module() -> None:
    got = mutants((ROOT / "examples" / "stopwatch.sysr").read_text(), 400)
    assert got.sites == len(got.mutants) + len(got.discarded) > 40
    lines = {m.line for m in got.mutants}  # digit, seg7 and the top's own logic
    assert lines & set(range(13, 16)) and lines & set(range(25, 29)) and lines & set(range(39, 42))
    for m in got.mutants:  # every mutant parses, and no property was touched
        tree, diags = parse(m.text)
        assert tree is not None, diags
        assert _specs(m.text) == _specs(got.original)


def test_bindings_are_logic_to_mutate() -> None:
    got = mutants((ROOT / "tests" / "lower" / "instances.sysr").read_text(), 400)
    whats = {(m.line, m.what) for m in got.mutants}
    assert (10, "`0x5a` -> `0x5b`") in whats and (17, "`+` -> `-` in `a + b`") in whats


def test_generated_hierarchies_round_trip_through_the_printer() -> None:
    from gen_hier import hierarchy_from_seed
    from test_printer import _round_trip

    for seed in range(10):
        _round_trip(hierarchy_from_seed(seed).text)
