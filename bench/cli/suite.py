"""`bench suite import KIND SRC --out DIR`: an upstream suite from a user's checkout, as task folders.

KIND is one of `bench.suites.importer.KINDS`. Progress goes to stderr, one line per task as it is
validated; the report (`bench.suites.importer`) to stdout, as a few lines or, with --json, one object. Exit status 0 when the import finished
(invalid tasks are part of the report, not an error), 2 when it could not (not a checkout of the
suite, OUT not a suite folder, no sandbox).
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from ..judge import sandbox
from ..suites.importer import KINDS, Imported, SuiteReport, import_suite
from ..suites.problem import SuiteError

SHOWN = 40  # reasons listed in the plain report per list


def add_commands(sub) -> None:
    su = sub.add_parser("suite", help="import an upstream suite (VerilogEval v2, RTLLM v2, ChipBench) as task folders",
                        description="Work with upstream benchmark suites.")
    ssub = su.add_subparsers(dest="suite_command", required=True)
    im = ssub.add_parser(
        "import", help="turn a local checkout of a suite into validated task folders",
        description="Turn a local checkout of an upstream suite into task folders in this project's format, each "
                    "validated by scoring its own reference through the scorer (Yosys and Icarus, read as "
                    "SystemVerilog), with a sysr stub where sysr can express the interface. The checkout is only "
                    "read; the folders hold its problems, so keep them out of any repository (suites/ is "
                    "git-ignored here). KIND verilogeval: SRC is a checkout of NVlabs/verilog-eval (its "
                    "dataset_spec-to-rtl is imported) or one of its dataset folders (dataset_code-complete-iccad2023 "
                    "for the code-completion layout). KIND chipbench: SRC is a ChipBench checkout, its `Verilog Gen` "
                    "folder, or one dataset_* folder. KIND chipbench-debug: SRC is a ChipBench checkout, its "
                    "`Verilog Debugging` folder or one dataset_debug_* folder (Verilog only). KIND rtllm: SRC is a "
                    "checkout of hkust-zhiyao/RTLLM (v2). The checkout is read as hostile input: no git command runs, "
                    "no symbolic link is followed, sizes are bounded; its commit is recorded in every task, and a "
                    "folder whose commit cannot be read is refused unless --allow-unpinned. "
                    "Then: bench score|loop --suite DIR.")
    im.add_argument("kind", choices=sorted(KINDS), metavar="KIND", help=" or ".join(sorted(KINDS)))
    im.add_argument("src", metavar="SRC", help="the local checkout (read only, never changed)")
    im.add_argument("--out", metavar="DIR", required=True,
                    help="where the task folders go: a new or empty folder, or an earlier import, which is replaced")
    im.add_argument("--jobs", type=int, default=1, metavar="N", help="validate N tasks in parallel")
    im.add_argument("--allow-unpinned", action="store_true",
                    help="import a folder that is not a git checkout (or whose commit cannot be read); its tasks "
                         "record the commit as \"unknown\"")
    im.add_argument("--fix-races", action="store_true",
                    help="rewrite each hidden testbench so its stimulus writes the designs' inputs with nonblocking "
                         "assignments (<=) where it used blocking ones: every design then samples the values from "
                         "before the clock edge, whatever order the simulator runs the blocks in (the race check's "
                         "finding is still recorded, from the upstream testbench)")
    im.add_argument("--json", action="store_true",
                    help="print one JSON object: kind, source, commit, tasks, valid, invalid, sysr_expressible, "
                         "sysr_not_expressible, race_checked, race_sensitive, fix_races, races_fixed")
    im.set_defaults(func=cmd_import)


def cmd_import(args) -> int:
    lock, done, clean = threading.Lock(), [0], []

    def progress(i: Imported) -> None:
        with lock:
            done[0] += 1
            if not i.timeout_fails:
                clean.append(i.task)
            if not args.json:
                state = f"invalid: {i.invalid}" if i.invalid else "valid" + (
                    "" if not i.sysr else "; not expressible in sysr") + _race(i)
                print(f"[{done[0]}] {i.task}: {state}", file=sys.stderr, flush=True)

    try:
        sandbox.ensure()
        report = import_suite(args.kind, Path(args.src), Path(args.out), args.jobs, progress, args.allow_unpinned,
                              args.fix_races)
    except (SuiteError, sandbox.SandboxUnavailable) as e:
        print(f"bench suite import: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(render(report, args.out, sorted(clean)))
    return 0


def _race(i: Imported) -> str:
    if i.invalid or i.race_sensitive is None:
        return ""
    fixed = f", {i.races_fixed} assignment(s) made nonblocking" if i.races_fixed else ""
    return ("; race-sensitive" if i.race_sensitive else "") + fixed


def render(r: SuiteReport, out: str, clean: list[str]) -> str:
    lines = [f"{r.kind}: {r.tasks} task(s) from {r.source} (commit {r.commit}) in {out}",
             f"valid: {r.valid}; invalid: {len(r.invalid)} (left out of every count)"]
    lines += [f"  {x.task}: {x.reason}" for x in r.invalid[:SHOWN]]
    lines += [f"  ... and {len(r.invalid) - SHOWN} more in {out}/suite.json"] if len(r.invalid) > SHOWN else []
    lines.append(f"sysr: {r.sysr_expressible} of the {r.valid} valid task(s) expressible; not expressible: "
                 f"{len(r.sysr_not_expressible)} (left out of the sysr condition)")
    lines += [f"  {x.task}: {x.reason}" for x in r.sysr_not_expressible[:SHOWN]]
    lines.append(f"stimulus races: {len(r.race_sensitive)} of the {r.race_checked} checked valid task(s) race-"
                 "sensitive (a correct design reading its inputs one step late fails)" +
                 (f"; {r.races_fixed} blocking assignment(s) made nonblocking (--fix-races)" if r.fix_races else ""))
    lines += [f"  {x.task}: {x.reason}" for x in r.race_sensitive[:SHOWN]]
    if clean:
        lines.append("judged on their mismatch count alone, their testbench's own TIMEOUT coming before its "
                     "stimulus ends for the reference too: " + ", ".join(clean))
    return "\n".join(lines)
