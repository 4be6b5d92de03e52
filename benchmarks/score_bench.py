"""Print the scorer's overhead and its parallel speed-up on the references.

A benchmark, not a test: `.venv/bin/python benchmarks/score_bench.py [--lang sysr|verilog|both]`.
For each language it scores every task's reference with 1 job and with 2 jobs, and prints:
the wall time, the summed durations of the bare tool invocations (sysr, Yosys, iverilog, vvp)
the scorer made, their ratio (target: at most 1.2), and the speed-up of 2 jobs over 1 (target:
at least 1.7 on 2 cores).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cli import score_all  # noqa: E402
from bench.tasks import load_tasks  # noqa: E402


def measure(lang: str, jobs: int) -> tuple[float, float, int, int]:
    tasks = load_tasks()
    t0 = time.perf_counter()
    results = score_all(tasks, lang, None, jobs)
    wall = time.perf_counter() - t0
    tools = sum(s.duration_s for r in results for s in r.stages if s.tool)
    passed = sum(r.result == "PASS" for r in results)
    return wall, tools, passed, len(results)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", choices=["sysr", "verilog", "both"], default="both")
    args = ap.parse_args()
    langs = ["verilog", "sysr"] if args.lang == "both" else [args.lang]
    print(f"{'lang':8} {'jobs':>4} {'wall s':>8} {'tools s':>8} {'overhead':>9} {'speed-up':>9} {'PASS':>8}")
    for lang in langs:
        w1, t1, p1, n1 = measure(lang, 1)
        print(f"{lang:8} {1:4d} {w1:8.2f} {t1:8.2f} {w1 / t1:8.2f}x {'':>9} {p1:>3} of {n1}")
        w2, t2, p2, n2 = measure(lang, 2)
        print(f"{lang:8} {2:4d} {w2:8.2f} {t2:8.2f} {'':>9} {w1 / w2:8.2f}x {p2:>3} of {n2}")
    print("targets: overhead <= 1.2x with 1 job; speed-up >= 1.7x with 2 jobs on 2 cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
