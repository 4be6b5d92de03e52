"""The references: docs/reference.md (the full one, for people) and docs/model-reference.md
(the compact one, the benchmark's system prompt). Their code must be real sysr, the full one's
code table complete, and every example must do what it says.

The marking convention, for every ```sysr block of both: the block is a whole file, and its
first line says what the checker makes of it:
- `// accept`: it passes the static checks, and the proofs when the verifier is present;
- `// expect: CODE ...`: it gets each code: static codes (errors and the S007 warning) from the
  static checks; for V codes (and the L codes of elaborating) the static checks pass and the
  verifier (when present) reports the code.
A block with neither marker, or that is not a whole file, fails the tests.

Also: every code in `CODES` is in the full reference's code table, with its title, and has an
example; every section the table's `see` column names exists; the compact reference names only
real codes, and its inline syntax (in prose) is accepted by the checker; every design in
examples/ passes the static checks (and the proofs).
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
MODEL_REFERENCE = ROOT / "docs" / "model-reference.md"
REFERENCES = (REFERENCE, MODEL_REFERENCE)
EXAMPLES = sorted((ROOT / "examples").glob("*.sysr"))

# Codes without an example in the reference: the inputs that get them are too large to show
# (tests/test_limits.py has one for each).
NO_EXAMPLE: dict[str, str] = {
    "L001": "a file of over 1 MiB",
    "L002": "bytes that are not UTF-8 text, or a NUL byte, which a Markdown file cannot hold",
    "L003": "an expression nested 512 levels deep",
    "L004": "a literal of over 4200 characters",
    "L006": "over 4096 signals",
    "L008": "running out of memory",
    "L009": "over 1,024 instances",
    "L010": "33 modules nested in each other",
}


def _verifier_present() -> bool:
    try:
        return importlib.util.find_spec("sysr.smt.prove") is not None
    except ImportError:
        return False


needs_verifier = pytest.mark.skipif(not _verifier_present(), reason="the verifier is not built yet")


def _blocks(path: Path) -> list[tuple[str, str]]:
    """(where, text) of every ```sysr block in a reference; `where` is `file:line`."""
    out = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sysr":
            start = i + 1
            j = start
            while lines[j].strip() != "```":
                j += 1
            out.append((f"{path.name}:{start + 1}", "\n".join(lines[start:j]) + "\n"))
            i = j
        i += 1
    return out


BLOCKS = _blocks(REFERENCE) + _blocks(MODEL_REFERENCE)


def _first_line(text: str) -> str:
    return text.splitlines()[0].strip() if text.strip() else ""


def _expected(text: str) -> list[str]:
    m = re.match(r"//\s*expect:\s*(.*)", _first_line(text))
    return m.group(1).split() if m else []


def _is_file(text: str) -> bool:
    return re.search(r"^\s*(?:extern\s+)?module\s+\w+\s*[(<#]", text, re.M) is not None


def _ids(blocks) -> list[str]:
    return [where for where, _ in blocks]


def _errors(outcome) -> list[str]:
    return [f"{d.code} {d.span.line}:{d.span.column} {d.message}"
            for d in outcome.diagnostics if d.severity == Severity.ERROR]


def test_references_have_blocks():
    assert len(_blocks(REFERENCE)) > 40
    assert len(_blocks(MODEL_REFERENCE)) >= 2


# ---- every block is marked, whole, and parses ----------------------------------------------

@pytest.mark.parametrize("line,text", BLOCKS, ids=_ids(BLOCKS))
def test_block_is_a_marked_whole_file(line, text):
    first = _first_line(text)
    assert first == "// accept" or _expected(text), \
        f"block at {line} starts with {first!r}: mark it `// accept` or `// expect: CODE ...`"
    assert _is_file(text), f"block at {line} is not a whole file (a module)"


PARSE_BLOCKS = [b for b in BLOCKS if not any(c.startswith("P") for c in _expected(b[1]))]


