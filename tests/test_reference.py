"""docs/reference.md is the language's user-facing reference (and the benchmark's system prompt):
its code must be real sysr, its code table complete, and its examples must do what they say.

- every ```sysr block parses: a whole file (one that contains `module`) as it is, a fragment
  as a file, as module items, as statements of a `comb` block, or as an expression;
- a block whose first line is `// accept` passes the static checks (and the proofs, when the
  verifier is present);
- a block whose first line is `// expect: CODE ...` is a whole file that gets each code: static
  codes from the static checks; for V codes the static checks must pass, and the verifier (when
  present) must report the code;
- every code in `CODES` is in the reference's code table, with its title, and has an example;
- every design in examples/ passes the static checks (and the proofs, when the verifier is present).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from sysr.diagnostics import CODES, Severity
from sysr.front.parse import parse
from sysr.pipeline import Options, analyze, check

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference.md"
EXAMPLES = sorted((ROOT / "examples").glob("*.sysr"))

# Codes without an example in the reference: the inputs that get them are too large to show
# (tests/test_limits.py has one for each).
NO_EXAMPLE: dict[str, str] = {
    "L001": "a file of over 1 MiB",
    "L002": "bytes that are not UTF-8 text, or a NUL byte, which a Markdown file cannot hold",
    "L003": "an expression nested 512 levels deep",
    "L004": "a literal of over 1024 characters",
    "L006": "over 4096 signals",
    "L008": "running out of memory",
}


def _verifier_present() -> bool:
    try:
        return importlib.util.find_spec("sysr.smt.prove") is not None
    except ImportError:
        return False


needs_verifier = pytest.mark.skipif(not _verifier_present(), reason="the verifier is not built yet")


def _blocks() -> list[tuple[int, str]]:
    """(line number, text) of every ```sysr block in the reference."""
    out = []
    lines = REFERENCE.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sysr":
            start = i + 1
            j = start
            while lines[j].strip() != "```":
                j += 1
            out.append((start + 1, "\n".join(lines[start:j]) + "\n"))
            i = j
        i += 1
    return out


BLOCKS = _blocks()


def _first_line(text: str) -> str:
    return text.splitlines()[0].strip() if text.strip() else ""


def _expected(text: str) -> list[str]:
    m = re.match(r"//\s*expect:\s*(.*)", _first_line(text))
    return m.group(1).split() if m else []


def _is_file(text: str) -> bool:
    return re.search(r"^\s*module\s+\w+\s*\(", text, re.M) is not None


def _ids(blocks) -> list[str]:
    return [f"line{line}" for line, _ in blocks]


def _errors(outcome) -> list[str]:
    return [f"{d.code} {d.span.line}:{d.span.column} {d.message}"
            for d in outcome.diagnostics if d.severity == Severity.ERROR]


def test_reference_has_blocks():
    assert len(BLOCKS) > 40


# ---- every block parses ------------------------------------------------------------------

PARSE_BLOCKS = [b for b in BLOCKS if not any(c.startswith("P") for c in _expected(b[1]))]

WRAPPERS = [
    "{}",
    "module wrap(clk: clock, rst: reset) {{\n{}\n}}\n",
    "module wrap(clk: clock, rst: reset) {{ comb {{\n{}\n}} }}\n",
    "module wrap(clk: clock, rst: reset) {{ x = (\n{}\n); }}\n",
]


@pytest.mark.parametrize("line,text", PARSE_BLOCKS, ids=_ids(PARSE_BLOCKS))
def test_block_parses(line, text):
    if _is_file(text):
        tree, diags = parse(text)
        assert tree is not None and not diags, f"block at line {line}: {[d.message for d in diags]}"
        return
    tried = []
    for wrapper in WRAPPERS:
        tree, diags = parse(wrapper.format(text))
        if tree is not None and not diags:
            return
        tried.append(diags[0].message if diags else "?")
    pytest.fail(f"fragment at line {line} parses in no context: {tried}")


# ---- accepted designs --------------------------------------------------------------------

ACCEPT = [b for b in BLOCKS if _first_line(b[1]) == "// accept"]


def test_some_blocks_are_accepted_designs():
    assert len(ACCEPT) >= 2


