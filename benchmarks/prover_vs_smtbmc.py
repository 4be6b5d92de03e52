"""Print `sysr check` against the standard open formal flow on the same designs and properties.

A benchmark, not a test: `.venv/bin/python benchmarks/prover_vs_smtbmc.py [--runs N] [FILES...]`
(default: every task reference and every example). For each design, in one run and interleaved:

- sysr: `bin/sysr check FILE`, the command line as a user runs it (interpreter start-up included);
- smtbmc: on the design's `sysr lower --formal` output (written beforehand, as a user of that flow
  writes the Verilog with its assertions), `yosys -p "read_verilog -formal; prep; async2sync; dffunmap;
  write_smt2"` (`bench.checker.smtbmc.YOSYS_SCRIPT`),
  then `yosys-smtbmc -s z3 -t 20` (BMC from the initial state to the checker's depth) and
  `yosys-smtbmc -s z3 -i -t 2` (k-induction with the checker's k).

Both arms get the same depth (20 cycles from reset, k = 2; a design without state 1 and 1, as
the checker does), the same properties (the `--formal` Verilog asserts the checker's properties
and assumes its `requires`, with its semantics) and start from the command line. What the
smtbmc flow includes: one Yosys run and two yosys-smtbmc runs (each a Python process driving a
z3 process over a pipe). What it leaves out that `sysr check` does: whether the `requires` can
hold in each cycle (V001; smtbmc's `--presat`, not passed), the random runs and queries for the
conditions of implications and for covers (V009, V008), the parse and static checks, and the
trace replayed on the evaluator; sysr is not given a lighter check to compare (no option is
changed from a user's default).

sysr runs two ways, as a user gets them: cold (`SYSR_SERVER=0`: a new Python process imports
sysr and z3, as without a server) and through the check server (`sysr server start`, started by
this script in a runtime folder of its own before the runs and stopped after; `sysr.server`).

It prints each arm's median wall time, the ratios sysr/smtbmc per design, for each sysr arm the
median and largest ratio and the designs where it takes more than 0.1 s longer than smtbmc, and
a start-up figure: a small design (`tasks/counter/ref.sysr`) checked cold and through the server
against the same interpreter running `python -c pass` and `python -c "import z3"`. Targets (issue
28): median at most 0.5, none more than 0.1 s slower than smtbmc, a small design in at most
0.15 s (issue 12's were a median of at most 1.0 and none above 3.0). An arm that exceeds
--timeout counts at the limit (its ratio is then a bound, marked `<` or `>`). The exit status
is 0 when the server arm meets the targets.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.checker.smtbmc import formal_flow  # noqa: E402
from sysr.lower import lower_text  # noqa: E402

TARGET_MEDIAN, TARGET_SLOWER_S, TARGET_STARTUP_S = 0.5, 0.1, 0.15
SYSR = str(ROOT / "bin" / "sysr")
PYTHON = str(ROOT / ".venv" / "bin" / "python")
SMALL = ROOT / "tasks" / "counter" / "ref.sysr"


def sysr_check(path: Path, timeout_s: float, env: dict[str, str]) -> tuple[float, bool]:
    t0 = time.perf_counter()
    try:
        r = subprocess.run([SYSR, "check", str(path)], capture_output=True, timeout=timeout_s, env=env)
    except subprocess.TimeoutExpired:
        return timeout_s, False
    return time.perf_counter() - t0, r.returncode == 0


def timed(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, capture_output=True, env=env, check=True)
    return time.perf_counter() - t0


def startup(runs: int, cold: dict[str, str], served: dict[str, str]) -> None:
    """The start-up figure: a small design against the interpreter's own start-up, interleaved."""
    arms = {"python -c pass": ([PYTHON, "-P", "-c", "pass"], cold),
            "python -c 'import z3'": ([PYTHON, "-P", "-c", "import z3"], cold),
            f"sysr check {SMALL.relative_to(ROOT)} (cold)": ([SYSR, "check", str(SMALL)], cold),
            f"sysr check {SMALL.relative_to(ROOT)} (server)": ([SYSR, "check", str(SMALL)], served)}
    times: dict[str, list[float]] = {name: [] for name in arms}
    for run in range(runs):
        for name, (argv, env) in (list(arms.items()) if run % 2 == 0 else list(arms.items())[::-1]):
            times[name].append(timed(argv, env))
    base = statistics.median(times["python -c pass"])
    print(f"\nstart-up, {runs} runs each (median wall s; multiple of `python -c pass`):")
    for name, ts in times.items():
        med = statistics.median(ts)
        target = f"  (target <= {TARGET_STARTUP_S:g} s: {'met' if med <= TARGET_STARTUP_S else 'not met'})" \
            if name.startswith("sysr") else ""
        print(f"  {name:44} {med:7.3f} {med / base:6.1f}x{target}")


