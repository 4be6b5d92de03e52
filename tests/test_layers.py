"""bench's import graph keeps its shape: the contracts of .importlinter (import-linter).

The layers (cli on top; the judge and the Verilog reader at the bottom; a package imports only
the packages below it), no import circles at any level of bench (imports inside functions
count), and nothing in sysr imports bench. A broken contract fails with import-linter's report,
which names the offending import chain.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).parent / "lint-imports"


def lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_import_contracts_hold():
    res = lint(ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    for name in ("bench: data flows one way (a package imports only the packages below it)",
                 "bench: no import circles between modules or packages at any level",
                 "sysr imports nothing of bench"):
        assert f"{name} KEPT" in res.stdout


def planted(tmp_path: Path, module: str, line: str) -> Path:
    """A copy of bench and the contracts with one import added at the end of `module`."""
    shutil.copytree(ROOT / "bench", tmp_path / "bench", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    path = tmp_path / module
    path.write_text(path.read_text() + f"\n\ndef _planted():\n    {line}  # noqa\n")
    return tmp_path


def test_a_judge_module_importing_a_client_breaks_the_layers(tmp_path):
    res = lint(planted(tmp_path, "bench/judge/cache.py", "from ..loop.records import RunRecord"))
    assert res.returncode == 1
    assert "bench: data flows one way (a package imports only the packages below it) BROKEN" in res.stdout
    assert "bench.judge.cache -> bench.loop.records" in res.stdout


def test_a_circle_inside_a_package_is_named(tmp_path):
    res = lint(planted(tmp_path, "bench/judge/results.py", "from .score import Scorer"))
    assert res.returncode == 1
    assert "bench: no import circles between modules or packages at any level BROKEN" in res.stdout
    assert "No cycles are allowed in bench.judge." in res.stdout
    assert ".results -> .score (1 import)" in res.stdout
