"""The `bench` command line: `bench score`, `bench seeded` (and `bench loop`, `bench summary`,
`bench suite import`, `bench catch`, `bench mutants`).

Exit status: 0 when everything passed, 1 when a candidate failed or a seeded bug was not
rejected as expected, 2 on usage errors or when a tool did not run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rich.console import Console

from . import catch as catch_cli, loop as loop_cli, report as report_cli, suite as suite_cli
from ..judge import sandbox
from ..judge.cache import ResultCache, default_dir
from ..judge.results import CandidateResult, ScoreReport, count
from ..judge.score import Oversized, Scorer, read_candidate
from ..checker.seeded import run_one, seeded_files
from ..judge.tasks import Task, TaskError, for_command
from ..report.scores import compact, table

LANG_EXT = {"verilog": ".v", "sysr": ".sysr"}


def _candidate(task: Task, lang: str, folder: Path | None) -> str | Oversized | None:
    if folder is None:
        return task.text("ref.v" if lang == "verilog" else "ref.sysr")
    return read_candidate(folder / f"{task.name}{LANG_EXT[lang]}")


def score_all(tasks: list[Task], lang: str, folder: Path | None, jobs: int,
              progress=None, cache: ResultCache | None = None, lint: bool = False) -> list[CandidateResult]:
    scorer = Scorer(cache=cache, lint=lint)
    sources = {t.name: _candidate(t, lang, folder) for t in tasks}

    def one(task: Task) -> CandidateResult:
        r = scorer.score(task, lang, sources[task.name])
        if progress:
            progress(r)
        return r

    # Longest first (a larger design takes longer to prove and simulate), so that parallel
    # workers finish together; the results come back in the tasks' order.
    order = sorted(tasks, key=lambda t: -len(s) if isinstance(s := sources[t.name], str) else 0)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = dict(zip((t.name for t in order), pool.map(one, order)))
    return [done[t.name] for t in tasks]


def cmd_score(args) -> int:
    sandbox.ensure()
    tasks = for_command(args.tasks, args.lang, args.suite, "score")
    folder = Path(args.candidates) if args.candidates else None
    if folder is None and args.lang == "sysr" and any(t.origin is not None for t in tasks):
        raise TaskError("imported tasks have no sysr reference; score sysr designs with --candidates DIR")
    if folder is not None and not folder.is_dir():
        raise TaskError(f"--candidates {folder}: not a folder")
    err = Console(stderr=True)
    done = [0]

    def progress(r: CandidateResult) -> None:
        done[0] += 1
        if not args.json:
            err.print(f"[{done[0]}/{len(tasks)}] {r.task}: {r.result}{' (cached)' if r.cached else ''}",
                      highlight=False)

    cache = None if args.no_cache else ResultCache()
    if cache is not None:
        cache.prune()
    t0 = time.perf_counter()
    results = score_all(tasks, args.lang, folder, args.jobs, progress, cache, args.lint)
    report = ScoreReport(lang=args.lang, results=results, counts=count(results),
                         wall_s=round(time.perf_counter() - t0, 3))
    c = report.counts
    if args.json:
        print(json.dumps(compact(report), indent=2))
    else:
        out = Console()
        out.print(table(report))
        rate = f"PASS {c.passed} of {c.scorable}" if c.scorable else "PASS: not a number (nothing scorable)"
        cached = sum(r.cached for r in results)
        out.print(f"{rate}; tool failures: {c.tool_failures}; by result: "
                  + ", ".join(f"{k} {v}" for k, v in c.by_result.items())
                  + (f"; {cached} from the cache" if cached else ""), highlight=False)
    if c.tool_failures:
        return 2
    return 0 if c.passed == c.candidates else 1


def cmd_seeded(args) -> int:
    files = seeded_files()
    if not files:
        print("bench seeded: no tests/seeded/*.sysr files", file=sys.stderr)
        return 2
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(run_one, files))
    ok = sum(r.ok for r in results)
    if args.json:
        print(json.dumps({"results": [r.model_dump() for r in results],
                          "counts": {"files": len(results), "ok": ok, "mismatches": len(results) - ok}},
                         indent=2))
    else:
        for r in results:
            mark = "ok " if r.ok else "MISMATCH"
            print(f"{mark} {r.file}: expected {' '.join(r.expected) or '-'}, got {' '.join(r.got) or 'accepted'}")
            if not r.ok and r.detail:
                print("    " + r.detail.replace("\n", "\n    "))
        print(f"{ok} of {len(results)} seeded designs rejected with exactly their expected codes")
    return 0 if ok == len(results) else 1


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench", description="The sysr-versus-Verilog hardware benchmark.")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("score", help="score candidates (or the references) through Yosys and Icarus",
                       description="Score candidates through Yosys and Icarus only. Without --candidates "
                                   "the references are scored. Exit 0 when all pass, 1 otherwise, 2 on "
                                   "usage or tool errors.")
    s.add_argument("--lang", choices=sorted(LANG_EXT), required=True)
    s.add_argument("--candidates", metavar="DIR", help="score DIR/<task>.v or DIR/<task>.sysr")
    s.add_argument("--tasks", metavar="a,b", help="only these tasks")
    s.add_argument("--suite", metavar="DIR", help="the tasks of an imported suite (`bench suite import`) instead "
                                                  "of tasks/; its invalid tasks are left out")
    s.add_argument("--jobs", type=int, default=1, metavar="N", help="score N candidates in parallel")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--no-cache", action="store_true",
                   help="score every candidate, neither reading nor writing the result cache (by default a "
                        "candidate scored before, with the same task files, tools, limits and project code, "
                        f"is read from it: $BENCH_CACHE_DIR, else $XDG_CACHE_HOME/sysr-bench, now {default_dir()})")
    s.add_argument("--lint", action="store_true",
                   help="let Verilator's lint fail a design (width mismatches, latches, multiple drivers...: "
                        "bench.judge.lint) where the task's reference is clean of that warning; by default the lint "
                        "stage only records its findings, so verdicts stay comparable with upstream harnesses")
    s.set_defaults(func=cmd_score)
    d = sub.add_parser("seeded", help="require every seeded-bug design rejected with its expected codes")
    d.add_argument("--json", action="store_true")
    d.add_argument("--jobs", type=int, default=2, metavar="N")
    d.set_defaults(func=cmd_seeded)
    loop_cli.add_commands(sub)
    suite_cli.add_commands(sub)
    report_cli.add_commands(sub)
    catch_cli.add_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "jobs", 1) < 1:
        parser.error("--jobs must be at least 1")
    try:
        return args.func(args)
    except (TaskError, sandbox.SandboxUnavailable) as e:
        print(f"bench: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
