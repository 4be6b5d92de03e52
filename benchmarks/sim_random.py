"""Run every task reference and example under `sysr sim` for 10,000 random cycles, and every
seeded bug until its property fails.

A benchmark, not a test (tests/test_sim.py runs 300 cycles, and this script on two designs):
`.venv/bin/python benchmarks/sim_random.py [--cycles N] [--seed S] [--bugs FILES...] [FILES...]`.
Prints, per reference, whether every property held in every cycle (random inputs within the
`requires`, the reset active in 2% of the cycles), and per seeded bug (`tests/seeded`,
`tests/designs27/bugs`; the reset in 0.5% of the cycles, so that deep bugs are reached) the
cycle in which its property fails and which property; with the cycles run, how often z3 chose
the inputs, and the time. Exit 1 if a reference failed or a bug was not caught.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sysr.sim import SimOptions, simulate  # noqa: E402

BUG_RESET_RATE = 0.005


def references() -> list[Path]:
    return sorted(ROOT.glob("tasks/*/ref.sysr")) + sorted(ROOT.glob("tasks/*/split.sysr")) + \
        sorted((ROOT / "examples").glob("*.sysr"))


def bugs() -> list[Path]:
    return sorted((ROOT / "tests" / "seeded").glob("*.sysr")) + \
        sorted((ROOT / "tests" / "designs27" / "bugs").glob("*.sysr"))


def run(f: Path, cycles: int, seed: int, buggy: bool) -> tuple[bool, str]:
    """(as expected, the printed row)."""
    opts = SimOptions(cycles=cycles, seed=seed, reset_rate=BUG_RESET_RATE if buggy else 0.02)
    t0 = time.perf_counter()
    r = simulate(f.read_text(), opts)
    dt = time.perf_counter() - t0
    name = str(f.resolve().relative_to(ROOT)) if f.resolve().is_relative_to(ROOT) else str(f)
    failed = r.failure is not None and r.failure.kind == "property"
    if r.diagnostics:
        verdict, ok = "ERROR", False
    elif r.failure is not None and r.failure.kind == "extern":
        verdict, ok = "skipped", True  # an extern module has no body to run (sysr sim says so)
    elif buggy:
        verdict, ok = ("caught" if failed else "MISSED"), failed
    else:
        verdict, ok = ("held" if r.passed else "FAILED"), r.passed
    extra = ""
    if r.failure is not None and r.failure.kind != "extern":
        extra = f"  {r.failure.kind} fails in cycle {r.failure.cycle}: " + "; ".join(p.text for p in r.failure.props)
    return ok, f"{name:48} {verdict:8} {len(r.cycles):7} {r.solver_calls:6} {dt:7.1f}s{extra}"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cycles", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bugs", nargs="*", type=Path, help="seeded bugs (default: all)")
    ap.add_argument("files", nargs="*", type=Path, help="references (default: all)")
    args = ap.parse_args(argv)
    refs = args.files or ([] if args.bugs else references())
    buggy = args.bugs if args.bugs is not None else ([] if args.files else bugs())
    bad = {False: 0, True: 0}
    print(f"{'design':48} {'verdict':8} {'cycles':>7} {'solver':>6} {'time':>8}")
    for group, files in ((False, refs), (True, buggy)):
        for f in files:
            ok, row = run(f, args.cycles, args.seed, group)
            bad[group] += not ok
            print(row, flush=True)
    print(f"{len(refs)} designs, {bad[False]} with a property that failed; "
          f"{len(buggy)} seeded bugs, {len(buggy) - bad[True]} caught with the cycle named")
    return 1 if any(bad.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
