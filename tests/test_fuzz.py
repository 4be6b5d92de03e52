"""Fuzz the front end: mutated good designs and random text never crash, hang or lose a span.

Each example runs `sysr.pipeline.analyze` (parse and static checks) twice under a wall-clock
alarm, then checks the outcome: the same both times, accepted or at least one error, every
diagnostic with a known code, a span inside the file, and a rendering. Mutations work on tokens
(a simple regex tokeniser) of the designs in tests/cases/good; "respelling" a name, literal,
type or operator as another of its kind keeps many mutants parseable, so they reach the checker.
Designs from tests/gen_designs.py must pass the static checks (no false alarms). About 325
examples in all, derandomized, so that CI runs are repeatable and take seconds.
"""

from __future__ import annotations

import json
import re
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sysr.diagnostics import CODES, Severity, render
from sysr.pipeline import analyze

GOOD = sorted((Path(__file__).parent / "cases" / "good").glob("*.sysr"))
SOURCES = [p.read_text() for p in GOOD]
BUDGET_S = 5  # per example; the front end takes milliseconds on these files

_TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|\s+|[A-Za-z_][A-Za-z_0-9]*|[0-9][0-9A-Za-z_]*|"
                    r"==>|::|\.\.|=>|<=|>=|==|!=|<<|>>|&&|\|\||\?[A-Za-z_]\w*|.", re.S)
VOCAB = ["module", "reg", "wire", "comb", "seq", "ghost", "if", "else", "match", "for", "in",
         "let", "fn", "enum", "const", "requires", "ensures", "invariant", "assert", "prev",
         "forall", "exists", "as", "then", "u8", "s4", "bool", "u300", "0", "1u2", "0xff", "-",
         "{", "}", "(", ")", "[", "]", ";", ":", ",", "=", "<=", "=>", "::", "..", "?h", "_",
         "popcount", "clock", "reset", "reset_n", "areset", "areset_n", "out", "x", "clk", "rst",
         "r#match", "r#", "/", "%"]

OPERATORS = {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "==>"}
KEYWORDS = {"module", "reg", "wire", "comb", "seq", "ghost", "if", "else", "match", "for", "in", "out", "let",
            "fn", "enum", "const", "requires", "ensures", "invariant", "assert", "forall", "exists", "as", "then",
            "true", "false", "clock", "reset", "reset_n", "areset", "areset_n"}
EXTRA = {"op": sorted(OPERATORS), "type": ["bool", "u1", "u3", "s8", "u16", "u256"],
         "int": ["0", "1", "7", "255", "256", "0xff", "3u2", "1s1"], "name": ["prev", "popcount", "x", "clk"]}

SETTINGS = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def tokens(text: str) -> list[str]:
    """Split text into tokens, keeping whitespace and comments so that joining gives it back."""
    return _TOKEN.findall(text)


@contextmanager
def time_budget(seconds: float):
    """Fail the example (instead of hanging the run) if the block takes longer than `seconds`."""
    def on_alarm(signum, frame):
        raise TimeoutError(f"analyze took more than {seconds} s")
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def check_outcome(text: str) -> None:
    """The properties every input must have: no exception, no hang, sound diagnostics that render."""
    with time_budget(BUDGET_S):
        outcome = analyze(text)
        again = analyze(text)
    first = [d.to_json() for d in outcome.diagnostics]
    assert [d.to_json() for d in again.diagnostics] == first, "two runs on the same text disagree"
    n_lines = text.count("\n") + 1
    errors = [d for d in outcome.diagnostics if d.severity == Severity.ERROR]
    assert outcome.accepted == (not errors)
    if outcome.design is None:
        assert errors, "no design and no error"
    for d in outcome.diagnostics:
        assert d.code in CODES, d
        s = d.span
        assert 1 <= s.line <= n_lines + 1, (d, n_lines)
        assert s.column >= 1, d
        assert s.line <= s.end_line <= n_lines + 1, d
        assert d.message.strip(), d
        json.dumps(d.to_json())
        assert render(d, "fuzz.sysr", text).startswith(f"fuzz.sysr:{s.line}:{s.column}: ")


def token_class(tok: str) -> str | None:
    """Tokens of one class can replace each other and usually keep the file parseable."""
    if tok in OPERATORS:
        return "op"
    if re.fullmatch(r"[us][0-9]+|bool", tok):
        return "type"
    if re.fullmatch(r"[0-9]\w*", tok):
        return "int"
    if re.fullmatch(r"[A-Za-z_]\w*", tok) and tok not in KEYWORDS:
        return "name"
    return None


def respell(draw, toks: list[str]) -> None:
    """Replace one name, literal, type or operator by another of its class (mostly still parses)."""
    spots = [(i, token_class(t)) for i, t in enumerate(toks) if token_class(t)]
    if not spots:
        return
    i, cls = draw(st.sampled_from(spots))
    pool = sorted({t for t in toks if token_class(t) == cls} | set(EXTRA[cls]))
    toks[i] = draw(st.sampled_from(pool))


@st.composite
def mutants(draw) -> str:
    """A good design with one to four token edits: delete, duplicate, swap, replace, insert, respell."""
    toks = tokens(draw(st.sampled_from(SOURCES)))
    for _ in range(draw(st.integers(1, 4))):
        if not toks:
            break
        i = draw(st.integers(0, len(toks) - 1))
        j = draw(st.integers(0, len(toks) - 1))
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "insert", "respell", "respell"]))
        if kind == "respell":
            respell(draw, toks)
        elif kind == "delete":
            del toks[i]
        elif kind == "duplicate":
            toks.insert(i, toks[i])
        elif kind == "swap":
            toks[i], toks[j] = toks[j], toks[i]
        elif kind == "replace":
            toks[i] = toks[j]
        else:
            toks.insert(i, " " + draw(st.sampled_from(VOCAB)) + " ")
    return "".join(toks)


def test_tokeniser_round_trips():
    for text in SOURCES:
        assert "".join(tokens(text)) == text


def test_good_files_exist():
    assert len(SOURCES) >= 12


@SETTINGS
@given(mutants())
def test_mutated_designs_never_crash(text):
    check_outcome(text)


@settings(SETTINGS, max_examples=80)
@given(st.lists(st.sampled_from(VOCAB), max_size=60).map(" ".join))
def test_token_soup_never_crashes(text):
    check_outcome(text)


def generated_designs():
    """tests/gen_designs.py's strategy of random well-typed designs, or None when it is not there."""
    try:
        from gen_designs import designs
    except ImportError:  # pragma: no cover - the generator belongs to the differential tests
        return None
    return designs()


GENERATED = generated_designs()


@pytest.mark.skipif(GENERATED is None, reason="tests/gen_designs.py is not available")
@settings(SETTINGS, max_examples=25)
@given(GENERATED if GENERATED is not None else st.nothing())
def test_generated_designs_pass_the_static_checks(gen):
    with time_budget(BUDGET_S):
        outcome = analyze(gen.text)
    errors = [f"{d.span.line}:{d.span.column} {d.code} {d.message}" for d in outcome.diagnostics
              if d.severity == Severity.ERROR]
    assert not errors


@settings(SETTINGS, max_examples=60)
@given(st.text(max_size=200))
def test_random_text_never_crashes(text):
    check_outcome(text)


@settings(SETTINGS, max_examples=40)
@given(st.sampled_from(SOURCES), st.text(alphabet="\n\t \r\x0c\x00{};/*", max_size=5), st.integers(0, 10_000))
def test_odd_characters_never_crash(source, junk, at):
    at %= len(source) + 1
    check_outcome(source[:at] + junk + source[at:])
