"""Reproduce the catch-rate and testbench-strength figures of the README in one command.

A measurement, not a test (about an hour on 2 cores):
`.venv/bin/python benchmarks/catch_rate.py [--out DIR] [--mutants 20] [--yosys-mutants 40] [--jobs 2]`.
Runs `bench catch --refs` (every task's reference in both languages, N mutants each) and
`bench mutants` (Yosys mutants of every Verilog reference against its testbench), writes both
JSON reports to DIR (default `catch-figures/`), and prints the per-task tables and the headline
lines. Each command's own exit status is reported (1 from `bench catch` means some mutants hit
a limit; 1 from `bench mutants` means a testbench scored under 90%).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402

from bench.mutation.catch import CatchReport  # noqa: E402
from bench.cli.catch import render, render_mutants  # noqa: E402
from bench.mutation.mutants import MutantsReport  # noqa: E402


def bench(args: list[str], out: Path) -> int:
    with out.open("w") as f:
        return subprocess.run([sys.executable, "-m", "bench.cli", *args], cwd=ROOT, stdout=f).returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="catch-figures", metavar="DIR")
    ap.add_argument("--mutants", type=int, default=20, help="bench catch: mutants per design")
    ap.add_argument("--yosys-mutants", type=int, default=40, help="bench mutants: mutants a task")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tasks", metavar="a,b")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    only = ["--tasks", args.tasks] if args.tasks else []
    console = Console()
    rc = bench(["catch", "--refs", "--mutants", str(args.mutants), "--jobs", str(args.jobs), "--json", *only],
               out / "catch-refs.json")
    console.print(f"bench catch --refs: exit {rc}")
    render(CatchReport.model_validate(json.loads((out / "catch-refs.json").read_text())), console)
    rc = bench(["mutants", "--mutants", str(args.yosys_mutants), "--jobs", str(args.jobs), "--json", *only],
               out / "mutants.json")
    console.print(f"bench mutants: exit {rc}")
    render_mutants(MutantsReport.model_validate(json.loads((out / "mutants.json").read_text())), console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
