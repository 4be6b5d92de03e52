"""Run the whole yosys-smtbmc cross-check: every design of the project, not only the default set.

Not part of the default test run (it takes several minutes on 2 cores: Yosys' BMC to 20 cycles
of the larger references is slow): `.venv/bin/python benchmarks/crosscheck_full.py [PYTEST ARGS]`.
It runs `pytest tests/test_formal.py` with every design selected (the `formal_full` marker
included); the exit status is pytest's.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    sys.exit(subprocess.call([sys.executable, "-m", "pytest", "tests/test_formal.py", "-m",
                              "formal_full or not formal_full", "--durations=10", *sys.argv[1:]], cwd=ROOT))
