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

It prints each arm's median wall time, their ratio sysr/smtbmc per design, the median and
largest ratio, and the designs where sysr takes more than 0.1 s longer. Targets (issue 28):
median at most 0.5, none more than 0.1 s slower than smtbmc (issue 12's were a median of at most
1.0 and none above 3.0). An arm that exceeds --timeout counts at the limit (its ratio is then a
bound, marked `<` or `>`).
"""

from __future__ import annotations

import argparse
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

TARGET_MEDIAN, TARGET_SLOWER_S = 0.5, 0.1


def sysr_check(path: Path, timeout_s: float) -> tuple[float, bool]:
    t0 = time.perf_counter()
    try:
        r = subprocess.run([str(ROOT / "bin" / "sysr"), "check", str(path)], capture_output=True,
                           timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return timeout_s, False
    return time.perf_counter() - t0, r.returncode == 0


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
    times: dict[Path, dict[str, list[float]]] = {f: {"sysr": [], "smtbmc": []} for f, _, _ in designs}
    bad: dict[Path, set[str]] = {f: set() for f, _, _ in designs}
    with tempfile.TemporaryDirectory(prefix="sysr-vs-smtbmc-") as tmp:
        for run in range(args.runs):
            print(f"run {run + 1}/{args.runs}", file=sys.stderr, flush=True)
            for f, code, stateless in designs:
                arms = [("sysr", lambda: sysr_check(f, args.timeout)),
                        ("smtbmc", lambda: smtbmc_flow(code, stateless, Path(tmp), args.timeout))]
                for name, arm in (arms if run % 2 == 0 else arms[::-1]):  # alternate which goes first
                    seconds, ok = arm()
                    times[f][name].append(seconds)
                    if not ok:
                        bad[f].add(name)
    print(f"{'design':34} {'sysr s':>8} {'smtbmc s':>9} {'ratio':>7}  notes")
    ratios, slower = [], []
    for f, _, _ in designs:
        a, b = statistics.median(times[f]["sysr"]), statistics.median(times[f]["smtbmc"])
        ratio = a / b
        ratios.append(ratio)
        if a - b > TARGET_SLOWER_S:
            slower.append(f.stem if f.parent.name == "examples" else f.parent.name)
        bound = ">" if b >= args.timeout else "<" if a >= args.timeout else " "
        notes = ", ".join(f"{arm} did not prove it" for arm in sorted(bad[f]))
        name = str(f.relative_to(ROOT)) if f.is_relative_to(ROOT) else str(f)
        print(f"{name:34} {a:8.3f} {b:9.3f} {bound}{ratio:6.2f}  {notes}")
    med, top = statistics.median(ratios), max(ratios)
    print(f"{len(ratios)} designs, {args.runs} runs each: median ratio {med:.2f} (target <= {TARGET_MEDIAN:g}), "
          f"largest {top:.2f}; more than {TARGET_SLOWER_S:g} s slower than smtbmc (target: none): "
          f"{len(slower)} ({', '.join(slower) or '-'})")
    return 0 if med <= TARGET_MEDIAN and not slower else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
