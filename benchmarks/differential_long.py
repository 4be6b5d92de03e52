"""The long setting of the differential tests: thousands of random designs, on demand.

Not a test: run it by hand,

    SYSR_DIFF_DESIGNS=5000 .venv/bin/python benchmarks/differential_long.py [--z3 N]
        [--amaranth N] [--batch B] [--cycles C] [--seed S] [--structs] [--save DIR]

It runs the Icarus-vs-evaluator comparison of tests/test_differential.py (its harness:
tests/icarus_harness.py) on designs from seeds S, S+1, ... (default 100000, away from the CI's seeds) in batches of B per simulation, and,
with --z3 N, the z3-vs-evaluator check on N designs as well, and with --amaranth N, the
Amaranth-simulator-vs-evaluator check (`sysr.amaranth`) on N designs (about a third of the
clocked ones with several clocks, a falling edge or both edges, tests/gen_clocks.py; with
--structs, designs with packed structs). It prints progress per batch and
then the figures: designs, cycles, time (Python, iverilog, vvp), failures by known bug and new
ones. Each failure report (design, cycle, signal, both values, inputs, lowered Verilog) is
printed in short and written whole to DIR when --save is given; a design is reproduced with
`tests/gen_designs.design_from_seed(seed)`. Exit status 1 when a new failure was found.

`--shrink SEED` instead reduces one failing design to a small reproducer: it deletes module
items and statements, flattens `if`s and replaces expressions by a sub-expression or a literal
(locating them with the parser's spans), keeping each change after which the design still
passes the static checks and still disagrees in simulation (`--shrink-z3 SEED`: with z3).
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gen_designs import Generated, design_from_seed  # noqa: E402
from sysr.front import syntax as S  # noqa: E402
from sysr.front.parse import parse  # noqa: E402
from sysr.pipeline import analyze  # noqa: E402
from amaranth_sim import run_amaranth  # noqa: E402
from diff_prepare import prepare, report  # noqa: E402
from icarus_harness import HAVE_ICARUS, check_one, harness_problems, run_differential, sim_report  # noqa: E402
from test_differential_bugs import known_bug  # noqa: E402
from z3_harness import unrolling_disagreements, z3_disagreements  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--designs", type=int, default=int(os.environ.get("SYSR_DIFF_DESIGNS", "2000")))
    p.add_argument("--z3", type=int, default=0, help="also run the z3 check on this many designs")
    p.add_argument("--amaranth", type=int, default=0,
                   help="also run the Amaranth simulator check on this many designs")
    p.add_argument("--batch", type=int, default=100)
    p.add_argument("--cycles", type=int, default=32)
    p.add_argument("--seed", type=int, default=100_000)
    p.add_argument("--structs", action="store_true", help="designs with packed structs (`structs=True`)")
    p.add_argument("--save", type=Path, help="write each failure report to this folder")
    p.add_argument("--shrink", type=int, metavar="SEED", help="reduce the design of SEED (Icarus)")
    p.add_argument("--shrink-z3", type=int, metavar="SEED", help="reduce the design of SEED (z3)")
    return p.parse_args()


def progress(start: float, total: int):
    def show(figures) -> None:
        print(f"  {figures.designs}/{total} designs, {len(figures.failures)} failing, "
              f"{time.perf_counter() - start:.0f} s", flush=True)
    return show


def headline(report_text: str) -> str:
    lines = report_text.splitlines()
    i = lines.index("disagreements:") + 1 if "disagreements:" in lines else 1
    return lines[0] + "\n    " + "\n    ".join(line[:200] for line in lines[i:i + 3])


def run_icarus(args) -> list[str]:
    t0 = time.perf_counter()
    fig = run_differential(args.designs, args.batch, args.cycles, args.seed, progress(t0, args.designs),
                           **gen_opts(args))
    wall = time.perf_counter() - t0
    print(f"icarus: {fig.designs} designs, {fig.cycles} cycles in {wall:.1f} s "
          f"(python {fig.python_s:.1f} s, iverilog {fig.compile_s:.1f} s, vvp {fig.run_s:.1f} s), "
          f"{len(fig.failures)} failing")
    return fig.failures


def run_z3(args) -> list[str]:
    t0 = time.perf_counter()
    failures = []
    for seed in range(args.seed, args.seed + args.z3):
        prep = prepare(design_from_seed(seed, **gen_opts(args)), seed, 12)
        problems = z3_disagreements(prep) or unrolling_disagreements(prep)
        if problems:
            failures.append(f"==== z3 design (design_from_seed({seed}))\n" + report(prep, problems, seed))
    print(f"z3: {args.z3} designs, 12 cycles each in {time.perf_counter() - t0:.1f} s, {len(failures)} failing")
    return failures


def gen_opts(args) -> dict:
    """The generator's options (tests/gen_designs.py) the arguments ask for."""
    return {"structs": True} if args.structs else {}


def run_amaranth_check(args) -> list[str]:
    t0 = time.perf_counter()
    fig = run_amaranth(args.amaranth, min(args.batch, 25), args.cycles, args.seed,
                       progress(t0, args.amaranth), **gen_opts(args))
    print(f"amaranth: {fig.designs} designs, {fig.cycles} cycles in {time.perf_counter() - t0:.1f} s "
          f"(python {fig.python_s:.1f} s, simulator {fig.run_s:.1f} s), {len(fig.failures)} failing")
    print("  designs whose logic has: " + ", ".join(f"{k} {v}" for k, v in sorted(fig.features.items())))
    return fig.failures


