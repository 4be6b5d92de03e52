"""The static checks on a folder of designs: tests/cases/good (accepted) and tests/cases/bad (rejected).

Every bad file starts with `// expect: CODE[ CODE...]`, the sorted unique codes that the static
checks (parse, names, types, structure, spec rules, holes; no proofs) give for it. Next to every
case, `<name>.expected` holds what `sysr check --no-verify` prints for it, with the path relative
to tests/cases. `SYSR_UPDATE=1 pytest tests/test_cases.py` rewrites the .expected files.
"""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from sysr import cli
from sysr.diagnostics import CODES, Severity, render
from sysr.pipeline import analyze

CASES = Path(__file__).parent / "cases"
GOOD = sorted((CASES / "good").glob("*.sysr"))
BAD = sorted((CASES / "bad").glob("*.sysr"))
STATIC_GROUPS = ("P", "N", "T", "A", "S", "H")
EXPECT = re.compile(r"// expect: ([A-Z][0-9]{3}(?: [A-Z][0-9]{3})*)\s*$")


def rel(path: Path) -> str:
    return path.relative_to(CASES).as_posix()


def expected_codes(path: Path) -> list[str]:
    first = path.read_text().splitlines()[0]
    m = EXPECT.match(first)
    assert m, f"{rel(path)}: the first line must be `// expect: CODE[ CODE...]`, not {first!r}"
    codes = m.group(1).split()
    assert codes == sorted(set(codes)), f"{rel(path)}: list the expected codes sorted and once each"
    return codes


def rendered(path: Path) -> str:
    """What `sysr check --no-verify` prints for the file, built from `analyze`."""
    text = path.read_text()
    outcome = analyze(text)
    out = [render(d, rel(path), text) + "\n\n" for d in outcome.diagnostics]
    out.append(f"{rel(path)}: {cli._summary(outcome)}\n")
    return "".join(out)


def cli_output(path: Path, monkeypatch) -> str:
    monkeypatch.chdir(CASES)
    buf = io.StringIO()
    with redirect_stdout(buf):
        cli.main(["check", "--no-verify", rel(path)])
    return buf.getvalue()


@pytest.mark.parametrize("path", GOOD, ids=rel)
def test_static_checks_accept_good_design(path: Path) -> None:
    outcome = analyze(path.read_text())
    errors = [f"{d.span.line}:{d.span.column} {d.code} {d.message}" for d in outcome.diagnostics
              if d.severity == Severity.ERROR]
    assert not errors, f"{rel(path)} should be accepted by the static checks"
    assert outcome.design is not None


@pytest.mark.parametrize("path", BAD, ids=rel)
def test_static_checks_give_expected_codes(path: Path) -> None:
    outcome = analyze(path.read_text())
    got = sorted({d.code for d in outcome.diagnostics})
    assert got == expected_codes(path)
    assert not outcome.accepted


@pytest.mark.parametrize("path", GOOD + BAD, ids=rel)
def test_static_checks_render_as_expected(path: Path, update_expected: bool) -> None:
    exp = path.with_suffix(".expected")
    out = rendered(path)
    if update_expected:
        exp.write_text(out)
    assert exp.exists(), f"no {rel(exp)}; run `SYSR_UPDATE=1 pytest tests/test_cases.py`"
    assert out == exp.read_text(), f"{rel(exp)} differs; if intended, regenerate with SYSR_UPDATE=1"


@pytest.mark.parametrize("path", GOOD[:2] + BAD, ids=rel)
def test_cli_prints_the_expected_file(path: Path, monkeypatch) -> None:
    exp = path.with_suffix(".expected")
    assert cli_output(path, monkeypatch) == exp.read_text()


def test_every_static_code_has_a_bad_case() -> None:
    static = {c for c in CODES if c.startswith(STATIC_GROUPS)}
    covered = {code for path in BAD for code in expected_codes(path)}
    assert not static - covered, f"no bad case triggers {sorted(static - covered)}"
    assert covered <= set(CODES)


def test_enough_good_designs() -> None:
    assert len(GOOD) >= 12


def test_expected_files_have_no_machine_paths() -> None:
    for exp in CASES.glob("*/*.expected"):
        text = exp.read_text()
        assert "/work/" not in text and "/home/" not in text and "/tmp/" not in text, rel(exp)


def test_no_stray_expected_files() -> None:
    for exp in CASES.glob("*/*.expected"):
        assert exp.with_suffix(".sysr").exists(), f"{rel(exp)} has no design next to it"
