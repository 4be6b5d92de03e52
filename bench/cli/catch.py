"""`bench catch` and `bench mutants`: the command-line side of the catch rate and of testbench strength."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..mutation import mutants as M
from ..mutation.catch import CatchError, CatchReport, Judge, measure, reference_designs, run_designs, tasks_named
from ..judge.tasks import TASKS_DIR, TaskError, load_tasks


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
    c.add_argument("runs", nargs="*", metavar="RUN", help="run folders (or their run.json), or Inspect AI logs")
    c.add_argument("--refs", action="store_true", help="mutate the task references, both languages")
    c.add_argument("--lang", choices=["sysr", "verilog"], help="with --refs: only this language")
    c.add_argument("--tasks", metavar="a,b", help="only these tasks")
    c.add_argument("--suite", metavar="DIR",
                   help="the folder of task folders the designs are judged against (default: the suite each "
                        f"run records, `bench loop --suite`; with --refs, {TASKS_DIR})")
    c.add_argument("--mutants", type=int, default=20, metavar="N", help="mutants per design (default 20)")
    c.add_argument("--seed", type=int, default=1, metavar="S", help="which mutants (default 1)")
    c.add_argument("--jobs", type=int, default=1, metavar="J", help="mutants judged in parallel")
    c.add_argument("--json", action="store_true", help="one JSON object: every mutant with its text and verdicts")
    c.set_defaults(func=cmd_catch)
    m = sub.add_parser(
        "mutants", help="testbench strength: Yosys mutants of each Verilog reference against its testbench",
        description="For each task: Yosys `mutate` mutants of ref.v (a fixed sample for the seed), each scored "
                    "against the hidden testbench; each survivor compared with the reference by a bounded "
                    "equivalence check from reset (yosys-smtbmc), under the task's requirements where "
                    "ref.sysr states them, so that equivalent mutants do not count against the "
                    "testbench. Exit 0 when every task's score (killed / non-equivalent mutants) is at "
                    "least --min-score, 1 otherwise, 2 on errors.")
    m.add_argument("--tasks", metavar="a,b", help="only these tasks")
    m.add_argument("--suite", metavar="DIR", help=f"a folder of task folders (default {TASKS_DIR})")
    m.add_argument("--mutants", type=int, default=M.PER_TASK, metavar="N",
                   help=f"mutants a task (default {M.PER_TASK})")
    m.add_argument("--seed", type=int, default=M.SEED, metavar="S", help=f"Yosys's sampling seed (default {M.SEED})")
    m.add_argument("--depth", type=int, default=M.DEPTH, metavar="K",
                   help=f"cycles from reset of the equivalence check (default {M.DEPTH})")
    m.add_argument("--jobs", type=int, default=1, metavar="J", help="mutants scored in parallel")
    m.add_argument("--min-score", type=float, default=0.9, metavar="F", help="the score every task must reach (default 0.9)")
    m.add_argument("--json", action="store_true",
                   help="one JSON object: tasks: [{task, mutants, killed, equivalent, survivors: [...]}]")
    m.set_defaults(func=cmd_mutants)


def cmd_catch(args) -> int:
    if args.mutants < 1:
        print("bench catch: --mutants must be at least 1", file=sys.stderr)
        return 2
    if bool(args.runs) == bool(args.refs):
        print("bench catch: give run folders or --refs (not both)", file=sys.stderr)
        return 2
    suite = Path(args.suite) if args.suite else None
    if suite is not None and not suite.is_dir():
        print(f"bench catch: --suite {suite}: not a folder", file=sys.stderr)
        return 2
    names = {n.strip() for n in args.tasks.split(",") if n.strip()} if args.tasks else None
    try:
        if args.refs:
            tasks = tasks_named(args.tasks, suite or TASKS_DIR)
            designs = reference_designs(tasks, (args.lang,) if args.lang else ("sysr", "verilog"))
        else:
            designs = [d for run in args.runs for d in run_designs(Path(run), suite, names)]
    except (CatchError, TaskError) as e:
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


def cmd_mutants(args) -> int:
    if args.mutants < 1 or args.depth < 1:
        print("bench mutants: --mutants and --depth must be at least 1", file=sys.stderr)
        return 2
    folder = Path(args.suite) if args.suite else TASKS_DIR
    if not folder.is_dir():
        print(f"bench mutants: --suite {folder}: not a folder", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.tasks.split(",") if n.strip()] if args.tasks else None
    tasks = load_tasks(names, folder)
    err = Console(stderr=True)
    log = lambda msg: err.print(msg, highlight=False, markup=False)  # noqa: E731
    out = []
    for i, task in enumerate(tasks, 1):
        log(f"[{i}/{len(tasks)}] {task.name}")
        try:
            out.append(M.measure_task(task, args.mutants, args.seed, args.depth, jobs=args.jobs, progress=log))
        except M.MutantsError as e:
            print(f"bench mutants: error: {e}", file=sys.stderr)
            return 2
    report = M.MutantsReport(per_task=args.mutants, seed=args.seed, depth=args.depth, tasks=out)
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        render_mutants(report, Console())
    return 0 if all(t.score is None or t.score >= args.min_score for t in out) else 1


def render_mutants(report: "M.MutantsReport", out: Console) -> None:
    table = Table(title=f"bench mutants: {report.per_task} Yosys mutants a task, seed {report.seed}")
    for col in ("task", "mutants", "killed", "equivalent", "survivors", "score", "requirements"):
        table.add_column(col, justify="left" if col == "task" else "right", no_wrap=True)
    for t in report.tasks:
        rest = len(t.survivors) - t.equivalent
        table.add_row(t.task, str(t.mutants), str(t.killed), str(t.equivalent), str(rest),
                      "-" if t.score is None else f"{100 * t.score:.0f}%", "assumed" if t.constrained else "not assumed")
    out.print(table)
    killed = sum(t.killed for t in report.tasks)
    total = sum(t.mutants for t in report.tasks)
    equiv = sum(t.equivalent for t in report.tasks)
    out.print(f"killed {killed} of {total} mutants; {equiv} equivalent to the reference within "
              f"{report.depth} cycles; {total - killed - equiv} survivors that differ:", highlight=False)
    for t in report.tasks:
        for s in t.survivors:
            if s.verdict != "equivalent":
                out.print(f"  {t.task}: {s.mutation.split(' -src')[0]} ({s.src}): {s.reason}", highlight=False,
                          markup=False)
