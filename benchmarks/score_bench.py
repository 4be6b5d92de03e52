"""Print the scorer's overhead over the bare tools, the sandbox's share of it, and the parallel speed-up.

A benchmark, not a test: `.venv/bin/python benchmarks/score_bench.py [--lang sysr|verilog|both]`.
For each language, on every task's reference:

- bare: the tool runs a scorer cannot do without, made directly one after the other (for sysr
  `sysr check --json` and `sysr lower`; then Yosys reading the ports, Yosys elaborating, Yosys
  synthesizing for tasks with `resources`, Verilator's lint when it is installed, iverilog
  compiling with the testbench, vvp running);
- scorer, 1 job: `bench score` as it is (preprocessing, guard, sandbox, classification, records);
  its wall time over the bare time is the overhead (target: at most 1.2); "in runs" is the time
  its own tool runs took as its records say (sandbox included), and "orchestr." the scorer's
  wall time over that (what the scorer adds around its tool runs);
- unsandboxed: the same with BENCH_UNSANDBOXED=1, so the sandbox's own cost is the difference;
- scorer, 2 jobs: its speed-up over 1 job (target: at least 1.7 on 2 cores);
- cached: all the references scored a second time with the result cache (`bench.judge.cache`) warm,
  1 job, in this process: what a repeated `bench score` costs besides starting Python.

The three single-job measurements alternate task by task (bare, scorer, unsandboxed; `--rounds`
times each) and the per-task medians are summed, so that load from elsewhere on the machine falls
on all of them alike; the 2-job figure is the median of `--rounds` whole `bench score` runs.
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

from bench.judge.cache import ResultCache  # noqa: E402
from bench.judge.lint import args as lint_args  # noqa: E402
from bench.cli.main import score_all  # noqa: E402
from bench.judge.sandbox import OPT_OUT  # noqa: E402
from bench.judge.score import Scorer  # noqa: E402
from bench.judge.tasks import Task, load_tasks  # noqa: E402
from bench.judge.tools import ToolMissing, find_tool  # noqa: E402
from bench.verilog.ports import PORTS_SCRIPT  # noqa: E402

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
        try:  # the lint stage, when Verilator is here (the scorer runs it then)
            subprocess.run([find_tool("verilator"), *lint_args(task.top, "verilog-2005", "design.v")], cwd=d,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        except ToolMissing:
            pass
        run([find_tool("iverilog"), "-g2005", "-o", "sim", "tb.v", "design.v"])
        run([find_tool("vvp"), "-n", "sim"])


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


class Unsandboxed:
    """BENCH_UNSANDBOXED=1 for the duration of a `with`."""

    def __enter__(self) -> None:
        self.old = os.environ.get(OPT_OUT)
        os.environ[OPT_OUT] = "1"

    def __exit__(self, *exc) -> None:
        if self.old is None:
            os.environ.pop(OPT_OUT, None)
        else:
            os.environ[OPT_OUT] = self.old


RUNS: list[float] = []  # the recorded durations of the scorer's tool runs, one sum per score_one


def score_one(task: Task, lang: str) -> None:
    r = Scorer().score(task, lang, task.text("ref.v" if lang == "verilog" else "ref.sysr"))
    if r.result != "PASS":
        raise SystemExit(f"{task.name}'s reference did not pass in {lang}: {r.result}: {r.detail}")
    RUNS.append(sum(s.duration_s for s in r.stages if s.tool))


def unsandboxed_one(task: Task, lang: str) -> None:
    with Unsandboxed():
        score_one(task, lang)


def cached(tasks: list[Task], lang: str) -> float:
    """Seconds to score every reference again with the result cache warm."""
    with tempfile.TemporaryDirectory(prefix="bench-cache-") as d:
        score_all(tasks, lang, None, 1, cache=ResultCache(Path(d)))
        return timed(lambda: score_all(tasks, lang, None, 1, cache=ResultCache(Path(d))))


def measure(tasks: list[Task], lang: str, rounds: int) -> tuple[float, ...]:
    """(bare, scorer, its tool runs, unsandboxed, 2 jobs) in seconds, for all the tasks."""
    sums = [0.0, 0.0, 0.0, 0.0]
    for task in tasks:
        samples: list[list[float]] = [[], [], []]
        runs = []
        for _ in range(rounds):
            for i, fn in enumerate((bare_task, score_one, unsandboxed_one)):
                samples[i].append(timed(lambda: fn(task, lang)))
                if fn is score_one:
                    runs.append(RUNS[-1])
        for i in range(3):
            sums[i] += statistics.median(samples[i])
        sums[3] += statistics.median(runs)
    two = statistics.median(timed(lambda: score_all(tasks, lang, None, 2)) for _ in range(rounds))
    return sums[0], sums[1], sums[3], sums[2], two


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", choices=["sysr", "verilog", "both"], default="both")
    ap.add_argument("--rounds", type=int, default=3, help="rounds per task (medians reported; default 3)")
    args = ap.parse_args()
    langs = ["verilog", "sysr"] if args.lang == "both" else [args.lang]
    tasks = load_tasks()
    with Unsandboxed():
        score_one(tasks[0], "verilog")  # say once that it runs unsandboxed, before the table
    score_one(tasks[0], "verilog")  # tool versions, the sandbox probe, iface ports: once per process
    print(f"{len(tasks)} tasks, {args.rounds} rounds, medians; times in seconds; load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"{'lang':8} {'bare':>7} {'scorer':>7} {'overhead':>9} {'in runs':>8} {'orchestr.':>9} "
          f"{'no sandbox':>11} {'sandbox':>8} {'2 jobs':>7} {'speed-up':>9} {'cached':>7}")
    for lang in langs:
        b, f, r, u, t = measure(tasks, lang, args.rounds)
        c = cached(tasks, lang)
        print(f"{lang:8} {b:7.2f} {f:7.2f} {f / b:8.2f}x {r:8.2f} {f / r:8.2f}x {u:11.2f} {f - u:8.2f} "
              f"{t:7.2f} {f / t:8.2f}x {c:7.3f}")
    print("load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print("targets: overhead (scorer / bare) <= 1.2x; speed-up of 2 jobs >= 1.7x on 2 cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
