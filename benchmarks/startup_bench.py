"""Time a `sysr check` start-up against its interpreter's, with the saved parser tables and without.

Not a test: run it by hand, `python benchmarks/startup_bench.py [FILES...] [--runs N] [--all]
[--baseline DIR]` (default: examples/stream_reg.sysr and examples/bcd_counter.sysr, issue 28's
small designs). Each configuration runs `bin/sysr check FILE` and `bin/sysr check --no-verify
FILE` the way the scorer does (a minimal environment, `HOME` a fresh empty folder), interleaved
run by run with two peers, so that machine load falls on all of them alike:

- `python -c pass`: the same interpreter (the venv's, `-P`) starting and doing nothing;
- `python -c "import z3"`: the same, importing the solver's Python API (a floor for any check
  that proves something).

It prints the median wall and CPU time of each, the check's time as a multiple of each peer's
(the figure to compare across machines and loads), whether the check's median wall time is
within issue 28's target (0.15 s), then where an import-time profile (`python -X importtime`)
says the imports go.

Configurations: `cached` (as installed: the tables saved by `make setup`); with `--all` also
`built` (`SYSR_PARSER_CACHE=off`: the tables built on every start, as before the cache) and
`portfolio` (`SYSR_SOLVER=portfolio`: Bitwuzla beside z3, `sysr.smt.portfolio`); with
`--baseline DIR` also `baseline` (another checkout's `sysr` package, e.g. `git worktree add` of
an older commit, run through this checkout's venv).
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


TARGET_S = 0.15  # issue 28: a small design checked from the command line
PEERS = {"python -c pass": [str(PYTHON), "-P", "-c", "pass"],
         "python -c 'import z3'": [str(PYTHON), "-P", "-c", "import z3"]}


def configurations(baseline: str | None, every: bool) -> dict[str, dict[str, str]]:
    configs: dict[str, dict[str, str]] = {"cached": {}}
    if every:
        configs.update({"built": {"SYSR_PARSER_CACHE": "off"}, "portfolio": {"SYSR_SOLVER": "portfolio"}})
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
    """(configuration, command) -> (wall, CPU) of each run; the peers under ("peer", name)."""
    commands = {"check": [str(SYSR), "check", str(design)],
                "check --no-verify": [str(SYSR), "check", "--no-verify", str(design)]}
    times: dict[tuple[str, str], list[tuple[float, float]]] = {(c, k): [] for c in configs for k in commands}
    times.update({("peer", name): [] for name in PEERS})
    for _ in range(runs):
        for name, argv in PEERS.items():
            with tempfile.TemporaryDirectory(prefix="sysr-home-") as home:
                times[("peer", name)].append(timed(argv, scorer_env(home, {}), home))
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


def report(design: Path, runs: int, times: dict[tuple[str, str], list[tuple[float, float]]]) -> bool:
    """Print one design's figures; whether its check is within the target."""
    print(f"{design.relative_to(ROOT) if design.is_relative_to(ROOT) else design}: median of {runs} "
          "interleaved runs, scorer's environment")
    med = {k: (statistics.median(w for w, _ in ts), statistics.median(c for _, c in ts)) for k, ts in times.items()}
    for (cname, kname), ts in times.items():
        wall_s, cpu_s = med[(cname, kname)]
        label = kname if cname == "peer" else f"{cname:9} bin/sysr {kname}"
        print(f"  {label:38} wall {wall_s:.3f} s (min {min(w for w, _ in ts):.3f}), CPU {cpu_s:.3f} s")
    check = med[("cached", "check")]
    for name in PEERS:
        peer = med[("peer", name)]
        print(f"  check / {name}: wall {check[0] / peer[0]:.2f}, CPU {check[1] / peer[1]:.2f}")
    for other in sorted({c for c, _ in times} - {"cached", "peer"}):
        for kname in ("check", "check --no-verify"):
            a, b = med[(other, kname)], med[("cached", kname)]
            print(f"  {other} / cached, {kname}: wall {a[0] / b[0]:.2f}, CPU {a[1] / b[1]:.2f}")
    within = check[0] <= TARGET_S
    print(f"  check: wall {check[0]:.3f} s, target {TARGET_S:g} s: {'met' if within else 'not met'}")
    return within


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", default=[str(ROOT / "examples" / "stream_reg.sysr"),
                                                 str(ROOT / "examples" / "bcd_counter.sysr")])
    ap.add_argument("--runs", type=int, default=7, help="runs of each command per configuration (median shown)")
    ap.add_argument("--all", action="store_true", help="also time the tables built each start, and the portfolio")
    ap.add_argument("--baseline", metavar="DIR", help="also time the sysr package of another checkout")
    ap.add_argument("--import-ms", type=float, default=2.0, help="list imports taking at least this long")
    args = ap.parse_args(argv)
    configs = configurations(args.baseline, args.all)
    met = True
    for file in args.files:
        design = Path(file).resolve()
        met = report(design, args.runs, measure(design, args.runs, configs)) and met
    design = Path(args.files[0]).resolve()
    for flags in ([], ["--no-verify"]):
        rows = import_profile(design, flags, args.import_ms, args.runs)
        total = sum(ms for depth, ms, _ in rows if depth == 0)
        print(f"imports of `sysr check{''.join(' ' + f for f in flags)} {design.name}` taking {args.import_ms:g} ms "
              f"or more (cumulative, least of {args.runs} runs; {total:.0f} ms at top level):")
        for depth, ms, name in rows:
            print(f"  {ms:7.1f} ms  {'  ' * depth}{name}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
