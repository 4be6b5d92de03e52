"""`bench loop` and `bench summary`: the command-line side of the loop and its reports."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..judge import sandbox
from ..report.inspect_log import is_inspect_log, load_logs
from ..loop.runs import Loop, LoopError, Run, RunSpec
from ..loop.models import SPECS, ModelError, get_model
from ..report.cost import CostError, load_weights
from ..report.summary import by_category, counts, load_run, render
from ..judge.tasks import for_command, load_tasks


def add_commands(sub) -> None:
    lp = sub.add_parser("loop", help="let a model write, check and repair designs",
                        description="A model writes each task's design, sees what failed, and repairs it, "
                                    "under the same rules in sysr and Verilog. Each of --samples "
                                    "conversations per task is recorded in OUT/run.json and "
                                    "OUT/<task>[-s<k>].transcript.md.")
    lp.add_argument("--model", required=True, metavar="MODEL", help=SPECS)
    lp.add_argument("--base-url", metavar="URL",
                    help="the API endpoint of an openai: model (default $OPENAI_BASE_URL, else OpenAI's); "
                         "e.g. http://localhost:8000/v1 (vLLM), http://localhost:11434/v1 (Ollama), "
                         "https://openrouter.ai/api/v1")
    lp.add_argument("--lang", choices=["sysr", "verilog"], required=True)
    lp.add_argument("--budget", type=int, default=4, metavar="N", help="attempts per sample (default 4)")
    lp.add_argument("--samples", type=int, metavar="N",
                    help="independent conversations per task (default 1; on --resume, the run's own; "
                         "a larger N adds samples)")
    lp.add_argument("--temperature", type=float, metavar="T",
                    help="sampling temperature sent with every request (default: not sent, the server's)")
    lp.add_argument("--seed", type=int, metavar="S",
                    help="sample k of every task is sent seed S+k-1 (where the server takes a seed)")
    lp.add_argument("--tasks", metavar="a,b", help="only these tasks")
    lp.add_argument("--suite", metavar="DIR",
                    help="the tasks of an imported suite (`bench suite import`) instead of tasks/; its invalid "
                         "tasks are left out, and in sysr those sysr cannot express")
    lp.add_argument("--jobs", type=int, default=1, metavar="N", help="samples (of all tasks) in parallel")
    lp.add_argument("--spec-stubs", action="store_true", help="start sysr tasks from spec-stub.sysr where there is one")
    lp.add_argument("--lint", action="store_true",
                    help="let Verilator's lint fail a design, as `bench score --lint` (recorded in run.json)")
    lp.add_argument("--out", metavar="DIR", help="run folder (default runs/<model>-<lang>)")
    lp.add_argument("--resume", action="store_true",
                    help="continue the run in --out: finish its missing and unfinished samples")
    lp.set_defaults(func=cmd_loop)
    sm = sub.add_parser("summary", help="counts and pass@k from one run, or several side by side",
                        description="Counts, with the estimators beside them: tasks, solved, solved on the "
                                    "first attempt, attempts used, results by kind, tokens and their cost in "
                                    "uncached input tokens (cache reads, writes and output weighted per "
                                    "provider); with samples, "
                                    "n and c per task and pass@k; for sysr, the checker against the "
                                    "testbench (caught, false alarm, missed, agreed). A run is a run "
                                    "folder of `bench loop` or an Inspect log of sysr_bench (a .eval or "
                                    ".json log file, or a log folder: each of its logs is a run).")
    sm.add_argument("runs", nargs="+", metavar="RUN",
                    help="a run folder or its run.json; an Inspect log file or log folder")
    sm.add_argument("--suite", metavar="DIR", help="an imported suite the runs are of: adds the counts per "
                                                   "category and the tasks left out")
    sm.add_argument("--json", action="store_true", help="one JSON list, one object per run")
    sm.add_argument("--weights", metavar="FILE",
                    help="cost weights, a JSON object provider -> {cache_read, cache_write, output} in units of "
                         "an uncached input token, replacing the defaults (README, bench/report/cost.py)")
    sm.set_defaults(func=cmd_summary)


def cmd_loop(args) -> int:
    for name in ("budget", "samples"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            print(f"bench loop: --{name} must be at least 1", file=sys.stderr)
            return 2
    if args.temperature is not None and args.temperature < 0:
        print("bench loop: --temperature must not be negative", file=sys.stderr)
        return 2
    tasks = for_command(args.tasks, args.lang, args.suite, "loop")
    safe = args.model.replace(":", "-").replace("/", "_")
    out = Path(args.out or f"runs/{safe}-{args.lang}")
    try:
        sandbox.ensure()
        model = get_model(args.model, base_url=args.base_url)
        spec = RunSpec(model=args.model, lang=args.lang, budget=args.budget, spec_stubs=args.spec_stubs,
                       samples=args.samples, temperature=args.temperature, seed=args.seed,
                       endpoint=getattr(model, "base_url", None),
                       suite=str(Path(args.suite).resolve()) if args.suite else None, lint=args.lint)
        run = (Run.resume if args.resume else Run.create)(out, spec)
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
    try:
        weights = load_weights(Path(args.weights)) if args.weights else None
    except CostError as e:
        print(f"bench summary: --weights {e}", file=sys.stderr)
        return 2
    for r in args.runs:
        p = Path(r)
        try:
            if is_inspect_log(p):
                runs += [counts(rec, label, weights) for label, rec in load_logs(p)]
            else:
                runs.append(counts(load_run(p), p.name if p.is_dir() else p.parent.name, weights))
        except (OSError, ValueError) as e:
            print(f"bench summary: cannot read {r}: {e}", file=sys.stderr)
            return 2
    if args.suite:
        if not Path(args.suite).is_dir():
            print(f"bench summary: --suite {args.suite}: not a folder", file=sys.stderr)
            return 2
        suite = load_tasks(None, Path(args.suite))
        runs = [by_category(r, suite) for r in runs]
    if args.json:
        print(json.dumps([r.model_dump() for r in runs], indent=2))
    else:
        print(render(runs))
    return 0
