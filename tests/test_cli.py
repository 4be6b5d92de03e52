"""`sysr check` from the command line: exit statuses, the human format and the `--json` shape.

Most tests call `sysr.cli.main` in-process (fast, and lets a test make the checker fail on
purpose); a few run `python -m sysr.cli` as a user would. All use `--no-verify` so that they
depend on the static checks only.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sysr import cli, pipeline

CASES = Path(__file__).parent / "cases"
GOOD = CASES / "good" / "counter.sysr"
BAD = CASES / "bad" / "T001-mismatch.sysr"
HEADLINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[A-Z]\d{3})\]: "
                      r"(?P<msg>.+)$")


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sysr.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


# ---- exit statuses ---------------------------------------------------------------------------

def test_accepted_design_exits_0(capsys) -> None:
    code, out, _ = run_main(capsys, "check", "--no-verify", str(GOOD))
    assert code == 0
    assert out.strip().endswith("accepted by the static checks (proofs not run)")


def test_rejected_design_exits_1(capsys) -> None:
    code, out, _ = run_main(capsys, "check", "--no-verify", str(BAD))
    assert code == 1
    assert "error[T001]" in out and out.strip().endswith("rejected: 1 error(s)")


def test_missing_file_exits_2(capsys, tmp_path: Path) -> None:
    code, out, err = run_main(capsys, "check", "--no-verify", str(tmp_path / "nope.sysr"))
    assert code == 2
    assert out == ""
    assert "no such file" in err and "nope.sysr" in err


def test_directory_exits_2(capsys, tmp_path: Path) -> None:
    code, _, err = run_main(capsys, "check", "--no-verify", str(tmp_path))
    assert code == 2 and err == f"sysr: error: {tmp_path} is a directory, not a design file\n"


def test_non_utf8_file_is_rejected_with_L002(capsys, tmp_path: Path) -> None:
    """What a file holds is the design's: bytes that are not UTF-8 reject it (exit 1), at the byte."""
    f = tmp_path / "latin1.sysr"
    f.write_bytes(b"// caf\xe9\nmodule m(a: in bool, y: out bool) { y = a; }\n")
    code, out, err = run_main(capsys, "check", "--no-verify", str(f))
    assert code == 1 and err == ""
    assert out.startswith(f"{f}:1:7: error[L002]: the byte 0xe9 here is not UTF-8: the file is not a UTF-8 text file\n")
    assert out.rstrip().endswith("rejected: 1 error(s)")


def test_internal_error_exits_2(capsys, monkeypatch) -> None:
    def broken(design):
        raise RuntimeError("boom from a test")
    monkeypatch.setattr(pipeline, "check_hierarchy", broken)
    code, out, err = run_main(capsys, "check", "--no-verify", str(GOOD))
    assert code == 2
    assert "internal error" in err and "bug in sysr" in err and "boom from a test" in err
    assert out == ""


def test_usage_errors_exit_2() -> None:
    assert run_process().returncode == 2
    assert run_process("check").returncode == 2
    r = run_process("check", "--depth", "0", str(GOOD))
    assert r.returncode == 2 and "--depth must be at least 1" in r.stderr


def test_exit_statuses_as_a_process() -> None:
    assert run_process("check", "--no-verify", "good/counter.sysr", cwd=CASES).returncode == 0
    assert run_process("check", "--no-verify", "bad/A001-latch.sysr", cwd=CASES).returncode == 1
    assert run_process("check", "--no-verify", "bad/missing.sysr", cwd=CASES).returncode == 2


# ---- human output ----------------------------------------------------------------------------

def test_human_format_has_location_source_line_and_caret(capsys) -> None:
    _, out, _ = run_main(capsys, "check", "--no-verify", str(BAD))
    lines = out.splitlines()
    m = HEADLINE.match(lines[0])
    assert m, lines[0]
    assert m["file"] == str(BAD) and (m["line"], m["col"]) == ("4", "7")
    assert m["sev"] == "error" and m["code"] == "T001"
    source = BAD.read_text().splitlines()[3]
    assert lines[1] == f"   4 | {source}"
    caret = lines[2]
    assert caret.startswith("     | ")
    assert caret.index("^") - len("     | ") == 6  # column 7, under `a + b`
    assert caret.rstrip().endswith("^~~~~")
    assert lines[3].startswith("     = note: ")


