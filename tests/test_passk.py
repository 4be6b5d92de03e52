"""The unbiased pass@k estimator against values worked out by hand, and its average over tasks."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from bench.report.passk import mean_pass_at, pass_at_k


@pytest.mark.parametrize("n,c,k,want", [
    (4, 3, 1, 3 / 4),            # one draw: c/n
    (4, 3, 2, 1.0),              # only one failing sample: any two draws hold a pass
    (4, 2, 2, 5 / 6),            # 1 - C(2,2)/C(4,2) = 1 - 1/6
    (4, 1, 2, 1 / 2),            # 1 - C(3,2)/C(4,2) = 1 - 3/6
    (5, 1, 2, 2 / 5),            # 1 - C(4,2)/C(5,2) = 1 - 6/10
    (10, 3, 5, 11 / 12),         # 1 - C(7,5)/C(10,5) = 1 - 21/252
    (20, 0, 10, 0.0),
    (20, 20, 1, 1.0),
])
def test_hand_computed_values(n, c, k, want) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(want, abs=1e-12)


def test_large_n_matches_exact_binomials() -> None:
    n, c, k = 200, 3, 100
    exact = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
    assert pass_at_k(n, c, k) == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize("n,c,k", [(4, 5, 1), (4, 1, 0), (4, 1, 5), (0, 0, 1), (3, -1, 1)])
def test_out_of_range_is_an_error(n, c, k) -> None:
    with pytest.raises(ValueError, match="pass@k needs"):
        pass_at_k(n, c, k)


def test_mean_over_tasks_up_to_the_smallest_n() -> None:
    # task a: 4 samples, 3 solved; task b: 2 samples, none; task c: nothing scorable (left out)
    got = mean_pass_at([(4, 3), (2, 0), (0, 0)])
    assert set(got) == {1, 2}
    assert got[1] == pytest.approx((3 / 4 + 0) / 2) and got[2] == pytest.approx((1 + 0) / 2)
    assert mean_pass_at([(0, 0), (0, 0)]) is None and mean_pass_at([]) is None
