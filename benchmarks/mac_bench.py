"""Print how long `sysr check` takes on a pipelined MAC whose multiplier is a shift-and-add loop.

A benchmark, not a test: `.venv/bin/python benchmarks/mac_bench.py [--runs N] [--timeout S]`. The
design is `benchmarks/mac_pipe.sysr` (a signed shift-and-add multiplier proven against `*`, a
pipeline register, an accumulator, the top proven against a ghost model) at 8x8 and, made by
`design(16)` from the same template, at 16x16. For each size, in one run and interleaved: the
median wall time of `bin/sysr check` (the command line as a user runs it; and its CPU time,
which a loaded machine does not stretch), and of the standard
open flow on the same design and properties (`sysr lower --formal`, Yosys, `yosys-smtbmc -s z3`
BMC to depth 20 and 2-induction, as `benchmarks/prover_vs_smtbmc.py` runs it), and their ratio.
An arm that reaches --timeout counts at the limit (its ratio is then a bound, `<`).
Targets (issue 28): at most 2 s at 8x8 and at most 60 s at 16x16.
"""

from __future__ import annotations

import argparse
import resource
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

TARGETS = {8: 2.0, 16: 60.0}
EXAMPLE = ROOT / "benchmarks" / "mac_pipe.sysr"


def design(n: int) -> str:
    """The MAC at n x n bits: the example's text with its widths scaled (the product 2n bits,
    the accumulator 3n)."""
    text = EXAMPLE.read_text()
    if n == 8:
        return text
    p, acc = 2 * n, 3 * n
    swaps = [("s16", "\x01"), ("s24", "\x02"), ("s8", f"s{n}"), ("\x01", f"s{p}"), ("\x02", f"s{acc}"),
             ("0..7", f"0..{n - 1}"), ("b[7]", f"b[{n - 1}]"), ("<< 7", f"<< {n - 1}"),
             ("-2^7", f"-2^{n - 1}")]
    for old, new in swaps:
        text = text.replace(old, new)
    return text


def timed(cmd: list[str], timeout_s: float, cpu: list[float]) -> tuple[float, bool]:
    """Wall seconds of `cmd` and whether it succeeded; its CPU seconds are appended to `cpu`."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return timeout_s, False
    finally:
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return time.perf_counter() - t0, r.returncode == 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="runs per size and arm (the median counts)")
    ap.add_argument("--timeout", type=float, default=120.0, help="limit per run of an arm, in seconds")
    ap.add_argument("--sizes", type=int, nargs="*", default=[8, 16])
    args = ap.parse_args(argv)
    met = True
    print(f"{'size':>6} {'sysr s':>8} {'sysr cpu s':>10} {'smtbmc s':>9} {'ratio':>7} {'target s':>9}  notes")
    with tempfile.TemporaryDirectory(prefix="sysr-mac-") as tmp:
        for n in args.sizes:
            src = Path(tmp) / f"mac{n}.sysr"
            src.write_text(design(n))
            code, diags = lower_text(src.read_text(), src.name, formal=True)
            if code is None:
                print(f"{n}x{n}: not lowered: {[d.code for d in diags]}")
                return 1
            times: dict[str, list[float]] = {"sysr": [], "smtbmc": []}
            bad = set()
            cpu: list[float] = []
            for run in range(args.runs):
                arms = [("sysr", lambda: timed([str(ROOT / "bin" / "sysr"), "check", str(src)], args.timeout, cpu)),
                        ("smtbmc", lambda: _smtbmc(code, Path(tmp), args.timeout))]
                for name, arm in (arms if run % 2 == 0 else arms[::-1]):
                    seconds, ok = arm()
                    times[name].append(seconds)
                    if not ok:
                        bad.add(name)
            a, b = statistics.median(times["sysr"]), statistics.median(times["smtbmc"])
            bound = "<" if b >= args.timeout else " "
            target = TARGETS.get(n)
            met &= "sysr" not in bad and (target is None or a <= target)
            notes = ", ".join(f"{arm} did not prove it" for arm in sorted(bad))
            print(f"{n:>3}x{n:<2} {a:8.2f} {statistics.median(cpu):10.2f} {b:9.2f} {bound}{a / b:6.3f} "
                  f"{target or '-':>9}  {notes}")
    print("targets met" if met else "targets NOT met")
    return 0 if met else 1


def _smtbmc(code: str, work: Path, timeout_s: float) -> tuple[float, bool]:
    t0 = time.perf_counter()
    flow = formal_flow(code, 20, 2, work, timeout_s, presat=False)
    return min(time.perf_counter() - t0, timeout_s), flow.verdict == "proven"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
