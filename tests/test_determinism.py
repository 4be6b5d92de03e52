"""A check's verdicts and traces depend on the design and the options alone: not on what the process
did before (a test suite, a language-server session), nor on how loaded the machine is.

Each test reproduces one way they used to depend on it and compares the rendered output with the
design's expected file in tests/verify/ (the one `sysr check` prints in a fresh process).
"""

from __future__ import annotations

import gc
from pathlib import Path

import z3

from sysr.pipeline import Options, check
from sysr.smt import prove, unroll, words
from test_verify import rendered

VERIFY = Path(__file__).parent / "verify"
TRACED = [VERIFY / "prev_divisor.sysr", VERIFY / "div_specs.sysr", VERIFY / "handshake.sysr"]
DIVIDING = [VERIFY / "prev_divisor.sysr", VERIFY / "div_specs.sysr", VERIFY / "div_not_inductive.sysr"]


def expected(path: Path) -> str:
    return path.with_suffix(".expected").read_text()


def output(path: Path) -> str:
    return rendered(path, check(path.read_text(), Options()))


def hold_z3_memory(megabytes: int) -> object:
    """z3 terms of a context of their own, at least `megabytes` of them (a bit-blasted product)."""
    ctx = z3.Context()
    xs = [z3.BitVec(f"x{i}", 256, ctx) for i in range(8)]
    product = xs[0]
    for x in xs[1:]:
        product = product * x
    goal = z3.Goal(ctx=ctx)
    goal.add(product == 12345)
    held = z3.Tactic("bit-blast", ctx)(goal)
    assert z3.Z3_get_estimated_alloc_size() > megabytes << 20
    return held


def test_a_trace_does_not_depend_on_the_memory_the_process_holds() -> None:
    """z3's own strategy skips a step of its bit-vector solving once z3 holds 300 MB in the whole
    process, which changed the counterexample shown (the suite's uncollected garbage once did)."""
    held = hold_z3_memory(320)
    for path in TRACED:
        assert output(path) == expected(path), path.name
    del held


def test_a_trace_does_not_depend_on_where_the_word_level_attempt_stops(monkeypatch) -> None:
    """The word-level attempt has a time limit: wherever it stops, the terms it made must not
    change the query the solver then decides (here it rewrites, simplifies and bit-blasts, then
    runs out of time)."""
    def cut_off(terms, ctx, budget_s):
        goal = z3.Goal(ctx=ctx)
        goal.add(*words.rewritten(terms))
        z3.Then("simplify", "bit-blast", ctx=ctx)(goal)
        raise z3.Z3Exception("canceled")

    monkeypatch.setattr(words, "refuted", cut_off)
    for path in DIVIDING:
        assert output(path) == expected(path), path.name


def test_the_quick_queries_are_limited_by_work_not_time(monkeypatch) -> None:
    """The queries that only save time when they succeed (`settle`, induction over several
    properties at once) stop after a count of z3's work, well before their time backstop: on a
    loaded machine the same ones succeed, so the same queries follow. The others have the
    user's --timeout."""
    made: list[tuple[float, int | None]] = []
    real = unroll.make_solver

    def recording(timeout_s, ctx=None, divides=False, one_shot=False, work=None):
        if one_shot:
            made.append((timeout_s, work))
        return real(timeout_s, ctx, divides, one_shot, work)

    monkeypatch.setattr(unroll, "make_solver", recording)
    outcome = check((VERIFY / "handshake.sysr").read_text(), Options(timeout=7))
    assert outcome.properties
    assert set(made) == {(7, None), (prove.QUICK_S, prove.QUICK_WORK)}


def test_a_finished_check_leaves_no_z3_memory_behind() -> None:
    """Nothing of a check waits for Python's cycle collector: its z3 contexts are freed when it
    returns (they used to stay until a collection, adding up over a session)."""
    text = (Path(__file__).parent.parent / "tasks" / "icache" / "ref.sysr").read_text()
    check(text, Options())
    gc.collect()
    gc.disable()
    try:
        before = z3.Z3_get_estimated_alloc_size()
        check(text, Options())
        left = z3.Z3_get_estimated_alloc_size() - before
    finally:
        gc.enable()
    assert left < 1 << 20, f"{left >> 10} KB of z3 memory left behind"