@pytest.mark.parametrize("line,text", ACCEPT, ids=_ids(ACCEPT))
def test_accept_block_passes_static_checks(line, text):
    outcome = analyze(text)
    assert outcome.accepted, f"block at line {line}: {_errors(outcome)}"


@needs_verifier
@pytest.mark.parametrize("line,text", ACCEPT, ids=_ids(ACCEPT))
def test_accept_block_is_proven(line, text):
    outcome = check(text, Options())
    assert outcome.accepted, f"block at line {line}: {_errors(outcome)}"


# ---- the code table and its examples -----------------------------------------------------

EXPECT = [b for b in BLOCKS if _expected(b[1])]
# V codes come from the proofs, and the L codes of the examples from elaborating the design for them.
LATE = ("V", "L")
STATIC_EXPECT = [b for b in EXPECT if not any(c.startswith(LATE) for c in _expected(b[1]))]
VERIFY_EXPECT = [b for b in EXPECT if any(c.startswith(LATE) for c in _expected(b[1]))]


def _table_rows() -> dict[str, str]:
    """code -> title, from the rows `| CODE | title | ... |` of the reference."""
    rows = {}
    for line in REFERENCE.read_text().splitlines():
        m = re.match(r"\|\s*([PNTASHVL]\d{3})\s*\|\s*(.*?)\s*\|", line)
        if m:
            rows[m.group(1)] = m.group(2).replace("\\|", "|")
    return rows


def test_every_code_is_in_the_table_with_its_title():
    rows = _table_rows()
    missing = [c for c in CODES if c not in rows]
    assert not missing, f"codes missing from the reference's code table: {missing}"
    wrong = {c: (rows[c], CODES[c]) for c in CODES if rows[c] != CODES[c]}
    assert not wrong, f"titles differ from sysr.diagnostics.CODES: {wrong}"
    unknown = [c for c in rows if c not in CODES]
    assert not unknown, f"the table lists codes that do not exist: {unknown}"


def test_every_code_has_an_example():
    shown = {c for _, text in EXPECT for c in _expected(text)}
    missing = [c for c in CODES if c not in shown and c not in NO_EXAMPLE]
    assert not missing, f"codes without a `// expect:` example in the reference: {missing}"
    assert all(c in CODES for c in shown), f"examples expect unknown codes: {shown - set(CODES)}"


@pytest.mark.parametrize("line,text", STATIC_EXPECT, ids=_ids(STATIC_EXPECT))
def test_static_example_gets_its_code(line, text):
    assert _is_file(text), f"block at line {line} is an `expect` example but not a whole file"
    got = {d.code for d in analyze(text).diagnostics}
    for code in _expected(text):
        assert code in got, f"block at line {line} expects {code}, got {sorted(got)}"


@pytest.mark.parametrize("line,text", VERIFY_EXPECT, ids=_ids(VERIFY_EXPECT))
def test_verification_example_passes_static_checks(line, text):
    outcome = analyze(text)
    assert outcome.accepted, f"block at line {line} must reach the verifier: {_errors(outcome)}"


@needs_verifier
@pytest.mark.parametrize("line,text", VERIFY_EXPECT, ids=_ids(VERIFY_EXPECT))
def test_verification_example_gets_its_code(line, text):
    expected = _expected(text)
    # V003 needs the solver to give up: keep that short.
    options = Options(timeout=3.0) if "V003" in expected else Options()
    got = {d.code for d in check(text, options).diagnostics}
    for code in expected:
        assert code in got, f"block at line {line} expects {code}, got {sorted(got)}"


# ---- examples/ ---------------------------------------------------------------------------

def test_examples_exist_and_are_referenced():
    assert 5 <= len(EXAMPLES) <= 10
    ref = REFERENCE.read_text()
    for path in EXAMPLES:
        assert path.name in ref, f"the reference does not mention examples/{path.name}"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_passes_static_checks(path):
    outcome = analyze(path.read_text())
    assert outcome.accepted, f"{path.name}: {_errors(outcome)}"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_states_properties(path):
    text = path.read_text()
    assert re.search(r"^\s*(ensures|invariant|assert)\b", text, re.M), f"{path.name} states no property"


@needs_verifier
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_is_proven(path):
    outcome = check(path.read_text(), Options(depth=20, induction=2))
    assert outcome.accepted, f"{path.name}: {_errors(outcome)}"