def summary(label: str, ratios: list[float], slower: list[str], runs: int) -> bool:
    med, top = statistics.median(ratios), max(ratios)
    print(f"{label}: {len(ratios)} designs, {runs} runs each: median ratio {med:.2f} (target <= {TARGET_MEDIAN:g}), "
          f"largest {top:.2f}; more than {TARGET_SLOWER_S:g} s slower than smtbmc (target: none): "
          f"{len(slower)} ({', '.join(slower) or '-'})")
    return med <= TARGET_MEDIAN and not slower


def start_server(folder: str) -> dict[str, str]:
    """`sysr server start` in a runtime folder of this run's; the environment of its clients."""
    os.chmod(folder, 0o700)
    env = {k: v for k, v in os.environ.items() if k != "SYSR_SERVER"}
    env["SYSR_RUNTIME_DIR"] = folder
    subprocess.run([SYSR, "server", "start"], env=env, check=True, capture_output=True)
    return env


def smtbmc_flow(verilog: str, stateless: bool, workdir: Path, timeout_s: float) -> tuple[float, bool]:
    t0 = time.perf_counter()
    depth, k = (1, 1) if stateless else (20, 2)
    flow = formal_flow(verilog, depth, k, workdir, timeout_s, presat=False)
    return min(time.perf_counter() - t0, timeout_s), flow.verdict == "proven"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--runs", type=int, default=5, help="runs per design and arm (default 5; the median counts)")
    ap.add_argument("--timeout", type=float, default=120.0, help="limit per run of an arm, in seconds")
    args = ap.parse_args(argv)
    files = args.files or sorted(ROOT.glob("tasks/*/ref.sysr")) + sorted((ROOT / "examples").glob("*.sysr"))
    from sysr.elab import elaborate
    from sysr.pipeline import analyze
    designs = []
    for f in files:
        text = f.read_text()
        code, _ = lower_text(text, f.name, formal=True)
        if code is None:
            print(f"{f}: not accepted by the static checks; skipped", file=sys.stderr)
            continue
        designs.append((f, code, not elaborate(analyze(text).design).state))
    arms = ("sysr", "sysr+server", "smtbmc")
    times: dict[Path, dict[str, list[float]]] = {f: {a: [] for a in arms} for f, _, _ in designs}
    bad: dict[Path, set[str]] = {f: set() for f, _, _ in designs}
    cold = {**os.environ, "SYSR_SERVER": "0"}
    with tempfile.TemporaryDirectory(prefix="sysr-vs-smtbmc-") as tmp, \
            tempfile.TemporaryDirectory(prefix="sysr-run-") as run_dir:
        served = start_server(run_dir)
        try:
            for run in range(args.runs):
                print(f"run {run + 1}/{args.runs}", file=sys.stderr, flush=True)
                for f, code, stateless in designs:
                    order = [("sysr", lambda: sysr_check(f, args.timeout, cold)),
                             ("sysr+server", lambda: sysr_check(f, args.timeout, served)),
                             ("smtbmc", lambda: smtbmc_flow(code, stateless, Path(tmp), args.timeout))]
                    for name, arm in (order if run % 2 == 0 else order[::-1]):  # alternate which goes first
                        seconds, ok = arm()
                        times[f][name].append(seconds)
                        if not ok:
                            bad[f].add(name)
            startup(max(args.runs * 2, 10), cold, served)
            state = subprocess.run([SYSR, "server", "status"], env=served, capture_output=True, text=True).stdout
            print(f"(the server arm: {state.strip()})", file=sys.stderr)
        finally:
            subprocess.run([SYSR, "server", "stop"], env=served, capture_output=True)
    print(f"\n{'design':34} {'sysr s':>8} {'server s':>9} {'smtbmc s':>9} {'ratio':>7} {'server':>7}  notes")
    ratios: dict[str, list[float]] = {"sysr": [], "sysr+server": []}
    slower: dict[str, list[str]] = {"sysr": [], "sysr+server": []}
    for f, _, _ in designs:
        b = statistics.median(times[f]["smtbmc"])
        cells = []
        for arm in ratios:
            a = statistics.median(times[f][arm])
            ratios[arm].append(a / b)
            if a - b > TARGET_SLOWER_S:
                slower[arm].append(f.stem if f.parent.name == "examples" else f.parent.name)
            bound = ">" if b >= args.timeout else "<" if a >= args.timeout else " "
            cells.append(f"{bound}{a / b:6.2f}")
        notes = ", ".join(f"{arm} did not prove it" for arm in sorted(bad[f]))
        name = str(f.relative_to(ROOT)) if f.is_relative_to(ROOT) else str(f)
        print(f"{name:34} {statistics.median(times[f]['sysr']):8.3f} {statistics.median(times[f]['sysr+server']):9.3f} "
              f"{b:9.3f} {cells[0]} {cells[1]}  {notes}")
    summary("cold (SYSR_SERVER=0)", ratios["sysr"], slower["sysr"], args.runs)
    met = summary("with the check server", ratios["sysr+server"], slower["sysr+server"], args.runs)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
