"""The first prompt of every task in sysr and in Verilog: characters, and their ratio.

A sample's first request is the system prompt plus the first message (the task's prompt and
its starting file), as `bench loop` sends it and the relay backend writes it
(`bench.loop.conversation.first_prompt_chars`). Every sysr attempt pays the sysr system prompt, so
the ratio says what the language costs a model before it has written a line. Two ratios per
task: in characters, and in cost with prompt caching, where the part of the system prompt that
is the same for every task of a run (`bench.loop.conversation.first_prompt_cost`) is read from
the cache at a tenth of an input token. Prints a table per task, the worst and overall ratios
and the headroom left under the bounds that tests/test_prompts.py asserts (3.0, and 1.5 with
caching). Without `--suite`, the project's tasks (default and `--spec-stubs` starting files);
with `--suite DIR` (repeatable), the tasks of an imported suite that sysr can express.

    .venv/bin/python benchmarks/prompt_ratio.py [--suite DIR]... [--worst N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.loop.conversation import (MODEL_REFERENCE, first_prompt_chars, first_prompt_cost,  # noqa: E402
                                     system_prompt)
from bench.judge.tasks import TASKS_DIR, left_out, load_tasks  # noqa: E402

BOUND = 3.0
CACHED_BOUND = 1.5
CACHE_READ = 0.1


def ratios(task, spec_stubs: bool = False) -> tuple[int, int, float, float]:
    v, s = first_prompt_chars(task, "verilog"), first_prompt_chars(task, "sysr", spec_stubs)
    cached = first_prompt_cost(task, "sysr", spec_stubs, CACHE_READ) / first_prompt_cost(task, "verilog", False, CACHE_READ)
    return v, s, s / v, cached


def report(folder: Path, worst: int | None) -> bool:
    tasks = [t for t in load_tasks(None, folder) if left_out(t, "sysr") is None]
    rows = [(t, *ratios(t)) for t in tasks]
    shown = sorted(rows, key=lambda r: -r[3])[:worst] if worst else rows
    print(f"{folder}: {len(tasks)} tasks sysr can express"
          + (f" (the {len(shown)} with the highest ratio)" if worst else ""))
    print(f"{'task':34} {'verilog':>8} {'sysr':>8} {'ratio':>6} {'headroom':>9} {'cached':>7}"
          + ("   spec-stub  ratio" if any(t.has_spec_stub for t in tasks) else ""))
    for t, v, s, r, c in shown:
        line = f"{t.name[:34]:34} {v:8,} {s:8,} {r:6.2f} {int(BOUND * v - s):9,} {c:7.2f}"
        if t.has_spec_stub:
            _, ss, sr, _ = ratios(t, spec_stubs=True)
            line += f"   {ss:9,} {sr:6.2f}"
        print(line)
    total_v, total_s = sum(r[1] for r in rows), sum(r[2] for r in rows)
    r_worst = max(rows, key=lambda r: r[3])
    c_worst = max(rows, key=lambda r: r[4])
    print(f"all {len(rows)}: verilog {total_v:,}, sysr {total_s:,}, ratio {total_s / total_v:.2f}; "
          f"per task median {statistics.median(r[3] for r in rows):.2f}, worst {r_worst[3]:.2f} "
          f"({r_worst[0].name}, bound {BOUND}); cache reads at {CACHE_READ}: median "
          f"{statistics.median(r[4] for r in rows):.2f}, worst {c_worst[4]:.2f} ({c_worst[0].name}, "
          f"bound {CACHED_BOUND})\n")
    return r_worst[3] <= BOUND and c_worst[4] <= CACHED_BOUND


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", action="append", metavar="DIR", help="an imported suite (repeatable)")
    ap.add_argument("--worst", type=int, metavar="N", help="show only the N tasks with the highest ratio")
    args = ap.parse_args()
    ok = all([report(Path(d), args.worst) for d in (args.suite or [str(TASKS_DIR)])])
    print(f"system prompts (without per-task sections): verilog {len(system_prompt('verilog')):,}, "
          f"SystemVerilog {len(system_prompt('verilog', 'systemverilog')):,}, sysr {len(system_prompt('sysr')):,} "
          f"characters; docs/reference.md {len((ROOT / 'docs' / 'reference.md').read_text()):,}, "
          f"docs/model-reference.md {len(MODEL_REFERENCE.read_text()):,}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
