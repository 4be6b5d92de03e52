"""Print how long the yosys-smtbmc cross-check (`bench.checker.crosscheck`) takes on each design of
tests/test_formal.py, one design at a time: the checker, Yosys, BMC and k-induction.

A benchmark, not a test: `.venv/bin/python benchmarks/crosscheck_times.py [--all] [FILES...]`.
By default the designs of the default test run (not `SLOW`); `--all` adds the slow ones. The
test runs the designs two at a time, so a test's own duration in `pytest --durations` includes
waiting for the designs before it; these figures are each design alone. A design whose flow takes
more than `SLOW_S` belongs in `SLOW` (run by benchmarks/crosscheck_full.py).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.checker.crosscheck import cross_check  # noqa: E402
from test_formal import ACCEPTED, REJECTED, SLOW, rel  # noqa: E402

SLOW_S = 5.0


def main(argv: list[str]) -> int:
    every = "--all" in argv
    named = [Path(a).resolve() for a in argv if a != "--all"]
    designs = named or [p for p in ACCEPTED + REJECTED if every or rel(p) not in SLOW]
    print(f"{'design':48} {'verdict':14} {'check':>6} {'yosys':>6} {'bmc':>7} {'ind':>7} {'total':>7}", flush=True)
    rows = []
    for path in designs:
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="sysr-times-") as d:
            r = cross_check(path, Path(d))
        total = time.perf_counter() - t0
        f = r.flow
        stages = (f.prep.seconds, f.bmc.seconds, f.induction.seconds) if f else (0.0, 0.0, 0.0)
        verdict = f.verdict if f else "not lowered"
        rows.append((total, rel(path)))
        mark = "  SLOW" if total > SLOW_S and rel(path) not in SLOW else ""
        print(f"{rel(path):48} {verdict:14} {r.check_s:6.2f} {stages[0]:6.2f} {stages[1]:7.2f} {stages[2]:7.2f} "
              f"{total:7.2f}{mark}", flush=True)
    over = [name for total, name in rows if total > SLOW_S]
    print(f"{len(rows)} designs, {sum(t for t, _ in rows):.1f} s in all; over {SLOW_S:g} s: {', '.join(over) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
