"""Run every task reference and example under `sysr sim` for 10,000 random cycles.

A benchmark, not a test (tests/test_sim.py runs 300 cycles): `.venv/bin/python
benchmarks/sim_random.py [--cycles N] [--seed S] [FILES...]`. Prints, per design, whether every
property held in every cycle (random inputs within the `requires`, the reset active in 2% of
the cycles), the cycles run, how often z3 chose the inputs, and the time; exit 1 if any failed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sysr.sim import SimOptions, simulate  # noqa: E402


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cycles", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("files", nargs="*", type=Path)
    args = ap.parse_args(argv)
    files = args.files or sorted(ROOT.glob("tasks/*/ref.sysr")) + sorted(ROOT.glob("tasks/*/split.sysr")) + \
        sorted((ROOT / "examples").glob("*.sysr"))
    bad = 0
    print(f"{'design':36} {'verdict':8} {'cycles':>7} {'solver':>6} {'time':>8}")
    for f in files:
        t0 = time.perf_counter()
        r = simulate(f.read_text(), SimOptions(cycles=args.cycles, seed=args.seed))
        dt = time.perf_counter() - t0
        name = str(f.relative_to(ROOT)) if f.resolve().is_relative_to(ROOT) else str(f)
        verdict = "held" if r.passed else "FAILED"
        bad += not r.passed
        extra = ""
        if r.failure is not None:
            extra = f"  {r.failure.kind} in cycle {r.failure.cycle}: " + "; ".join(p.text for p in r.failure.props)
        print(f"{name:36} {verdict:8} {len(r.cycles):7} {r.solver_calls:6} {dt:7.1f}s{extra}", flush=True)
    print(f"{len(files)} designs, {bad} with a property that failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
