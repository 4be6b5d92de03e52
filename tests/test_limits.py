"""The checker never crashes on a design: limits with their own codes, bounded reports, no internal error.

Every hostile input of tests/hostile.py (each crash of issue 11 among them) is run just past the
limit it meets, through `sysr check --json` and `sysr lower` in-process: exit 1, valid JSON, the
expected L code. Real designs are checked to pass with every limit ten times tighter. The rest
pins down the pieces: the report's size bound and what it says it left out, trace and excerpt
windows, memory and recursion failures turned into L008 and L003, z3 failing and the proofs'
time limit turned into V003, and bad files (not UTF-8, NUL bytes, empty, a directory).
"""

from __future__ import annotations

import io
import json
import resource
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
import z3

from hostile import ATTACKS, doubling_instances, operator_chain
from sysr import cli, limits, pipeline
from sysr.diagnostics import Diagnostic, Severity, Span, Trace, error, render
from sysr.elab import elaborate
from sysr.lower import lower_text
from sysr.pipeline import Options, analyze, check
from sysr.report import fit, human, json_report
from test_verify import HARD_AND_EASY

ROOT = Path(__file__).resolve().parent.parent
REAL = sorted(p for d in ("tasks", "examples", "tests/cases/good", "tests/verify", "tests/lower", "tests/seeded")
              for p in (ROOT / d).rglob("*.sysr"))
QUICK = ["--timeout", "2", "--time-limit", "10", "--depth", "4"]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def checked(path: Path) -> tuple[int, dict]:
    code, out, _ = run("check", "--json", *QUICK, str(path))
    return code, json.loads(out)


def write(tmp_path: Path, text: str | bytes) -> Path:
    f = tmp_path / "candidate.sysr"
    f.write_bytes(text if isinstance(text, bytes) else text.encode())
    return f


# ---- every hostile input -------------------------------------------------------------------

@pytest.mark.parametrize("name", [n for n, a in ATTACKS.items() if not a.memory])
def test_hostile_input_is_rejected_with_its_code(name: str, tmp_path: Path) -> None:
    attack = ATTACKS[name]
    f = write(tmp_path, attack.make(attack.test_size))
    code, data = checked(f)
    assert code == 1 and data["accepted"] is False
    assert attack.test_code in {d["code"] for d in data["diagnostics"]}
    assert len(json.dumps(data, indent=2)) <= limits.MAX_JSON_BYTES
    code, _, err = run("lower", str(f), "-o", str(tmp_path / "out.v"))
    assert code == 1 and f"[{attack.test_code}]" in err and err.rstrip().endswith("not lowered: the design has errors")


def test_the_issue_crashes_at_their_own_size(tmp_path: Path) -> None:
    """~260 chained operators (a RecursionError before) is an ordinary design now; a 5,000-digit
    literal (int()'s digit limit before) is L004."""
    code, data = checked(write(tmp_path, operator_chain(260)))
    assert code == 0 and data["accepted"] and data["verified"]
    code, data = checked(write(tmp_path, ATTACKS["long literal"].make(5000)))
    assert code == 1 and [d["code"] for d in data["diagnostics"]] == ["L004"]


def test_nesting_just_inside_the_limit_is_checked_and_lowered() -> None:
    text = operator_chain(limits.MAX_NESTING - 10)
    outcome = check(text, Options(depth=2, timeout=5))
    assert outcome.accepted and outcome.verified
    code, _ = lower_text(text, "m.sysr")
    assert code is not None and code.count("a + a") >= 1


def test_a_hierarchy_too_large_to_flatten_is_still_proven_module_by_module(monkeypatch) -> None:
    """Eleven levels of two instances each: 1,024 leaves when flattened, past a size limit made
    small here. Each module is proven on its own (no flattening), and the top's counterexample,
    which would be replayed on the flattened hierarchy, keeps its trace and says why it was not."""
    text = doubling_instances(11)
    assert "the contract of `m10` is too weak" in check(text, Options(depth=2)).diagnostics[0].notes[1]
    monkeypatch.setattr(limits, "MAX_DESIGN_SIZE", 2_000)
    outcome = check(text, Options(depth=2))
    (d,) = outcome.diagnostics
    assert d.code == "V002" and d.trace is not None and "assert y != 7" in d.message
    assert "the real hierarchy is too large to run on these inputs (the design is too large" in d.notes[1]
    code, _ = lower_text(text, "d.sysr")
    assert code is not None and code.count("\nmodule ") == 12  # top, m10 .. m0: not 2,047 copies


