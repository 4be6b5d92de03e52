"""`bench catch` and `bench mutants`: the command-line side of the catch rate and of testbench strength."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from .catch import CatchError, CatchReport, Judge, measure, reference_designs, run_designs, tasks_named
from .tasks import load_tasks


def add_commands(sub) -> None:
    c = sub.add_parser(
        "catch", help="the catch rate: injected slips judged before simulation and by the testbench",
        description="Mutate every design that passed (each attempt of RUN that passed, or with --refs the "
                    "task references in both languages) and judge each mutant twice: before simulation "
                    "(sysr: `sysr check` with the design's own properties; Verilog: Yosys's latch, "
                    "loop and multiple-driver checks) and by the task's hidden testbench through the "
                    "scorer. Each mutant is caught, missed, extra (rejected, testbench passes), "
                    "equivalent (both pass) or limits (a tool hit a limit). Exit 0 when every mutant "
                    "was judged, 1 when some hit a limit, 2 on errors.")
    c.add_argument("runs", nargs="*", metavar="RUN", help="run folders (or their run.json)")
    c.add_argument("--refs", action="store_true", help="mutate the task references, both languages")
    c.add_argument("--lang", choices=["sysr", "verilog"], help="with --refs: only this language")
    c.add_argument("--tasks", metavar="a,b", help="only these tasks")
    c.add_argument("--mutants", type=int, default=20, metavar="N", help="mutants per design (default 20)")
    c.add_argument("--seed", type=int, default=1, metavar="S", help="which mutants (default 1)")
    c.add_argument("--jobs", type=int, default=1, metavar="J", help="mutants judged in parallel")
    c.add_argument("--json", action="store_true", help="one JSON object: every mutant with its text and verdicts")
    c.set_defaults(func=cmd_catch)


def cmd_catch(args) -> int:
    if args.mutants < 1:
        print("bench catch: --mutants must be at least 1", file=sys.stderr)
        return 2
    if bool(args.runs) == bool(args.refs):
        print("bench catch: give run folders or --refs (not both)", file=sys.stderr)
        return 2
    tasks = tasks_named(args.tasks)
    try:
        if args.refs:
            designs = reference_designs(tasks, (args.lang,) if args.lang else ("sysr", "verilog"))
        else:
            by_name = {t.name: t for t in load_tasks()}
            wanted = {t.name for t in tasks}
            designs = [d for run in args.runs for d in run_designs(Path(run), by_name) if d.task.name in wanted]
    except CatchError as e:
        print(f"bench catch: error: {e}", file=sys.stderr)
        return 2
    if not designs:
        print("bench catch: no attempt that passed in " + ", ".join(args.runs), file=sys.stderr)
        return 2
    err = Console(stderr=True)
    t0 = time.perf_counter()
    report = measure(designs, args.mutants, args.seed, args.jobs, Judge(),
                     progress=lambda msg: err.print(msg, highlight=False, markup=False))
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        render(report, Console(), time.perf_counter() - t0)
    return 1 if any(t.limits for t in report.tasks) else 0


def _rate(caught: int, missed: int) -> str:
    return f"{100 * caught / (caught + missed):.0f}%" if caught + missed else "-"


def render(report: CatchReport, out: Console, wall_s: float | None = None) -> None:
    table = Table(title="bench catch: mutants of designs that pass")
    for col in ("task", "lang", "mutants", "caught", "missed", "extra", "equiv", "limits", "discarded", "rate"):
        table.add_column(col, justify="left" if col in ("task", "lang") else "right", no_wrap=True)
    for t in report.tasks:
        table.add_row(t.task, t.lang, *(str(getattr(t, k)) for k in ("mutants", "caught", "missed", "extra",
                                                                    "equivalent", "limits", "discarded")),
                      _rate(t.caught, t.missed))
    out.print(table)
    for lang, what in (("sysr", "wrong mutants before simulation (by the design's own properties)"),
                       ("verilog", "wrong mutants before simulation (by Yosys's latch, loop and driver checks)")):
        c = report.total[lang]
        if c.mutants or c.discarded:
            out.print(f"{lang}: caught {c.caught} of {c.caught + c.missed} {what}; extra {c.extra}, "
                      f"equivalent {c.equivalent}, limits {c.limits}, discarded {c.discarded}", highlight=False)
    if wall_s is not None:
        out.print(f"({wall_s:.0f} s)", highlight=False)
