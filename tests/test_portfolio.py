"""The solver portfolio (sysr.smt.portfolio): Bitwuzla's answers are z3's, and with it on, every
verdict, diagnostic and counterexample trace is what z3 alone gives."""

from __future__ import annotations

from pathlib import Path

import pytest
import z3

from sysr.diagnostics import render
from sysr.pipeline import Options, check
from sysr.smt import portfolio, unroll

pytest.importorskip("bitwuzla")  # installed by `make setup` (the `portfolio` extra)

ROOT = Path(__file__).resolve().parent.parent
DESIGNS = sorted((ROOT / "tests" / "verify").glob("*.sysr")) + sorted((ROOT / "examples").glob("*.sysr"))


@pytest.fixture
def solver():
    yield portfolio.choose
    portfolio.choose("z3")


def test_bitwuzla_decides_what_z3_decides() -> None:
    x, y = z3.BitVecs("x y", 8)
    assert portfolio.decide([x * y == 35, x == 5], 5.0) == "sat"
    assert portfolio.decide([x * y == 35, x == 5, y != 7], 5.0) == "unsat"
    assert portfolio.decide([z3.Or([x == 1]), x == 2], 5.0) == "unsat"  # z3 prints `(or x)`: made standard


def test_a_counted_limit_gives_up_the_same_way_every_time(monkeypatch) -> None:
    a, b = z3.BitVecs("a b", 5)
    wide = z3.SignExt(5, a)
    chain = z3.BitVecVal(0, 10)  # a 5x5 shift-and-add product against `*`: work for the SAT solver
    for i in range(5):
        step = z3.If(z3.Extract(i, i, b) == 1, wide << i, z3.BitVecVal(0, 10))
        chain = chain - step if i == 4 else chain + step
    hard = [chain != wide * z3.SignExt(5, b)]
    monkeypatch.setattr(portfolio, "WORK", 20)
    assert [portfolio.decide(hard, 60.0, counted=True) for _ in range(3)] == [None] * 3
    monkeypatch.setattr(portfolio, "WORK", 10**9)
    assert portfolio.decide(hard, 60.0, counted=True) == "unsat"


def test_a_sat_answer_without_a_model_is_taken_only_where_no_model_is_needed(solver) -> None:
    solver("portfolio")
    x = z3.BitVec("x", 8)
    res, model, _ = unroll.solve_alone([x > 3], 5.0, need_model=False)
    assert (res, model) == (z3.sat, None)
    res, model, _ = unroll.solve_alone([x > 3], 5.0)
    assert res == z3.sat and model is not None and model.eval(x).as_long() > 3


def _outcome(path: Path) -> str:
    text = path.read_text()
    out = check(text, Options())
    props = [{k: v for k, v in p.items() if k != "time_s"} for p in out.properties]
    return "\n".join([render(d, path.name, text) for d in out.diagnostics] + [repr(props)])


@pytest.mark.parametrize("path", DESIGNS, ids=[p.relative_to(ROOT).as_posix() for p in DESIGNS])
def test_verdicts_and_traces_are_z3s(path: Path, solver) -> None:
    alone = _outcome(path)
    solver("portfolio")
    assert _outcome(path) == alone
