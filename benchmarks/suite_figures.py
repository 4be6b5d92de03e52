"""Print the figures of the imported upstream suites from a user's checkouts: a script, not a test.

    .venv/bin/python benchmarks/suite_figures.py [--verilogeval PATH] [--chipbench PATH]
        [--chipbench-debug PATH] [--rtllm PATH] [--jobs 2] [--out DIR]

For each checkout given (VerilogEval v2: a checkout of NVlabs/verilog-eval, whose
dataset_spec-to-rtl is imported, or one dataset folder; ChipBench: its checkout, for its
generation or its debugging track; RTLLM v2: its checkout), it runs `bench suite import`
(which validates every task by scoring its reference), then `bench score --suite DIR --lang
verilog` on what the import found valid, with the lint option off and on, then `bin/sysr check
--json` on every stub.sysr of a valid task (benchmarks/suite_stubs.py), and prints:

- imported, valid, and the invalid tasks grouped by the result their reference got;
- the references of the valid tasks passing `bench score --suite`, with and without `--lint`
  (they must all pass), and how many are lint-clean (no warning of `bench.judge.lint.FAILING`);
- the valid tasks expressible in sysr, as a count and a share, the stubs whose `sysr check`
  gives hole errors (H-codes) and nothing else (they must be all of them), and the tasks not
  expressible grouped by reason.

Not run in CI: CI has no upstream checkout, and nothing from one belongs in this project. The
task folders go to a temporary folder unless --out is given.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.judge.cache import ResultCache  # noqa: E402
from bench.judge.lint import FAILING  # noqa: E402
from bench.judge.score import Scorer  # noqa: E402
from bench.judge.tasks import load_tasks  # noqa: E402
from suite_stubs import report, survey  # noqa: E402  (benchmarks/suite_stubs.py: the stubs' check)


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(list(argv), capture_output=True, text=True, cwd=ROOT)


def group(entries: list[dict]) -> dict[str, list[str]]:
    """Tasks by the kind of their reason (the words before the first colon, or the reason's start)."""
    out: dict[str, list[str]] = defaultdict(list)
    for e in entries:
        reason = e["reason"]
        key = reason.split(":", 1)[0] if ":" in reason[:30] else reason.split(";")[0]
        out[key].append(e["task"])
    return dict(sorted(out.items(), key=lambda kv: -len(kv[1])))


def lint_clean(out: Path) -> int:
    """Valid references with no lint finding of FAILING (each scored again: read from the result cache)."""
    scorer = Scorer(cache=ResultCache())
    tasks = [t for t in load_tasks(None, out) if not t.invalid]
    return sum(not any(s.stage == "lint" and set(s.codes) & FAILING
                       for s in scorer.score(t, "verilog", t.text("ref.v")).stages) for t in tasks)


def figures(kind: str, src: str, out: Path, jobs: int) -> bool:
    print(f"== {kind}: {src}", flush=True)
    imp = run(str(ROOT / "bin" / "bench"), "suite", "import", kind, src, "--out", str(out), "--jobs", str(jobs),
              "--json")
    if imp.returncode != 0:
        print(f"   import failed:\n{imp.stderr}")
        return False
    r = json.loads(imp.stdout)
    print(f"   source {r['source']} at commit {r['commit']}")
    print(f"   imported {r['tasks']}; valid {r['valid']}; invalid {len(r['invalid'])}")
    for why, tasks in group(r["invalid"]).items():
        print(f"     invalid, {why}: {len(tasks)}: {', '.join(tasks)}")
    passed = {}
    for lint in ("", "--lint"):
        score = run(str(ROOT / "bin" / "bench"), "score", "--suite", str(out), "--lang", "verilog", "--jobs",
                    str(jobs), "--json", *([lint] if lint else []))
        data = json.loads(score.stdout) if score.stdout.strip() else {"counts": {}, "results": []}
        counts = data["counts"]
        passed[lint] = counts.get("passed")
        print(f"   bench score --suite {lint or '(lint off)'}: {counts.get('passed')} of {counts.get('candidates')} "
              f"references pass (by result: {counts.get('by_result')})")
    print(f"   lint-clean references: {lint_clean(out)} of {r['valid']}")
    not_expr = {e["task"] for e in r["sysr_not_expressible"]}
    stubs = survey(out, jobs)
    share = r["sysr_expressible"] / r["valid"] if r["valid"] else 0.0
    print(f"   sysr: {r['sysr_expressible']} of {r['valid']} valid tasks expressible ({share:.1%}); "
          f"stubs checking with only hole errors under `sysr check`: {stubs.only_holes} of {len(stubs.stubs)}")
    print("\n".join(line for line in report(stubs)[2:] if not line.startswith("   no stub:")))
    for why, tasks in group(r["sysr_not_expressible"]).items():
        print(f"     not expressible, {why}: {len(tasks)}: {', '.join(tasks)}")
    ok = (passed[""] == passed["--lint"] == r["valid"]
          and stubs.only_holes == len(stubs.stubs) == r["valid"] - len(not_expr))
    print(f"   consistent: {ok}")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verilogeval", metavar="PATH", help="a VerilogEval v2 checkout (or one dataset folder)")
    ap.add_argument("--chipbench", metavar="PATH", help="a ChipBench checkout (its Verilog Gen track)")
    ap.add_argument("--chipbench-debug", metavar="PATH", help="a ChipBench checkout (its Verilog Debugging track)")
    ap.add_argument("--rtllm", metavar="PATH", help="an RTLLM v2 checkout")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", metavar="DIR", help="keep the task folders here (DIR/<kind>)")
    args = ap.parse_args()
    given = {"verilogeval": args.verilogeval, "chipbench": args.chipbench, "chipbench-debug": args.chipbench_debug,
             "rtllm": args.rtllm}
    if not any(given.values()):
        ap.error("give at least one of --verilogeval, --chipbench, --chipbench-debug, --rtllm")
    with tempfile.TemporaryDirectory(prefix="suite-figures-") as tmp:
        base = Path(args.out) if args.out else Path(tmp)
        ok = True
        for kind, src in given.items():
            if src:
                ok = figures(kind, src, base / kind, args.jobs) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
