"""`bench loop` and `bench summary`: the command-line side of the loop and its reports."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import sandbox
from .loop import Loop, LoopError, Run
from .models import ModelError, get_model
from .summary import counts, load_run, render
from .tasks import load_tasks


def add_commands(sub) -> None:
    lp = sub.add_parser("loop", help="let a model write, check and repair designs",
                        description="A model writes each task's design, sees what failed, and repairs it, "
                                    "under the same rules in sysr and Verilog. Every attempt is recorded in "
                                    "OUT/run.json and OUT/<task>.transcript.md.")
    lp.add_argument("--model", required=True, metavar="MODEL",
                    help="anthropic:MODEL_ID, scripted:FILE or relay:DIR")
    lp.add_argument("--lang", choices=["sysr", "verilog"], required=True)
    lp.add_argument("--budget", type=int, default=4, metavar="N", help="attempts per task (default 4)")
    lp.add_argument("--tasks", metavar="a,b", help="only these tasks")
    lp.add_argument("--jobs", type=int, default=1, metavar="N", help="tasks in parallel")
    lp.add_argument("--spec-stubs", action="store_true", help="start sysr tasks from spec-stub.sysr where there is one")
    lp.add_argument("--out", metavar="DIR", help="run folder (default runs/<model>-<lang>)")
    lp.add_argument("--resume", action="store_true", help="continue the run in --out")
    lp.set_defaults(func=cmd_loop)
    sm = sub.add_parser("summary", help="counts from one run, or two side by side",
                        description="Counts, never percentages: tasks, solved, solved on the first attempt, "
                                    "attempts used, results by kind, tokens.")
    sm.add_argument("runs", nargs="+", metavar="RUN", help="a run folder or its run.json")
    sm.add_argument("--json", action="store_true")
    sm.set_defaults(func=cmd_summary)


def cmd_loop(args) -> int:
    if args.budget < 1:
        print("bench loop: --budget must be at least 1", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.tasks.split(",")] if args.tasks else None
    tasks = load_tasks(names)
    safe = args.model.replace(":", "-").replace("/", "_")
    out = Path(args.out or f"runs/{safe}-{args.lang}")
    try:
        sandbox.ensure()
        model = get_model(args.model)
        open_run = Run.resume if args.resume else Run.create
        run = open_run(out, args.model, args.lang, args.budget, args.spec_stubs)
        rec = Loop(run, model, tasks).go(args.jobs)
    except (ModelError, LoopError, sandbox.SandboxUnavailable) as e:
        print(f"bench loop: {e}", file=sys.stderr)
        return 2
    c = counts(rec, out.name)
    print(render([c]))
    print(f"\nrecords: {out}/run.json")
    return 0


def cmd_summary(args) -> int:
    runs = []
    for r in args.runs:
        p = Path(r)
        try:
            runs.append(counts(load_run(p), p.name if p.is_dir() else p.parent.name))
        except (OSError, ValueError) as e:
            print(f"bench summary: cannot read {r}: {e}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps([r.model_dump() for r in runs], indent=2))
    else:
        print(render(runs))
    return 0
