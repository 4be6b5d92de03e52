"""`bench report RUN|LOG ... --out rtl_report.json`: runs as the RTL harness contract's report.

The runs are read as `bench summary` reads them (a run folder of `bench loop` or its run.json,
an Inspect log file or log folder of sysr_bench) and written as one rtl_report.json
(`bench.report.rtl_from_bench`): schema v2 by default, v1 with `--schema 1`. The file is validated
against the contract's models before it is written (`bench.report.rtl_report`). Exit 0 when written,
2 when a run cannot be read.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..report.inspect_log import is_inspect_log, load_logs
from ..report.rtl_from_bench import report
from ..report.rtl_report import read_report
from ..report.summary import load_run


def add_commands(sub) -> None:
    rp = sub.add_parser("report", help="write runs as an rtl_report.json (tuneplane/rtl-report v1 or v2)",
                        description="Write one or more runs as an rtl_report.json, the report an RTL harness "
                                    "hands to dashboards and training: per suite pass@1, pass@k, tool failures "
                                    "and pass rate (v1), and per sample its stages with their tools, verdicts "
                                    "and log digests (v2). See the README for the stage mapping.")
    rp.add_argument("runs", nargs="+", metavar="RUN", help="a run folder or its run.json; an Inspect log file or "
                                                            "log folder")
    rp.add_argument("--out", required=True, metavar="FILE", help="where to write the report (- for stdout)")
    rp.add_argument("--schema", type=int, choices=[1, 2], default=2, help="the report's version (default 2)")
    rp.add_argument("--benchmark", metavar="NAME", help="the benchmark's name in the report (default: the suites')")
    rp.set_defaults(func=cmd_report)


def cmd_report(args) -> int:
    runs = []
    for r in args.runs:
        p = Path(r)
        try:
            if is_inspect_log(p):
                runs += load_logs(p)
            else:
                runs.append((p.name if p.is_dir() else p.parent.name, load_run(p)))
        except (OSError, ValueError) as e:
            print(f"bench report: cannot read {r}: {e}", file=sys.stderr)
            return 2
    text = report(runs, version=args.schema, benchmark=args.benchmark).dump()
    read_report(text)  # what is written is what a reader accepts
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text)
        print(f"bench report: {args.out} ({'v2' if args.schema == 2 else 'v1'}, {len(runs)} run(s))", file=sys.stderr)
    return 0