def test_limit_diagnostics_say_what_to_do(tmp_path: Path) -> None:
    code, data = checked(write(tmp_path, ATTACKS["nested quantifiers"].make(3)))
    (d,) = data["diagnostics"]
    assert d["code"] == "L005" and "131072 instances" in d["message"]
    assert d["span"]["line"] == 5 and "narrower" in d["notes"][0]
    code, data = checked(write(tmp_path, ATTACKS["many ports"].make(4100)))
    (d,) = data["diagnostics"]
    assert d["message"] == "`m` declares 4,104 signals (ports, registers, memories and wires); the checker takes at most 4,096"


def test_running_out_of_memory_under_a_limit_is_L008(tmp_path: Path) -> None:
    """As the benchmark runs it (an address-space limit; here 1 GiB): z3 reaches its cap, the
    proofs stop, and the process exits 1 with L008 instead of aborting."""
    attack = ATTACKS["wide multipliers"]
    f = write(tmp_path, attack.make(attack.test_size))
    limit = attack.memory << 20

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    r = subprocess.run([sys.executable, "-m", "sysr.cli", "check", "--json", str(f)], capture_output=True,
                       text=True, preexec_fn=limited, cwd=ROOT, timeout=170)
    assert r.returncode == 1, r.stderr[-2000:]
    (d,) = json.loads(r.stdout)["diagnostics"]
    assert d["code"] == "L008" and d["message"] == ("the checker ran out of memory while proving the properties "
                                                    "(this process may use 1024 MiB)")


# ---- real designs are far inside the limits --------------------------------------------------

TIGHTER = ["MAX_FILE_BYTES", "MAX_NESTING", "MAX_INLINED_NESTING", "MAX_LITERAL_CHARS", "MAX_NAME_CHARS",
           "MAX_SIGNALS", "MAX_QUANT_INSTANCES", "MAX_DESIGN_SIZE"]


# Stress designs written to sit near a limit: a 512-cell rule-110 step is 20,000-odd operations,
# a tenth of MAX_DESIGN_SIZE. They are held to a quarter of the limits instead.
NEAR_A_LIMIT = {ROOT / "tests/lower/rule110.sysr"}


def _within_limits(paths) -> None:
    for path in paths:
        outcome = analyze(path.read_text())
        assert not [d for d in outcome.diagnostics if d.code.startswith("L")], path
        if outcome.accepted:
            elaborate(outcome.design)


