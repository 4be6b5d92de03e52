"""Run the hostile designs of tests/hostile.py at full size under the benchmark's limits.

A benchmark, not a test: `.venv/bin/python benchmarks/hostile_inputs.py [--only NAME,...]
[--test-size]`. For each attack it writes the file, runs `sysr check --json` and `sysr lower`
as the scorer does (through `bench.judge.run.run_bounded`: 2 GiB of address space, 180 s), and prints
one row: the exit statuses, the times, the diagnostic codes, and whether standard output was
valid JSON and how long. Every row should read exit 1 with the expected code, valid JSON, and a
time well under 180 s (or exit 0 for an attack that is now within the limits); exit 2 or a
killed run is a bug.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bench.judge.run import run_bounded  # noqa: E402
from hostile import ATTACKS  # noqa: E402

CHECK_S = 180.0


def run(argv: list[str], work: Path):
    return run_bounded([sys.executable, "-P", "-m", "sysr.cli", *argv], work, CHECK_S,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})  # the scorer's 2 GiB


def codes_of(stdout: str) -> tuple[str, str]:
    try:
        data = json.loads(stdout)
    except json.JSONDecodeError:
        return "-", "INVALID"
    return ",".join(sorted({d["code"] for d in data["diagnostics"]})) or "-", "ok"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated attack names")
    ap.add_argument("--test-size", action="store_true", help="use the sizes the tests use")
    args = ap.parse_args()
    names = args.only.split(",") if args.only else list(ATTACKS)
    print(f"{'attack':22} {'size':>10} {'bytes':>10}  {'check':>5} {'s':>6}  {'json':>7} {'codes':12} "
          f"{'want':5}  {'lower':>5} {'s':>6}")
    bad = 0
    with tempfile.TemporaryDirectory(prefix="sysr-hostile-") as tmp:
        work = Path(tmp)
        for name in names:
            attack = ATTACKS[name]
            size, want = (attack.test_size, attack.test_code) if args.test_size else (attack.size, attack.code)
            text = attack.make(size)
            f = work / "candidate.sysr"
            f.write_bytes(text if isinstance(text, bytes) else text.encode())
            c = run(["check", "--json", f.name], work)
            codes, js = codes_of(c.stdout)
            lo = run(["lower", f.name, "-o", "candidate.v"], work)
            if want is None:  # accepted
                ok = c.returncode == 0 and js == "ok" and lo.returncode == 0
            else:
                ok = (c.returncode == 1 and js == "ok" and want in codes.split(",")
                      and lo.returncode == (0 if attack.lowers else 1))
            bad += not ok
            print(f"{name:22} {size:>10,} {f.stat().st_size:>10,}  {c.returncode!s:>5} {c.duration_s:>6.1f}  "
                  f"{js:>3} {len(c.stdout) // 1024:>3}K {codes[:12]:12} {want or 'ok':5}  {lo.returncode!s:>5} "
                  f"{lo.duration_s:>6.1f}" + ("" if ok else "   <-- " + (c.error or lo.error or "unexpected"))
                  , flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
