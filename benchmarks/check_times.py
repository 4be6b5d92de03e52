"""Print how long `sysr check` (static checks and proofs) takes on each task reference and example.

A benchmark, not a test: run `.venv/bin/python benchmarks/check_times.py [FILES...]` (default:
the task references, the examples and tests/verify). Target: each under 2 s on the project's
2-core machine. Times are in-process (no interpreter
start-up); the parse, static and verify columns come from the checker's own timing.

Then, without FILES or with `--split`, the flat and the split (several modules) version of the
same design side by side (`SPLITS`): each checked `ROUNDS` times, the two alternating so that
the machine's load falls on both alike, with the median time of each and their ratio.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sysr.pipeline import Options, check  # noqa: E402

TARGET_S = 2.0
ROUNDS = 7
# (flat, split): one design written as one module and as a hierarchy (docs/reference.md, §4.7)
SPLITS = [(ROOT / "tasks/rv32i-ex/ref.sysr", ROOT / "tasks/rv32i-ex/split.sysr")]


def rel(f: Path) -> str:
    return str(f.relative_to(ROOT)) if f.is_relative_to(ROOT) else str(f)


def timed(f: Path) -> tuple[float, bool]:
    t0 = time.perf_counter()
    out = check(f.read_text(), Options())
    return time.perf_counter() - t0, out.accepted


def splits() -> None:
    """The flat and the split version of each design in `SPLITS`, measured in the same run."""
    print(f"\nflat against split, the median of {ROUNDS} checks each, alternating:")
    for flat, split in SPLITS:
        times: dict[Path, list[float]] = {flat: [], split: []}
        for _ in range(ROUNDS):
            for f in (flat, split):
                t, ok = timed(f)
                if not ok:
                    print(f"{rel(f)} is rejected: no comparison")
                    return
                times[f].append(t)
        a, b = statistics.median(times[flat]), statistics.median(times[split])
        print(f"  {rel(flat):36} {a:7.3f} s")
        print(f"  {rel(split):36} {b:7.3f} s   split/flat {b / a:.2f}")


def main(argv: list[str]) -> int:
    split_only = argv == ["--split"]
    if split_only:
        check("module warm(a: in u8, y: out u8) { y = a; }", Options())
        splits()
        return 0
    files = [Path(a) for a in argv] or sorted(ROOT.glob("tasks/*/ref.sysr")) + \
        sorted((ROOT / "examples").glob("*.sysr")) + sorted((ROOT / "tests" / "verify").glob("*.sysr"))
    check("module warm(a: in u8, y: out u8) { y = a; }", Options())  # import and first-use costs
    print(f"{'file':44} {'verdict':9} {'parse':>7} {'static':>7} {'verify':>7} {'total':>7}")
    slow = 0
    for f in files:
        t0 = time.perf_counter()
        out = check(f.read_text(), Options())
        total = time.perf_counter() - t0
        tm = out.timing
        slow += total > TARGET_S
        name = rel(f)
        print(f"{name:44} {'accepted' if out.accepted else 'rejected':9} "
              f"{tm.get('parse_s', 0):7.3f} {tm.get('static_s', 0):7.3f} {tm.get('verify_s', 0):7.3f} "
              f"{total:7.3f}")
    print(f"{len(files)} files, {slow} over the {TARGET_S:g} s target")
    if not argv:
        splits()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