def test_stress_designs_pass_with_every_limit_four_times_tighter(monkeypatch) -> None:
    for name in TIGHTER:
        monkeypatch.setattr(limits, name, getattr(limits, name) // 4)
    _within_limits(sorted(NEAR_A_LIMIT))


def test_real_designs_pass_with_every_limit_ten_times_tighter(monkeypatch) -> None:
    for name in TIGHTER:
        monkeypatch.setattr(limits, name, getattr(limits, name) // 10)
    assert len(REAL) > 100 and NEAR_A_LIMIT <= set(REAL)
    for path in (p for p in REAL if p not in NEAR_A_LIMIT):
        outcome = analyze(path.read_text())
        assert not [d for d in outcome.diagnostics if d.code.startswith("L")], path
        if outcome.accepted:
            elaborate(outcome.design)
            code, diags = lower_text(path.read_text(), path.name)
            assert code is not None, (path, [d.message for d in diags])


# ---- bounded reports -----------------------------------------------------------------------

def test_a_flood_of_diagnostics_is_cut_and_counted(tmp_path: Path) -> None:
    f = write(tmp_path, ATTACKS["diagnostic flood"].make(300))
    code, out, _ = run("check", "--json", str(f))
    data = json.loads(out)
    assert len(data["diagnostics"]) == limits.MAX_DIAGNOSTICS
    assert data["diagnostics_omitted"] == 300 - limits.MAX_DIAGNOSTICS
    assert [d["span"]["line"] for d in data["diagnostics"]] == list(range(2, 2 + limits.MAX_DIAGNOSTICS))
    assert data["text"].endswith(f"{f}: 200 more diagnostic(s) not shown: the first 100 errors and warnings "
                                 f"are, in source order; fix those first\n\n{f}: rejected: 300 error(s)")
    code, out, _ = run("check", str(f))
    assert out.count("error[N001]") == limits.MAX_DIAGNOSTICS and "200 more diagnostic(s) not shown" in out


def test_errors_are_shown_before_warnings_when_cut() -> None:
    warn = [Diagnostic("N001", f"w{i}", Span(i + 1, 1, i + 1, 2), Severity.WARNING) for i in range(150)]
    errs = [error("N001", "late", Span(500, 1, 500, 2))]
    outcome = pipeline.Outcome(None, warn + errs)
    text = human(outcome, "f.sysr", "")
    assert "error[N001]: late" in text and text.count("warning[N001]") == limits.MAX_DIAGNOSTICS - 1


def big_trace(rows: int, cols: int, cell: str = "0x" + "f" * 64) -> Trace:
    return Trace("trace:", tuple(f"c{i}" for i in range(cols)), tuple((cell,) * cols for _ in range(rows)),
                 rows - 1, ("reg",) * cols)


def test_no_report_is_larger_than_the_bound() -> None:
    """Hundreds of diagnostics, each with a long message, many notes and a wide trace, and as many
    properties with traces: still valid JSON within the bound, with what was cut counted."""
    trace = big_trace(200, 10)
    diags = [Diagnostic("V002", "m" * 5000, Span(i + 1, 1, i + 1, 2), Severity.ERROR, ("n" * 3000,) * 40,
                        (), trace) for i in range(500)]
    props = [{"kind": "assert", "text": "p" * 5000, "status": "refuted", "trace": trace.to_json()}] * 500
    outcome = pipeline.Outcome(None, diags, {}, props, True)
    out = json_report(outcome, "f.sysr", "x\n" * 1000)
    assert len(out) <= limits.MAX_JSON_BYTES
    data = json.loads(out)
    assert len(data["diagnostics"]) + data["diagnostics_omitted"] == 500
    assert len(data["properties"]) + data["properties_omitted"] == 500
    assert data["diagnostics"][0]["trace"]["first_cycle"] == 200 - limits.MAX_TRACE_ROWS
    assert data["diagnostics"][0]["message"].endswith("[... 4,000 more characters]")


def test_fit_gives_up_gracefully_on_anything() -> None:
    report = {"file": "f", "accepted": False, "verified": False, "diagnostics": [{"code": "X", "m": "y" * 10**6}],
              "diagnostics_omitted": 0, "properties": [], "properties_omitted": 0, "timing": {}, "text": "t" * 10**6}
    out = fit(report)
    assert len(out) <= limits.MAX_JSON_BYTES
    data = json.loads(out)
    assert data["diagnostics"] == [{"code": "X"}] and data["text"].endswith("more characters]")
    report["diagnostics"] = [{"code": "X" * 10**6}]
    data = json.loads(fit(report))
    assert data["diagnostics"] == [] and data["diagnostics_omitted"] == 1


def test_trace_window_keeps_the_failing_cycle() -> None:
    t = big_trace(100, 40, "7")
    lines = t.render().splitlines()
    assert lines[1].split()[:2] == ["cycle", "c0"] and len(lines[1].split()) == 1 + limits.MAX_TRACE_COLUMNS
    assert lines[2].split()[0] == str(100 - limits.MAX_TRACE_ROWS)
    assert lines[-3].startswith("> ") and lines[-3].split()[1] == "99"
    assert lines[-2:] == [f"  (cycles 0 to {100 - limits.MAX_TRACE_ROWS - 1} are not shown)",
                          f"  ({40 - limits.MAX_TRACE_COLUMNS} more columns are not shown)"]
    j = t.to_json()
    assert j["failing_cycle"] == 99 and j["first_cycle"] == 36 and len(j["rows"]) == limits.MAX_TRACE_ROWS


def test_a_long_line_is_shown_around_the_error() -> None:
    text = ATTACKS["many ports"].make(10).replace("\n", " ") + " " * 400 + "oops"
    col = text.index("oops") + 1
    d = error("P001", "unexpected", Span(1, col, 1, col + 4))
    _, line, caret = render(d, "f", text).splitlines()
    assert len(line) <= limits.MAX_EXCERPT_CHARS + 16 and line.endswith("oops")
    assert line[caret.index("^"):caret.index("^") + 4] == "oops"


# ---- failures inside the pipeline become diagnostics ------------------------------------------

GOOD = (ROOT / "tests" / "cases" / "good" / "counter.sysr")


def test_memory_error_in_the_static_checks_is_L008(monkeypatch, tmp_path: Path) -> None:
    def exhausted(design):
        raise MemoryError
    monkeypatch.setattr(pipeline, "check_hierarchy", exhausted)
    code, data = checked(GOOD)
    assert code == 1 and [d["code"] for d in data["diagnostics"]] == ["L008"]
    assert data["diagnostics"][0]["message"].startswith("the checker ran out of memory while checking the design")


def test_memory_error_in_the_lowering_is_L008(monkeypatch) -> None:
    import sysr.lower as lowering

    def exhausted(hierarchy, name):
        raise MemoryError
    monkeypatch.setattr(lowering, "lower_hierarchy", exhausted)
    code, _, err = run("lower", str(GOOD))
    assert code == 1 and "error[L008]: the checker ran out of memory while lowering the design" in err


def test_z3_out_of_memory_outside_a_query_is_L008(monkeypatch) -> None:
    from sysr.smt import prove

    def exhausted(self):
        raise z3.Z3Exception("out of memory")
    monkeypatch.setattr(prove.Prover, "run", exhausted)
    code, data = checked(GOOD)
    assert code == 1 and [d["code"] for d in data["diagnostics"]] == ["L008"]
    assert "while proving the properties" in data["diagnostics"][0]["message"]


def test_recursion_past_the_stack_is_L003(monkeypatch) -> None:
    def deep(design):
        return deep(design)
    monkeypatch.setattr(pipeline, "check_hierarchy", deep)
    outcome = analyze(GOOD.read_text())
    assert [d.code for d in outcome.diagnostics] == ["L003"]


def test_z3_failing_in_a_query_is_V003(monkeypatch) -> None:
    def failing(self, *assumptions):
        raise z3.Z3Exception("invalid argument")
    monkeypatch.setattr(z3.Solver, "check", failing)
    outcome = check(GOOD.read_text(), Options())
    assert {d.code for d in outcome.diagnostics} == {"V003"} and not outcome.accepted
    assert "(the solver failed: invalid argument)" in outcome.diagnostics[0].message
    assert {p["status"] for p in outcome.properties} == {"unknown"}


def test_z3_out_of_memory_in_a_query_stops_the_proofs_with_L008(monkeypatch) -> None:
    def exhausted(self, *assumptions):
        return z3.unknown
    monkeypatch.setattr(z3.Solver, "check", exhausted)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "out of memory")
    outcome = check(GOOD.read_text(), Options())
    assert [d.code for d in outcome.diagnostics] == ["L008"] and not outcome.verified
    assert z3.get_param("memory_max_size") == "0"  # lifted, so that freeing z3's objects cannot fail


def test_the_time_limit_ends_the_proofs_with_V003() -> None:
    t0 = time.monotonic()
    outcome = check(HARD_AND_EASY, Options(timeout=60, time_limit=1.5))
    assert time.monotonic() - t0 < 20
    assert {d.code for d in outcome.diagnostics} == {"V003"}
    assert "the check's time limit of 1.5 s ran out" in outcome.diagnostics[-1].message
    assert outcome.properties[-1]["status"] == "unknown" and not outcome.accepted


def test_past_the_deadline_nothing_is_proven() -> None:
    outcome = check(GOOD.read_text(), Options(deadline=time.monotonic() - 1))
    assert [d.code for d in outcome.diagnostics] == ["V003"] and not outcome.accepted
    assert "time limit" in outcome.diagnostics[0].message
    assert {p["status"] for p in outcome.properties} == {"unknown"}


# ---- bad files -----------------------------------------------------------------------------

def test_nul_byte_is_L002_at_its_place(tmp_path: Path) -> None:
    code, data = checked(write(tmp_path, b"module m(a: in u8,\n y: out u8) {\x00 y = a; }\n"))
    (d,) = data["diagnostics"]
    assert code == 1 and d["code"] == "L002" and (d["span"]["line"], d["span"]["column"]) == (2, 14)


def test_empty_file_says_so(tmp_path: Path) -> None:
    code, data = checked(write(tmp_path, "  // nothing here\n"))
    assert code == 1 and data["diagnostics"][0]["message"].startswith("the file is empty")


def test_too_large_file_is_not_read(tmp_path: Path) -> None:
    f = write(tmp_path, "")
    with f.open("wb") as out:
        out.truncate(50 * 2**20)  # sparse: 50 MiB without writing them
    code, data = checked(f)
    assert code == 1 and data["diagnostics"][0]["message"].startswith("the file is 52,428,800 bytes")


def test_unreadable_paths_are_usage_errors_with_json(tmp_path: Path) -> None:
    code, out, err = run("check", "--json", str(tmp_path))
    assert code == 2 and "is a directory" in err
    assert json.loads(out)["error"] == f"{tmp_path} is a directory, not a design file"
    code, out, _ = run("check", "--json", str(tmp_path / "missing.sysr"))
    assert code == 2 and json.loads(out)["accepted"] is False


def test_internal_error_with_json_still_prints_json(monkeypatch) -> None:
    def broken(design):
        raise RuntimeError("boom")
    monkeypatch.setattr(pipeline, "check_hierarchy", broken)
    code, out, err = run("check", "--json", str(GOOD))
    assert code == 2 and "Traceback" in err
    assert json.loads(out)["error"] == "internal error (a bug in sysr, not in the design): RuntimeError: boom"
