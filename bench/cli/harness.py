"""`bench-harness`: bench behind an RTL harness's contract, writing rtl_report.json.

    bench-harness --benchmark NAME --model MODEL --output-dir DIR [--samples N] [--limit N]

The arguments are the contract's; MODEL is any model `bench loop` takes (`scripted:FILE`,
`relay:DIR`, `openai:MODEL`, `anthropic:MODEL_ID`). NAME is one of `BENCHMARKS`: this project's
tasks (`sysr-bench`), or an upstream suite, found through its environment variable (`ENV`),
which names either the user's checkout of the suite (imported into DIR/suite first, validated
task by task as `bench suite import` does, or reused when DIR/suite is an import of the same
commit) or a folder `bench suite import` already made. An unset variable, or one naming
nothing, is an error naming the variable to set (exit 2): no run, and no tool failure.

The run is `bench loop` (DIR/run: run.json and the transcripts), `--samples` conversations per
task, `--budget` attempts each (default 1: a single generation, as the upstream harnesses
score), `--limit` the first N tasks in name order; then DIR/rtl_report.json, schema v2
(`bench.report.rtl_from_bench`), and the summary on stdout. Exit 0 when the run finished (failures
and tool failures are in the report), 2 when it could not run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..judge import sandbox
from ..judge.tasks import TASKS_DIR, TaskError, select
from ..loop.models import SPECS, ModelError, get_model
from ..loop.runs import Loop, LoopError, Run, RunSpec
from ..report.rtl_from_bench import report
from ..suites.checkout import commit
from ..suites.importer import import_suite
from ..suites.problem import SuiteError
from ..report.summary import counts, render

# benchmark -> (the kind `bench suite import` takes, the environment variable, the dataset within it)
BENCHMARKS: dict[str, tuple[str | None, str | None, str | None]] = {
    "sysr-bench": (None, None, None),
    "verilogeval": ("verilogeval", "VERILOGEVAL_DIR", "dataset_spec-to-rtl"),
    "verilogeval-complete": ("verilogeval", "VERILOGEVAL_DIR", "dataset_code-complete-iccad2023"),
    "rtllm": ("rtllm", "RTLLM_DIR", None),
    "chipbench": ("chipbench", "CHIPBENCH_DIR", None),
    "chipbench-debug": ("chipbench-debug", "CHIPBENCH_DIR", None),
}
REPORT = "rtl_report.json"


class HarnessError(Exception):
    """The run could not start (the message says what to set or fix)."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench-harness", description=__doc__.split("\n\n")[2].replace("\n", " "))
    p.add_argument("--benchmark", required=True, choices=sorted(BENCHMARKS), metavar="NAME",
                   help="one of " + ", ".join(sorted(BENCHMARKS)))
    p.add_argument("--model", required=True, metavar="MODEL", help=SPECS)
    p.add_argument("--output-dir", required=True, metavar="DIR", help="where run/, suite/ and rtl_report.json go")
    p.add_argument("--samples", type=int, default=1, metavar="N", help="samples per task (default 1)")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N tasks, in name order")
    p.add_argument("--lang", choices=["verilog", "sysr"], default="verilog", help="the language asked for")
    p.add_argument("--budget", type=int, default=1, metavar="N",
                   help="attempts per sample, each after the scorer's feedback (default 1)")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="samples in parallel")
    p.add_argument("--base-url", metavar="URL", help="the endpoint of an openai: model")
    p.add_argument("--lint", action="store_true", help="let Verilator's lint fail designs (`bench score --lint`)")
    p.add_argument("--allow-unpinned", action="store_true",
                   help="import a checkout whose commit cannot be read (recorded as unknown)")
    return p


def suite_folder(benchmark: str, out: Path, allow_unpinned: bool = False) -> Path | None:
    """The imported suite the benchmark runs (None: this project's tasks), importing it if needed."""
    kind, var, dataset = BENCHMARKS[benchmark]
    if kind is None or var is None:
        return None
    given = os.environ.get(var, "")
    if not given or not Path(given).is_dir():
        what = f"is set to {given!r}, which is not a folder" if given else "is not set"
        raise HarnessError(f"--benchmark {benchmark}: {var} {what}; set {var} to your checkout of the suite "
                           f"(or to a folder `bench suite import {kind}` made)")
    src = Path(given)
    if (src / "suite.json").is_file():
        return _checked(src, kind)
    if dataset and (src / dataset).is_dir():
        src = src / dataset
    dest = out / "suite"
    try:
        pinned = commit(src)
        old = json.loads((dest / "suite.json").read_text()) if (dest / "suite.json").is_file() else None
        if old and old.get("kind") == kind and old.get("commit") == pinned and "dirty" not in pinned \
                and pinned != "unknown" and Path(old.get("source", "/")).is_relative_to(src.resolve()):
            return dest  # the same suite at the same commit, imported before
        print(f"bench-harness: importing {src} into {dest}", file=sys.stderr)
        import_suite(kind, src, dest, jobs=1, allow_unpinned=allow_unpinned)
    except SuiteError as e:
        raise HarnessError(f"--benchmark {benchmark}: {var}={given}: {e}") from None
    return dest


def _checked(folder: Path, kind: str) -> Path:
    meta = json.loads((folder / "suite.json").read_text())
    if meta.get("kind") != kind:
        raise HarnessError(f"{folder} is an import of {meta.get('kind')!r}, not {kind!r}")
    return folder


def run(args) -> int:
    if args.samples < 1 or args.budget < 1 or (args.limit is not None and args.limit < 1):
        raise HarnessError("--samples, --budget and --limit must be at least 1")
    out = Path(args.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    suite = suite_folder(args.benchmark, out, args.allow_unpinned)
    try:
        tasks, left = select(None, args.lang, suite or TASKS_DIR)
    except TaskError as e:
        raise HarnessError(str(e)) from None
    if left:
        print(f"bench-harness: {len(left)} task(s) left out (invalid, or not expressible in {args.lang}); see "
              f"{suite}/suite.json", file=sys.stderr)
    tasks = sorted(tasks, key=lambda t: t.name)[:args.limit] if args.limit else tasks
    if not tasks:
        raise HarnessError(f"no task of {args.benchmark} to run in {args.lang}")
    sandbox.ensure()
    model = get_model(args.model, base_url=args.base_url)
    spec = RunSpec(model=args.model, lang=args.lang, budget=args.budget, samples=args.samples,
                   endpoint=getattr(model, "base_url", None), suite=str(suite.resolve()) if suite else None,
                   lint=args.lint)
    folder = out / "run"
    started = Run.resume(folder, spec) if (folder / "run.json").is_file() else Run.create(folder, spec)
    rec = Loop(started, model, tasks).go(args.jobs)
    rtl = report([(folder.name, rec)], version=2, benchmark=args.benchmark)
    (out / REPORT).write_text(rtl.dump())
    print(render([counts(rec, args.benchmark)]))
    print(f"\nreport: {out / REPORT}\nrecords: {folder}/run.json")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return run(args)
    except (HarnessError, ModelError, LoopError, sandbox.SandboxUnavailable) as e:
        print(f"bench-harness: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