def summarize(failures: list[str], save: Path | None) -> int:
    by_bug = collections.Counter(known_bug(f) for f in failures)
    for bug, n in sorted(by_bug.items(), key=lambda kv: str(kv[0])):
        print(f"  {n} failures: {'new' if bug is None else 'known bug ' + bug}")
    if save:
        save.mkdir(parents=True, exist_ok=True)
        for i, f in enumerate(failures):
            (save / f"failure{i:04d}.txt").write_text(f)
    for f in [f for f in failures if known_bug(f) is None][:10]:
        print(headline(f))
    return 1 if by_bug.get(None) else 0


# ---- shrinking a failing design -------------------------------------------------------------

EXPRS = (S.IntLit, S.BoolLit, S.Name, S.Path, S.Unary, S.Binary, S.Cast, S.IfExpr, S.MatchExpr,
         S.Index, S.Slice, S.Concat, S.Call, S.Quant)
STMTS = (S.Assign, S.NbAssign, S.Let, S.If, S.Match, S.For)


def offsets(text: str, span: S.Span) -> tuple[int, int]:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts[span.line - 1] + span.column - 1, starts[span.end_line - 1] + span.end_column - 1


def children(node):
    for name in getattr(node, "__dataclass_fields__", {}):
        v = getattr(node, name)
        for x in (v if isinstance(v, tuple) else (v,)):
            if hasattr(x, "__dataclass_fields__") and not isinstance(x, (S.Span, S.TypeRef)):
                yield x


def walk(node):
    yield node
    for c in children(node):
        yield from walk(c)


def edits(text: str):
    """Candidate reductions of `text`, biggest first: (start, end, replacement)."""
    tree, _ = parse(text)
    if tree is None:
        return
    nodes = list(walk(tree))
    module = next(n for n in nodes if isinstance(n, S.Module))
    for item in list(module.items) + [n for n in tree.items if not isinstance(n, S.Module)]:
        yield (*offsets(text, item.span), "")
    stmts = [n for n in nodes if isinstance(n, STMTS)]
    for st in stmts:
        yield (*offsets(text, st.span), "")
    for st in stmts:
        if isinstance(st, S.If):
            for body in (st.then, st.else_ or ()):
                inner = " ".join(text[slice(*offsets(text, b.span))] for b in body)
                yield (*offsets(text, st.span), inner)
    for e in [n for n in nodes if isinstance(n, EXPRS)]:
        start, end = offsets(text, e.span)
        for c in children(e):
            if isinstance(c, EXPRS):
                yield start, end, "(" + text[slice(*offsets(text, c.span))] + ")"
        if not isinstance(e, (S.IntLit, S.BoolLit)):
            yield start, end, "0"
            yield start, end, "false"


def shrink(text: str, fails, budget_s: float = 1800) -> str:
    """Greedy reduction: apply the first edit that keeps the design valid and failing, repeat."""
    t0 = time.perf_counter()
    progress = True
    while progress and time.perf_counter() - t0 < budget_s:
        progress = False
        for start, end, new in edits(text):
            cand = text[:start] + new + text[end:]
            if cand != text and analyze(cand).accepted and fails(cand):
                text, progress = cand, True
                print(f"  {len(text)} characters", flush=True)
                break
    return text


def failure_kind(problems: list[str]) -> str | None:
    if any(p.startswith("lower() raised") for p in problems):
        return "crash"
    if any(": Icarus " in p for p in problems):
        return "value"
    return None


def icarus_fails(seed: int, cycles: int):
    """Whether a design fails like the original (a lowering crash, or a disagreement in
    simulation), not by a known bug."""
    kind = []

    def fails(text: str) -> bool:
        try:
            case, problems = check_one(text, cycles, seed=seed)
        except Exception:
            return False
        got = failure_kind(problems)
        if got is None or known_bug(sim_report(case, problems)) is not None:
            return False
        kind.append(kind[0] if kind else got)
        return got == kind[0]
    return fails


def z3_fails(seed: int, cycles: int):
    def fails(text: str) -> bool:
        try:
            prep = prepare(Generated(text, "dut"), seed, cycles)
            return bool(z3_disagreements(prep) or unrolling_disagreements(prep))
        except Exception:
            return False
    return fails


def run_shrink(seed: int, cycles: int, icarus: bool) -> int:
    text = design_from_seed(seed).text
    fails = (icarus_fails if icarus else z3_fails)(seed, cycles)
    if not fails(text):
        print(f"the design of seed {seed} does not fail")
        return 0
    small = shrink(text, fails)
    print(small)
    if icarus:
        problems = harness_problems(small, cycles, seed=seed)
    else:
        problems = z3_disagreements(prepare(Generated(small, "dut"), seed, cycles))
    print("\n".join(problems[:10]))
    return 1


def main() -> int:
    args = parse_args()
    if args.shrink is not None:
        return run_shrink(args.shrink, args.cycles, icarus=True)
    if args.shrink_z3 is not None:
        return run_shrink(args.shrink_z3, 12, icarus=False)
    failures = []
    if HAVE_ICARUS:
        failures += run_icarus(args)
    else:
        print("iverilog/vvp not found: skipping the Icarus comparison")
    if args.z3:
        failures += run_z3(args)
    if args.amaranth:
        failures += run_amaranth_check(args)
    return summarize(failures, args.save)


if __name__ == "__main__":
    sys.exit(main())
