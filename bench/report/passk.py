"""The unbiased pass@k estimator and its average over tasks.

For one task with n scorable samples of which c passed, pass@k is the chance that at least one
of k samples drawn without replacement from the n passed: `1 - C(n-c, k) / C(n, k)`. It is
computed as `1 - prod_{i=n-c+1..n} (1 - k/i)`, which never forms the (huge) binomials. A run's
pass@k is the mean over its tasks, for every k up to the smallest n among the tasks that have
any scorable sample; `None` when no task has one.
"""

from __future__ import annotations

import math


def pass_at_k(n: int, c: int, k: int) -> float:
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


def mean_pass_at(per_task: list[tuple[int, int]]) -> dict[int, float] | None:
    """{k: pass@k averaged over tasks} for (n, c) pairs; tasks with n == 0 are left out."""
    scorable = [(n, c) for n, c in per_task if n > 0]
    if not scorable:
        return None
    kmax = min(n for n, _ in scorable)
    return {k: sum(pass_at_k(n, c, k) for n, c in scorable) / len(scorable) for k in range(1, kmax + 1)}
