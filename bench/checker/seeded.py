"""The seeded-bug runner: every tests/seeded/*.sysr must be rejected by `sysr check` with exactly
the codes its first line expects (`// expect: V002`), before anything is simulated.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from pydantic import BaseModel

from ..judge.run import run_bounded
from ..judge.tasks import ROOT

SEEDED_DIR = ROOT / "tests" / "seeded"
_EXPECT = re.compile(r"^//\s*expect:\s*(.+)$")


class SeededResult(BaseModel):
    file: str
    expected: list[str]
    got: list[str]
    ok: bool
    detail: str = ""


def expected_codes(text: str) -> list[str] | None:
    first = text.splitlines()[0] if text else ""
    m = _EXPECT.match(first)
    return sorted(set(m.group(1).split())) if m else None


def run_one(path: Path, timeout_s: float = 180.0) -> SeededResult:
    name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    expected = expected_codes(path.read_text())
    if expected is None:
        return SeededResult(file=name, expected=[], got=[], ok=False,
                            detail="first line is not `// expect: CODES`")
    res = run_bounded([sys.executable, "-P", "-m", "sysr.cli", "check", "--json", str(path.resolve())],
                      path.parent, timeout_s)
    try:
        data = json.loads(res.stdout)
    except json.JSONDecodeError:
        why = res.error or f"exit status {res.returncode}"
        return SeededResult(file=name, expected=expected, got=[], ok=False,
                            detail=f"sysr check did not produce a verdict ({why}): {res.stderr[-500:]}")
    got = sorted({d["code"] for d in data["diagnostics"] if d["severity"] == "error"})
    ok = got == expected and not data["accepted"]
    return SeededResult(file=name, expected=expected, got=got, ok=ok,
                        detail="" if ok else data.get("text", "")[-1500:])


def seeded_files(folder: Path = SEEDED_DIR) -> list[Path]:
    return sorted(folder.glob("*.sysr"))
