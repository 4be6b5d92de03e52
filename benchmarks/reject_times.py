"""Print how long `sysr check` takes to reject a buggy design against accepting its correct version.

A benchmark, not a test: `nice .venv/bin/python benchmarks/reject_times.py [--rounds N] [--stat
min|median] [--clock cpu|wall] [--only TEXT] [--json]` (`--only`: the pairs whose rejected file's
path contains TEXT).
The pairs are the designs of `tests/designs27/` with their seeded bugs (`tests/designs27/bugs/
<design>-<bug>.sysr`), and each task's reference (`tasks/<name>/ref.sysr`, `split.sysr` for a
`-split` bug) with its seeded bug (`tests/seeded/<name>.sysr`). For each pair it prints the
accept time, the reject time, their ratio, and the first diagnostic of the rejection (its code
and the failing cycle of its trace): the target is a ratio of at most 2, with a real failure
(V002 and its trace) first. Each file is checked `--rounds` times (default 5), the accepted and
the rejected one alternating so that the machine's load falls on both alike, and the fastest
round is taken (`--stat min`: the check's own work, since what other processes add only ever
slows a round; `--stat median` takes the median). Times are in-process (no interpreter
start-up) and by default the process's CPU time (`--clock cpu`): the checker runs on one
thread, so on an idle machine that is the wall time, and on a loaded one it leaves out the time
other processes took (the wall time of one check varied 7x between rounds on the shared 2-core
machine). `--clock wall` times the wall.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sysr.pipeline import Options, check  # noqa: E402

TARGET = 2.0


def pairs() -> list[tuple[Path, Path]]:
    """(accepted design, rejected design)."""
    out = []
    designs = ROOT / "tests" / "designs27"
    for bug in sorted((designs / "bugs").glob("*.sysr")):
        out.append((designs / f"{bug.stem.split('-')[0]}.sysr", bug))
    for bug in sorted((ROOT / "tests" / "seeded").glob("*.sysr")):
        task, _, variant = bug.stem.partition("-split")
        ref = ROOT / "tasks" / task / ("split.sysr" if bug.stem.endswith("-split") else "ref.sysr")
        if ref.exists():
            out.append((ref, bug))
    return out


def timed(f: Path, clock) -> tuple[float, object]:
    text = f.read_text()
    t0 = clock()
    outcome = check(text, Options())
    return clock() - t0, outcome


def first(outcome) -> str:
    errors = [d for d in outcome.diagnostics if d.severity.name == "ERROR"]
    if not errors:
        return "accepted"
    d = errors[0]
    return d.code + (f"@{d.trace.failing_row}" if d.trace is not None else "")


def rel(f: Path) -> str:
    return str(f.relative_to(ROOT))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--stat", choices=("min", "median"), default="min")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--only", default="", help="only the pairs whose rejected file's path contains this")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = ap.parse_args(argv)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    check("module warm(a: in u8, y: out u8) { y = a; }", Options())  # import and first-use costs
    rows = []
    if not args.json:
        print(f"{args.clock} time, {'fastest' if args.stat == 'min' else 'median'} of {args.rounds} rounds")
        print(f"{'rejected design':48} {'accept':>7} {'reject':>7} {'ratio':>6}  first diagnostic")
    for good, bad in [(g, b) for g, b in pairs() if args.only in rel(b)]:
        times: dict[Path, list[float]] = {good: [], bad: []}
        outcomes = {}
        for _ in range(args.rounds):
            for f in (good, bad):
                t, outcomes[f] = timed(f, clock)
                times[f].append(t)
        stat = min if args.stat == "min" else statistics.median
        a, r = stat(times[good]), stat(times[bad])
        row = {"accepted": rel(good), "rejected": rel(bad), "accept_s": round(a, 3), "reject_s": round(r, 3),
               "ratio": round(r / a, 2), "first": first(outcomes[bad]),
               "good_accepted": outcomes[good].accepted, "bad_rejected": not outcomes[bad].accepted}
        rows.append(row)
        if not args.json:
            note = "" if row["good_accepted"] and row["bad_rejected"] else "  (not a pair: check the files)"
            print(f"{rel(bad):48} {a:7.2f} {r:7.2f} {r / a:6.2f}  {row['first']}{note}")
    ratios = [r["ratio"] for r in rows]
    over = [r for r in rows if r["ratio"] > TARGET]
    v002 = [r for r in rows if r["first"].startswith("V002")]
    worst = max(rows, key=lambda r: r["ratio"])
    summary = {"clock": args.clock, "rounds": args.rounds, "stat": args.stat, "pairs": len(rows),
               "median_ratio": statistics.median(ratios), "max_ratio": worst["ratio"], "worst": worst["rejected"],
               "over_target": len(over), "v002_first": len(v002)}
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=1))
    else:
        print(f"{len(rows)} pairs: median ratio {summary['median_ratio']:.2f}, worst {worst['ratio']:.2f} "
              f"({worst['rejected']}), {len(over)} over {TARGET:g}; {len(v002)} rejected with V002 first")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
