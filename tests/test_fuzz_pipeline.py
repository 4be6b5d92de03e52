"""Fuzz the whole command line: no input makes `sysr check` or `sysr lower` fail with exit 2.

Random bytes, token soups, mutated good designs, deep nesting of every kind and huge literals go
through `sysr check --json` (with the proofs, on short time limits) and `sysr lower`, in
process. Each must exit 0 or 1, print one valid JSON object within the report's size bound,
and agree with `sysr lower` on whether the design is fit to lower (lower accepts only what the
static checks accept). Nesting and literals also check the limit's edge: the L code exactly when
the input is past it. Derandomized, about 200 examples, a few seconds each at most.
"""

from __future__ import annotations

import io
import json
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hostile import if_chain, nested_statements, operator_chain, unary_chain
from sysr import cli, limits
from sysr.pipeline import analyze
from test_fuzz import SETTINGS, VOCAB, mutants

WORK = Path(tempfile.mkdtemp(prefix="sysr-fuzz-"))
QUICK = ["--timeout", "1", "--time-limit", "4", "--depth", "3", "--induction", "1"]


def main(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def through_everything(data: bytes | str) -> dict:
    """Check and lower the file; returns the check's JSON report."""
    f = WORK / "fuzz.sysr"
    f.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
    code, out, err = main("check", "--json", *QUICK, str(f))
    assert code in (0, 1), err
    assert len(out.encode()) <= limits.MAX_JSON_BYTES + 1
    report = json.loads(out)
    assert report["accepted"] == (code == 0)
    lowered, _, err = main("lower", str(f), "-o", str(WORK / "fuzz.v"))
    assert lowered in (0, 1), err
    static_errors = any(d["severity"] == "error" and not d["code"].startswith("V") for d in report["diagnostics"])
    if report["verified"] or not static_errors:
        assert lowered == 0, err  # the static checks passed: the design lowers
    elif not any(d["code"].startswith("L") for d in report["diagnostics"]):
        assert lowered == 1
    return report


@settings(SETTINGS, max_examples=50)
@given(st.binary(max_size=400))
def test_random_bytes(data):
    through_everything(data)


@settings(SETTINGS, max_examples=30)
@given(st.lists(st.sampled_from(VOCAB), max_size=60).map(" ".join))
def test_token_soup(text):
    through_everything(text)


@settings(SETTINGS, max_examples=40)
@given(mutants())
def test_mutated_designs(text):
    through_everything(text)


# kind -> (generator, tree levels per unit, levels around): an operator, a unary operator and an
# `if` expression are one level each; an `if` statement is two (the statement and its block).
NESTINGS = {"operator chain": (operator_chain, 1, 3), "if chain": (if_chain, 1, 4),
            "unary chain": (unary_chain, 1, 3), "nested statements": (nested_statements, 2, 6)}


@settings(SETTINGS, max_examples=30)
@given(st.sampled_from(sorted(NESTINGS)), st.integers(0, 2 * limits.MAX_NESTING))
def test_deep_nesting(kind, n):
    make, per, around = NESTINGS[kind]
    outcome = analyze(make(n))
    codes = [d.code for d in outcome.diagnostics]
    if per * n + around > limits.MAX_NESTING:
        assert codes == ["L003"], (kind, n)
    else:
        assert outcome.accepted, (kind, n, codes)
    if n < 40:
        through_everything(make(n))


@settings(SETTINGS, max_examples=30)
@given(st.sampled_from(["", "0x", "0b"]), st.integers(1, 3 * limits.MAX_LITERAL_CHARS), st.sampled_from(["", "u8", "s256"]))
def test_huge_literals(prefix, digits, suffix):
    literal = prefix + ("1" if prefix == "0b" else "9") * digits + suffix
    text = f"module m(a: in u8, y: out bool) {{ y = a == {literal}; }}\n"
    codes = {d.code for d in analyze(text).diagnostics}
    assert ("L004" in codes) == (len(literal) > limits.MAX_LITERAL_CHARS)
    assert codes <= {"L004", "T002", "T001", "T011", "P004"}
    if digits < 100:
        through_everything(text)