@pytest.mark.parametrize("line,text", PARSE_BLOCKS, ids=_ids(PARSE_BLOCKS))
def test_block_parses(line, text):
    tree, diags = parse(text)
    assert tree is not None and not [d for d in diags if d.severity == Severity.ERROR], \
        f"block at {line}: {[d.message for d in diags]}"


# ---- accepted designs --------------------------------------------------------------------

ACCEPT = [b for b in BLOCKS if _first_line(b[1]) == "// accept"]


def test_some_blocks_are_accepted_designs():
    assert len(ACCEPT) >= 2


@pytest.mark.parametrize("line,text", ACCEPT, ids=_ids(ACCEPT))
def test_accept_block_passes_static_checks(line, text):
    outcome = analyze(text)
    assert outcome.accepted, f"block at {line}: {_errors(outcome)}"
    assert not outcome.diagnostics, f"block at {line} has warnings: {[d.message for d in outcome.diagnostics]}"


@needs_verifier
@pytest.mark.parametrize("line,text", ACCEPT, ids=_ids(ACCEPT))
def test_accept_block_is_proven(line, text):
    outcome = check(text, Options())
    assert outcome.accepted, f"block at {line}: {_errors(outcome)}"


# ---- the code table and its examples -----------------------------------------------------

EXPECT = [b for b in BLOCKS if _expected(b[1])]
# V codes come from the proofs, and the L codes of the examples from elaborating the design for them.
LATE = ("V", "L")
CHECKER_LIMITS = {"L011"}  # found by the static checks (a fn unrolled there), not by the verifier


def _late(code: str) -> bool:
    return code.startswith(LATE) and code not in CHECKER_LIMITS


STATIC_EXPECT = [b for b in EXPECT if not any(_late(c) for c in _expected(b[1]))]
VERIFY_EXPECT = [b for b in EXPECT if any(_late(c) for c in _expected(b[1]))]


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
    shown = {c for _, text in _blocks(REFERENCE) for c in _expected(text)}
    missing = [c for c in CODES if c not in shown and c not in NO_EXAMPLE]
    assert not missing, f"codes without a `// expect:` example in the reference: {missing}"
    assert all(c in CODES for c in shown), f"examples expect unknown codes: {shown - set(CODES)}"


@pytest.mark.parametrize("line,text", STATIC_EXPECT, ids=_ids(STATIC_EXPECT))
def test_static_example_gets_its_code(line, text):
    assert _is_file(text), f"block at {line} is an `expect` example but not a whole file"
    got = {d.code for d in analyze(text).diagnostics}
    for code in _expected(text):
        assert code in got, f"block at {line} expects {code}, got {sorted(got)}"


@pytest.mark.parametrize("line,text", VERIFY_EXPECT, ids=_ids(VERIFY_EXPECT))
def test_verification_example_passes_static_checks(line, text):
    outcome = analyze(text)
    assert outcome.accepted, f"block at {line} must reach the verifier: {_errors(outcome)}"


@needs_verifier
@pytest.mark.parametrize("line,text", VERIFY_EXPECT, ids=_ids(VERIFY_EXPECT))
def test_verification_example_gets_its_code(line, text):
    expected = _expected(text)
    # V003 needs the solver to give up: keep that short.
    options = Options(timeout=3.0) if "V003" in expected else Options()
    options.cover_traces = "V010" in expected  # (the notes of `--cover-traces`)
    got = {d.code for d in check(text, options).diagnostics}
    for code in expected:
        assert code in got, f"block at {line} expects {code}, got {sorted(got)}"


def test_every_section_the_table_names_exists():
    from sysr.explain import sections, see_sections
    have = sections(REFERENCE.read_text())
    for code in CODES:
        named = see_sections(REFERENCE.read_text(), code)
        assert named, f"{code} names no section in the table's `see` column"
        missing = [n for n in named if n not in have]
        assert not missing, f"{code} names sections the reference does not have: {missing}"


def test_the_compact_reference_names_real_codes():
    named = set(re.findall(r"\b[PNTASHVL]\d{3}\b", MODEL_REFERENCE.read_text()))
    assert named and named <= set(CODES), sorted(named - set(CODES))


