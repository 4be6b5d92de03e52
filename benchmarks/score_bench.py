"""Print the scorer's overhead over the bare tools, the sandbox's share of it, and the parallel speed-up.

A benchmark, not a test: `.venv/bin/python benchmarks/score_bench.py [--lang sysr|verilog|both]`.
For each language, on every task's reference:

- bare: the tool runs a scorer cannot do without, made directly one after the other (for sysr
  `sysr check --json` and `sysr lower`; then Yosys reading the ports, Yosys elaborating, Yosys
  synthesizing for tasks with `resources`, iverilog compiling with the testbench, vvp running);
- scorer, 1 job: `bench score` as it is (preprocessing, guard, sandbox, classification, records);
  its wall time over the bare time is the overhead (target: at most 1.2);
- unsandboxed: the same with BENCH_UNSANDBOXED=1, so the sandbox's own cost is the difference;
- scorer, 2 jobs: its speed-up over 1 job (target: at least 1.7 on 2 cores).

The runs alternate (bare, scorer, unsandboxed, bare, ...) `--rounds` times and each figure is the
median, so that load from elsewhere on the machine falls on all of them alike.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cli import score_all  # noqa: E402
from bench.sandbox import OPT_OUT  # noqa: E402
from bench.tasks import Task, load_tasks  # noqa: E402
from bench.tools import find_tool  # noqa: E402
from bench.verilog import PORTS_SCRIPT  # noqa: E402

SYSR = [sys.executable, "-P", "-m", "sysr.cli"]


def bare_task(task: Task, lang: str) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-bare-") as d:
        def run(argv: list[str]) -> None:
            subprocess.run(argv, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

        if lang == "sysr":
            Path(d, "candidate.sysr").write_text(task.text("ref.sysr"))
            run([*SYSR, "check", "--json", "candidate.sysr"])
            run([*SYSR, "lower", "candidate.sysr", "-o", "design.v"])
        else:
            Path(d, "design.v").write_text(task.text("ref.v"))
        Path(d, "tb.v").write_text(task.text("tb.v"))
        yosys = find_tool("yosys")
        run([yosys, "-q", "-p", PORTS_SCRIPT])
        run([yosys, "-p", f"read_verilog design.v; hierarchy -check -top {task.top}; proc; check; stat"])
        if task.resources is not None:
            script = task.resources.script.replace("TOP", task.top)
            run([yosys, "-p", f"read_verilog design.v; {script}; stat"])
        run([find_tool("iverilog"), "-g2005", "-o", "sim", "tb.v", "design.v"])
        run([find_tool("vvp"), "-n", "sim"])


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def scorer(tasks: list[Task], lang: str, jobs: int, sandboxed: bool = True) -> float:
    old = os.environ.pop(OPT_OUT, None)
    if not sandboxed:
        os.environ[OPT_OUT] = "1"
    try:
        t0 = time.perf_counter()
        results = score_all(tasks, lang, None, jobs)
        wall = time.perf_counter() - t0
    finally:
        os.environ.pop(OPT_OUT, None)
        if old is not None:
            os.environ[OPT_OUT] = old
    failed = [r.task for r in results if r.result != "PASS"]
    if failed:
        raise SystemExit(f"references did not pass in {lang}: {failed}")
    return wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", choices=["sysr", "verilog", "both"], default="both")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (median reported; default 3)")
    args = ap.parse_args()
    langs = ["verilog", "sysr"] if args.lang == "both" else [args.lang]
    tasks = load_tasks()
    print(f"{len(tasks)} tasks, {args.rounds} rounds, medians; times in seconds")
    print(f"{'lang':8} {'bare':>7} {'scorer':>7} {'overhead':>9} {'no sandbox':>11} {'sandbox':>8} "
          f"{'2 jobs':>7} {'speed-up':>9}")
    for lang in langs:
        bare, full, free, two = [], [], [], []
        for _ in range(args.rounds):
            bare.append(timed(lambda: [bare_task(t, lang) for t in tasks]))
            full.append(scorer(tasks, lang, 1))
            free.append(scorer(tasks, lang, 1, sandboxed=False))
            two.append(scorer(tasks, lang, 2))
        b, f, u, t = (statistics.median(x) for x in (bare, full, free, two))
        print(f"{lang:8} {b:7.2f} {f:7.2f} {f / b:8.2f}x {u:11.2f} {f - u:8.2f} {t:7.2f} {f / t:8.2f}x")
    print("targets: overhead (scorer / bare) <= 1.2x; speed-up of 2 jobs >= 1.7x on 2 cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
