"""Measure whether Bitwuzla beside z3 would earn its place in the checker: every query, both solvers.

A benchmark, not a test: `.venv/bin/python benchmarks/portfolio.py [--timeout S] [FILES...]`
(default: every task reference and every example; needs `pip install bitwuzla`, not a dependency
of sysr). It runs `sysr check` on each design in-process and records every one-shot query the
proofs ask (`sysr.smt.unroll.solve_alone`: the bounded checks, base cases and induction steps),
as SMT-LIB 2 text. Then, for each query, in one run and interleaved: z3 as the checker decides it
(the text parsed into a fresh context, the checker's one-shot solver of `sysr.smt.unroll`) and
Bitwuzla (its SMT-LIB parser and default options), each with --timeout. It prints, per design,
the total time of each solver, the total of the faster one per query (what a perfect race on
two cores would take, before the cost of running two solvers), the number of queries each
decided first, and the disagreements (one sat where the other is unsat: must be 0). Last, the
whole check's CPU time in-process with z3 alone and with the portfolio of `sysr.smt.portfolio`
(Bitwuzla first, z3 for what it does not refute), interleaved, the median of --runs, and the
verdicts of both (which must be the same).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import z3  # noqa: E402

from sysr.pipeline import Options, check  # noqa: E402
from sysr.smt import portfolio, unroll  # noqa: E402


def queries(path: Path) -> list[str]:
    """The SMT-LIB 2 text of every one-shot query `sysr check` asks on `path`."""
    seen: list[str] = []
    original = unroll.solve_alone

    def recording(terms, timeout_s, divides=False, work=None, need_model=True):
        s = z3.Solver(ctx=terms[0].ctx)
        s.add(*terms)
        seen.append(s.to_smt2())
        return original(terms, timeout_s, divides, work, need_model)

    import sysr.smt.hier  # noqa: F401  (loads every module of the proofs)
    users = [m for name, m in list(sys.modules.items())
             if name.startswith("sysr.") and getattr(m, "solve_alone", None) is original]
    for m in users:
        m.solve_alone = recording
    try:
        check(path.read_text(), Options())
    finally:
        for m in users:
            m.solve_alone = original
    return seen


def whole_check(path: Path, solver: str) -> tuple[float, list]:
    """CPU seconds of `sysr check` on `path` in-process with `solver`, and the verdicts."""
    portfolio.choose(solver)
    t0 = time.process_time()
    out = check(path.read_text(), Options())
    seconds = time.process_time() - t0
    portfolio.choose("z3")
    return seconds, [(p.get("text"), p.get("status")) for p in out.properties or []]


def run_z3(text: str, timeout_s: float) -> tuple[str, float]:
    ctx = z3.Context()
    terms = z3.parse_smt2_string(text, ctx=ctx)
    s = unroll.make_solver(timeout_s, ctx, one_shot=True)
    s.add(*terms)
    t0 = time.perf_counter()
    res = s.check()
    return str(res), time.perf_counter() - t0


def standard(text: str) -> str:
    """z3's SMT-LIB text made standard: z3 prints `(or x)` and `(and x)` of one argument, which
    the standard (and Bitwuzla's parser) does not allow; they are `x`."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # (index in out where the list starts, its head)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "|":  # a quoted symbol, copied as it is
            j = text.index("|", i + 1)
            out.append(text[i:j + 1])
            i = j + 1
            continue
        if ch == "(":
            j = i + 1
            while j < n and text[j] not in " ()\n":
                j += 1
            stack.append((len(out), text[i + 1:j]))
            out.append(ch)
        elif ch == ")" and stack:
            start, head = stack.pop()
            out.append(ch)
            if head in ("or", "and"):
                inner = "".join(out[start + 1:-1])[len(head):].strip()
                if _one_argument(inner):
                    out[start:] = [inner]
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _one_argument(args: str) -> bool:
    depth, parts, started = 0, 0, False
    for ch in args:
        if ch == "(":
            if depth == 0:
                parts += 1
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and not ch.isspace():
            if not started:
                parts += 1
            started = True
            continue
        if depth == 0 and ch.isspace():
            started = False
    return parts == 1


def run_bitwuzla(text: str, timeout_s: float) -> tuple[str, float]:
    import bitwuzla as bz
    tm = bz.TermManager()
    opts = bz.Options()
    opts.set(bz.Option.TIME_LIMIT_PER, int(timeout_s * 1000))
    parser = bz.Parser(tm, opts)
    body = standard(text).replace("(check-sat)", "")
    parser.parse(body, True, False)
    t0 = time.perf_counter()
    res = parser.bitwuzla().check_sat()
    seconds = time.perf_counter() - t0
    return {bz.Result.SAT: "sat", bz.Result.UNSAT: "unsat"}.get(res, "unknown"), seconds


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--timeout", type=float, default=30.0, help="limit per query and solver, in seconds")
    ap.add_argument("--runs", type=int, default=3, help="runs of each whole check (the median counts)")
    args = ap.parse_args(argv)
    files = args.files or sorted(ROOT.glob("tasks/*/ref.sysr")) + sorted((ROOT / "examples").glob("*.sysr"))
    print(f"{'design':34} {'queries':>7} {'z3 s':>8} {'bzla s':>8} {'faster s':>8} {'z3 first':>8} "
          f"{'bzla first':>10} {'disagree':>8}")
    totals = [0.0, 0.0, 0.0]
    disagreements = 0
    for f in files:
        qs = queries(f)
        z, b, best, zwins, bwins, bad = 0.0, 0.0, 0.0, 0, 0, 0
        for i, q in enumerate(qs):
            arms = [run_z3, run_bitwuzla] if i % 2 == 0 else [run_bitwuzla, run_z3]
            got = {arm: arm(q, args.timeout) for arm in arms}
            (rz, tz), (rb, tb) = got[run_z3], got[run_bitwuzla]
            z += tz
            b += tb
            best += min(tz, tb)
            zwins += tz <= tb
            bwins += tb < tz
            if {rz, rb} == {"sat", "unsat"}:
                bad += 1
        disagreements += bad
        totals = [totals[0] + z, totals[1] + b, totals[2] + best]
        name = str(f.relative_to(ROOT)) if f.is_relative_to(ROOT) else str(f)
        print(f"{name:34} {len(qs):>7} {z:8.3f} {b:8.3f} {best:8.3f} {zwins:>8} {bwins:>10} {bad:>8}")
    print()
    print(f"{'design':34} {'z3 cpu s':>9} {'portfolio cpu s':>15} {'ratio':>6}  verdicts")
    sums = [0.0, 0.0]
    for f in files:
        got: dict[str, list[float]] = {"z3": [], "portfolio": []}
        verdicts = {}
        for run in range(args.runs):
            for solver in (("z3", "portfolio") if run % 2 == 0 else ("portfolio", "z3")):
                seconds, verdicts[solver] = whole_check(f, solver)
                got[solver].append(seconds)
        a, b = statistics.median(got["z3"]), statistics.median(got["portfolio"])
        sums = [sums[0] + a, sums[1] + b]
        same = "same" if verdicts["z3"] == verdicts["portfolio"] else "DIFFERENT"
        disagreements += same != "same"
        name = str(f.relative_to(ROOT)) if f.is_relative_to(ROOT) else str(f)
        print(f"{name:34} {a:9.3f} {b:15.3f} {b / a:6.2f}  {same}")
    print(f"whole checks: z3 {sums[0]:.2f} s, portfolio {sums[1]:.2f} s (portfolio/z3 {sums[1] / sums[0]:.2f})")
    print(f"total: z3 {totals[0]:.2f} s, Bitwuzla {totals[1]:.2f} s, the faster of the two per query "
          f"{totals[2]:.2f} s (Bitwuzla/z3 {totals[1] / totals[0]:.2f}, race/z3 {totals[2] / totals[0]:.2f}); "
          f"{disagreements} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
