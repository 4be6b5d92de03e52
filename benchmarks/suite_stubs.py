"""Check every sysr stub of imported suites with `sysr check`: a script, not a test (CI runs its
`survey` on the project's fixture suites, tests/test_suite_solutions.py).

    .venv/bin/python benchmarks/suite_stubs.py SUITE_DIR... [--jobs 2] [--json]

Each SUITE_DIR is the output of `bench suite import` (its suite.json and one folder per task).
A stub (`stub.sysr`, the starting file a model is given) must check with hole errors and nothing
else: one H001 per output (reference §5.5), no other error, since anything else is a stub a
model cannot complete as written. For each suite it prints the valid tasks, the stubs, the stubs
with only hole errors, every other error a stub gets (its code, line and message), a stub whose
hole errors do not match its outputs, and the valid tasks with no stub (with the importer's
reason). Exit 0 when every stub checks with only its hole errors, 1 otherwise.

Not run in CI on upstream suites: CI has no upstream checkout, and nothing from one belongs in
this project.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYSR = ROOT / "bin" / "sysr"
HOLE = "H001"
TIMEOUT_S = 120


@dataclass
class StubResult:
    """What `sysr check` says of one stub: its error codes and the errors other than holes."""

    task: str
    holes: int = 0
    outputs: int = 0
    others: list[str] = field(default_factory=list)

    @property
    def only_holes(self) -> bool:
        return not self.others and self.holes == self.outputs > 0


@dataclass
class Survey:
    """One imported suite's stubs."""

    suite: str
    folder: str
    valid: int
    stubs: list[StubResult]
    no_stub: dict[str, str]  # task -> why the importer wrote none

    @property
    def only_holes(self) -> int:
        return sum(s.only_holes for s in self.stubs)

    @property
    def ok(self) -> bool:
        return self.only_holes == len(self.stubs)


def check_stub(task: str, stub: Path) -> StubResult:
    """`sysr check --json` on one stub: the hole errors counted, any other error kept as a line."""
    try:
        res = subprocess.run([str(SYSR), "check", "--json", str(stub)], capture_output=True, text=True,
                             timeout=TIMEOUT_S)
        report = json.loads(res.stdout)
    except subprocess.TimeoutExpired:
        return StubResult(task, others=[f"sysr check did not finish in {TIMEOUT_S} s"])
    except ValueError:
        return StubResult(task, others=[f"sysr check printed no JSON report (exit {res.returncode}): "
                                        f"{res.stderr.strip()[-300:]}"])
    errors = [d for d in report.get("diagnostics", []) if d.get("severity") == "error"]
    outputs = sum(p.get("kind") in ("out", "out_reg") for p in report.get("ports") or [])
    others = [f"{d['code']} line {d.get('span', {}).get('line', '?')}: {d['message']}"
              for d in errors if d.get("code") != HOLE]
    if report.get("accepted"):
        others.append("accepted: the stub has no hole left")
    return StubResult(task, sum(d.get("code") == HOLE for d in errors), outputs, others)


def survey(folder: Path, jobs: int = 2) -> Survey:
    """Every stub of one imported suite, checked; the valid tasks without one, with the reason."""
    meta = json.loads((folder / "suite.json").read_text())
    invalid = {e["task"] for e in meta.get("invalid", [])}
    tasks = sorted(p.name for p in folder.iterdir() if (p / "task.json").is_file() and p.name not in invalid)
    with_stub = [t for t in tasks if (folder / t / "stub.sysr").is_file()]
    reasons = {e["task"]: e["reason"] for e in meta.get("sysr_not_expressible", [])}
    no_stub = {t: reasons.get(t, "(no reason recorded)") for t in tasks if t not in with_stub}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        stubs = list(pool.map(lambda t: check_stub(t, folder / t / "stub.sysr"), with_stub))
    return Survey(meta.get("kind", folder.name), str(folder), meta.get("valid", len(tasks)), stubs, no_stub)


def report(s: Survey) -> list[str]:
    out = [f"== {s.suite}: {s.folder}",
           f"   valid tasks {s.valid}; stubs {len(s.stubs)}; stubs with only hole errors {s.only_holes} of "
           f"{len(s.stubs)}; valid tasks with only-hole stubs {s.only_holes} of {s.valid}"]
    for r in s.stubs:
        if r.others:
            out += [f"   {r.task}: {line}" for line in r.others]
        elif not r.only_holes:
            out.append(f"   {r.task}: {r.holes} hole error(s) for {r.outputs} output(s)")
    out += [f"   no stub: {t}: {why}" for t, why in s.no_stub.items()]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suites", nargs="+", metavar="SUITE_DIR", help="a folder written by `bench suite import`")
    ap.add_argument("--jobs", type=int, default=2, help="stubs checked in parallel")
    ap.add_argument("--json", action="store_true", help="print one JSON object per suite")
    args = ap.parse_args(argv)
    ok = True
    for folder in map(Path, args.suites):
        if not (folder / "suite.json").is_file():
            print(f"{folder}: no suite.json; not a folder written by `bench suite import`", file=sys.stderr)
            return 2
        s = survey(folder, args.jobs)
        ok = ok and s.ok
        if args.json:
            print(json.dumps({**asdict(s), "only_holes": s.only_holes}))
        else:
            print("\n".join(report(s)), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
