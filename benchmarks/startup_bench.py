"""Time a `sysr check` start-up: with the saved parser tables, and building them (or a baseline).

Not a test: run it by hand, `python benchmarks/startup_bench.py [FILE] [--runs N]
[--baseline DIR]`. Each configuration runs `bin/sysr check FILE` and `bin/sysr check --no-verify
FILE` the way the scorer does (a minimal environment, `HOME` a fresh empty folder), interleaved
run by run so that machine load falls on all of them alike, and prints the median wall and CPU
time of each, then where an import-time profile (`python -X importtime`) says the imports go.

Configurations: `cached` (as installed: the tables saved by `make setup`), `built`
(`SYSR_PARSER_CACHE=off`: the tables built on every start, as before the cache), `portfolio`
(`SYSR_SOLVER=portfolio`: Bitwuzla beside z3, `sysr.smt.portfolio`), and with
`--baseline DIR` also `baseline` (another checkout's `sysr` package, e.g. `git worktree add`
of an older commit, run through this checkout's venv).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYSR = ROOT / "bin" / "sysr"
PYTHON = ROOT / ".venv" / "bin" / "python"


def scorer_env(home: str, extra: dict[str, str]) -> dict[str, str]:
    """The scorer's environment (bench/judge/tools.py: PATH and a C locale; HOME its work folder)."""
    env = {"PATH": os.environ.get("PATH", os.defpath), "LANG": "C", "LC_ALL": "C", "HOME": home}
    env.update(extra)
    return env


def configurations(baseline: str | None) -> dict[str, dict[str, str]]:
    configs = {"cached": {}, "built": {"SYSR_PARSER_CACHE": "off"}, "portfolio": {"SYSR_SOLVER": "portfolio"}}
    if baseline:
        configs["baseline"] = {"PYTHONPATH": str(Path(baseline).resolve())}
    return configs


def timed(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; CPU time (user + system) suffers less from a busy machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {proc.stderr.decode()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def measure(design: Path, runs: int,
            configs: dict[str, dict[str, str]]) -> dict[tuple[str, str], list[tuple[float, float]]]:
    commands = {"check": [str(SYSR), "check", str(design)],
                "check --no-verify": [str(SYSR), "check", "--no-verify", str(design)]}
    times: dict[tuple[str, str], list[tuple[float, float]]] = {(c, k): [] for c in configs for k in commands}
    for _ in range(runs):
        for cname, extra in configs.items():
            for kname, argv in commands.items():
                with tempfile.TemporaryDirectory(prefix="sysr-home-") as home:
                    times[(cname, kname)].append(timed(argv, scorer_env(home, extra), home))
    return times


def import_profile(design: Path, flags: list[str], min_ms: float, runs: int) -> list[tuple[int, float, str]]:
    """The imports of `sysr check` (cached) that take at least `min_ms` including what they import,
    as (depth, milliseconds, module) in import order, outermost first; each the least of `runs`."""
    argv = [str(PYTHON), "-P", "-X", "importtime", "-m", "sysr.cli", "check", *flags, str(design)]
    tree: list[tuple[int, str]] = []
    best: dict[str, float] = {}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="sysr-home-") as home:
            err = subprocess.run(argv, env=scorer_env(home, {}), cwd=home, capture_output=True, text=True).stderr
        rows = []  # importtime prints a module after what it imports: reversed, outermost first
        for line in reversed(err.splitlines()):
            m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| ( *)(\S+)", line)
            if m:
                rows.append((len(m.group(2)) // 2, m.group(3)))
                best[m.group(3)] = min(best.get(m.group(3), float("inf")), int(m.group(1)) / 1000)
        tree = tree or rows
    return [(depth, best[name], name) for depth, name in tree if best[name] >= min_ms]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(ROOT / "tasks" / "pwm" / "ref.sysr"))
    ap.add_argument("--runs", type=int, default=7, help="runs of each command per configuration (median shown)")
    ap.add_argument("--baseline", metavar="DIR", help="also time the sysr package of another checkout")
    ap.add_argument("--import-ms", type=float, default=2.0, help="list imports taking at least this long")
    args = ap.parse_args(argv)
    design = Path(args.file).resolve()
    configs = configurations(args.baseline)
    times = measure(design, args.runs, configs)
    print(f"{design.relative_to(ROOT) if design.is_relative_to(ROOT) else design}: median of {args.runs} "
          "interleaved runs, scorer's environment")
    med = {k: (statistics.median(w for w, _ in ts), statistics.median(c for _, c in ts)) for k, ts in times.items()}
    for (cname, kname), ts in times.items():
        wall_s, cpu_s = med[(cname, kname)]
        print(f"  {cname:9} bin/sysr {kname:18} wall {wall_s:.3f} s (min {min(w for w, _ in ts):.3f}), "
              f"CPU {cpu_s:.3f} s")
    for other in [c for c in configs if c != "cached"]:
        for kname in ("check", "check --no-verify"):
            a, b = med[(other, kname)], med[("cached", kname)]
            print(f"  {other} / cached, {kname}: wall {a[0] / b[0]:.2f}, CPU {a[1] / b[1]:.2f}")
    for flags in ([], ["--no-verify"]):
        rows = import_profile(design, flags, args.import_ms, args.runs)
        total = sum(ms for depth, ms, _ in rows if depth == 0)
        print(f"imports of `sysr check{''.join(' ' + f for f in flags)}` taking {args.import_ms:g} ms or more "
              f"(cumulative, least of {args.runs} runs; {total:.0f} ms at top level):")
        for depth, ms, name in rows:
            print(f"  {ms:7.1f} ms  {'  ' * depth}{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
