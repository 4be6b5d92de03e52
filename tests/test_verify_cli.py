"""`sysr check` on the command line: JSON per property, VCD traces, exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from vcd.reader import TokenKind, tokenize

HERE = Path(__file__).parent / "verify"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sysr.cli", *args], capture_output=True, text=True,
                          timeout=120)


def test_json_reports_each_property() -> None:
    r = run("check", "--json", str(HERE / "counter_off_by_one.sysr"))
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["accepted"] is False and out["verified"] is True
    (prop,) = out["properties"]
    assert prop["kind"] == "ensures" and prop["status"] == "refuted" and prop["text"] == "count <= 9"
    assert prop["trace"]["failing_cycle"] == 10
    assert prop["trace"]["columns"] == ["rst", "en", "count", "c"]
    assert prop["span"]["line"] == 11
    assert set(prop) >= {"kind", "span", "status", "depth", "time_s", "trace"}
    (diag,) = out["diagnostics"]
    assert diag["code"] == "V002" and len(diag["trace"]["rows"]) == 11


def test_json_statuses_for_an_accepted_design() -> None:
    r = run("check", "--json", str(HERE / "fsm_onehot.sysr"))
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert [p["status"] for p in out["properties"]] == ["proven"] * 3
    assert "verify_s" in out["timing"]


def test_vcd_has_every_column_and_cycle(tmp_path: Path) -> None:
    vcd = tmp_path / "t.vcd"
    r = run("check", "--vcd", str(vcd), str(HERE / "handshake.sysr"))
    assert r.returncode == 1
    tokens = list(tokenize(vcd.open("rb")))
    names = [t.data.reference for t in tokens if t.kind is TokenKind.VAR]
    assert names == ["clk", "rst", "ready", "start", "valid", "busy", "age"]
    times = [t.data for t in tokens if t.kind is TokenKind.CHANGE_TIME]
    assert max(times) == 55  # six cycles, ten units apart, the clock rising mid-cycle


def test_depth_and_induction_options() -> None:
    r = run("check", "--depth", "5", str(HERE / "counter_off_by_one.sysr"))
    assert r.returncode == 1 and "error[V002]" in r.stdout and "fails in cycle 10" in r.stdout  # (§6.1 item 4)
    r = run("check", "--depth", "0", str(HERE / "counter_off_by_one.sysr"))
    assert r.returncode == 2 and "--depth must be at least 1" in r.stderr