# Syntax the compact reference shows inline, in prose: each snippet as it is written there, and a
# whole design around it (`{}` is the snippet) that the checker accepts, so the prose cannot
# drift from the checker either.
INLINE = [
    ("enum Op: u4 { Add = 0, Sub = 8 }", "{}\nmodule m(o: in Op, y: out bool) {{ y = o == Op::Sub; }}"),
    ("fn f(a: u8) -> u9 { let b: u9 = a as u9; b + 1 }",
     "{}\nmodule m(a: in u8, y: out u9) {{ y = f(a); }}"),
    ("`out: out u8`", "module m(in: in u8, {}) {{ out = in; }}"),
    ("`r#match`", "module m(a: in u8, {}: out bool) {{ r#match = a == 0; }}"),
    ("if c { } else if c { } else { }", "module m(c: in bool, y: out u8) {{ comb {{ y = 0; {} }} }}"),
    ("for i in 0..N { }", "const N: u8 = 4;\nmodule m(y: out u8) {{ comb {{ y = 0; {} }} }}"),
    ("`i as u8 + 1`", "module m(y: out u8) {{ comb {{ y = 0; for i in 0..4 {{ y = y + ({}); }} }} }}"),
    ("match e { 0 => { } 1 | 2 => { }, _ => { } }", "module m(e: in u2, y: out u8) {{ comb {{ y = 0; {} }} }}"),
    ("if c then a else if d then b else e",
     "module m(c: in bool, d: in bool, a: in u8, b: in u8, e: in u8, y: out u8) {{ y = {}; }}"),
    ("(a + b)[8:1]", "module m(a: in u9, b: in u9, y: out u8) {{ y = {}; }}"),
    ("prev(x)[i]", "module m(clk: clock, rst: reset, x: in u8, i: in u3, q: out reg u8 = 0) {{\n"
                   "  seq {{ q <= x; }}\n  ensures {} == q[i];\n}}"),
    ("forall i: u3 :: prev(a[i])", "module m(clk: clock, rst: reset, a: in u8, q: out reg u8 = 0) {{\n"
                                   "  seq {{ q <= a; }}\n  ensures ({}) ==> q == 0xff;\n}}"),
    ("~(0xff << n)", "module m(n: in u4, y: out u8) {{ y = {}; }}"),
    ("`popcount` (u8 gives u4)", "module m(a: in u8, y: out u4) {{ y = popcount(a); }}"),
    ("module f<W: int = 8, D: int = 4>(d: in u[W], q: out u[W])", "{} {{ q = d; }}"),
    ("inst u = f<W = 16>(d: a);", "module f<W: int = 8>(d: in u[W], q: out u[W]) {{ q = d; }}\n"
                                  "module m(a: in u16, y: out u16) {{ {} y = u.q; }}"),
    ("const AW: int = clog2(D);", "module f<W: int = 8, D: int = 4>(clk: clock, a: in u[AW], y: out u[W]) {{\n"
                                  "  {} reg m: u[W][D]; y = m[a]; seq {{ m[a] <= 0; }} }}"),
    ("u[W][D]", "module f<W: int = 8, D: int = 4>(clk: clock, a: in u[clog2(D)], y: out u[W]) {{\n"
                "  reg m: {}; y = m[a]; seq {{ m[a] <= 0; }} }}"),
]


@pytest.mark.parametrize("snippet,design", INLINE, ids=[s for s, _ in INLINE])
def test_compact_reference_inline_syntax_is_real(snippet, design):
    assert snippet in MODEL_REFERENCE.read_text(), f"the compact reference no longer shows {snippet!r}"
    text = design.format(snippet.strip("`"))
    outcome = analyze(text)
    assert outcome.accepted and not outcome.diagnostics, f"{text}\n{_errors(outcome)}"


# ---- examples/ ---------------------------------------------------------------------------

def test_examples_exist_and_are_referenced():
    assert 5 <= len(EXAMPLES) <= 19  # a handful (issue 26 adds the new constructs' own), each a pattern the reference points to
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