def test_human_format_uses_the_path_as_given() -> None:
    r = run_process("check", "--no-verify", "bad/A002-two-drivers.sysr", cwd=CASES)
    first = r.stdout.splitlines()[0]
    assert first.startswith("bad/A002-two-drivers.sysr:6:5: error[A002]: ")
    assert "bad/A002-two-drivers.sysr:4:3: note: first driven here" in r.stdout


def test_every_headline_parses(capsys) -> None:
    for path in sorted((CASES / "bad").glob("*.sysr")):
        _, out, _ = run_main(capsys, "check", "--no-verify", str(path))
        heads = [l for l in out.splitlines() if l.startswith(str(path) + ":") and "error[" in l]
        assert heads, path
        for h in heads:
            assert HEADLINE.match(h), h


# ---- JSON ------------------------------------------------------------------------------------

def check_json_shape(doc: dict) -> None:
    assert set(doc) == {"file", "accepted", "verified", "diagnostics", "diagnostics_omitted", "ports",
                        "ports_omitted", "properties", "properties_omitted", "timing", "text"}
    assert doc["ports"] is None or all(set(p) == {"name", "kind", "type", "width"} for p in doc["ports"])
    assert isinstance(doc["accepted"], bool)
    assert doc["diagnostics_omitted"] == 0 and doc["properties_omitted"] == 0
    assert isinstance(doc["timing"], dict) and doc["timing"]
    assert all(isinstance(v, (int, float)) for v in doc["timing"].values())
    for d in doc["diagnostics"]:
        assert {"code", "severity", "message", "span", "notes"} <= set(d)
        assert re.fullmatch(r"[A-Z]\d{3}", d["code"])
        assert d["severity"] in ("error", "warning", "note")
        assert set(d["span"]) == {"line", "column", "end_line", "end_column"}
        assert all(isinstance(v, int) and v >= 1 for v in d["span"].values())
        assert isinstance(d["notes"], list) and all(isinstance(n, str) for n in d["notes"])


def test_json_for_a_rejected_design(capsys) -> None:
    code, out, _ = run_main(capsys, "check", "--no-verify", "--json", str(BAD))
    assert code == 1
    doc = json.loads(out)
    check_json_shape(doc)
    assert doc["accepted"] is False
    (d,) = doc["diagnostics"]
    assert d["code"] == "T001" and d["severity"] == "error"
    assert d["span"] == {"line": 4, "column": 7, "end_line": 4, "end_column": 12}
    assert d["message"] == "`+` on `u8` and `u16`; both operands must have the same type"
    assert d["notes"] == ["convert one side with `as`"]
    assert {"parse_s", "static_s", "total_s"} <= set(doc["timing"])


def test_json_for_an_accepted_design(capsys) -> None:
    code, out, _ = run_main(capsys, "check", "--no-verify", "--json", str(GOOD))
    assert code == 0
    doc = json.loads(out)
    check_json_shape(doc)
    assert doc["accepted"] is True and doc["diagnostics"] == []


def test_json_for_a_syntax_error(capsys) -> None:
    code, out, _ = run_main(capsys, "check", "--no-verify", "--json", str(CASES / "bad" / "P003-unclosed-module.sysr"))
    assert code == 1
    doc = json.loads(out)
    check_json_shape(doc)
    assert [d["code"] for d in doc["diagnostics"]] == ["P003"]
    assert "parse_s" in doc["timing"]


def test_json_related_spans(capsys) -> None:
    _, out, _ = run_main(capsys, "check", "--no-verify", "--json", str(CASES / "bad" / "A002-two-drivers.sysr"))
    (d,) = json.loads(out)["diagnostics"]
    assert d["related"] == [{"span": {"line": 4, "column": 3, "end_line": 4, "end_column": 4},
                             "message": "first driven here"}]


@pytest.mark.parametrize("path", sorted((CASES / "bad").glob("*.sysr"))[:12], ids=lambda p: p.name)
def test_json_is_one_object(path: Path, capsys) -> None:
    _, out, _ = run_main(capsys, "check", "--no-verify", "--json", str(path))
    check_json_shape(json.loads(out))
