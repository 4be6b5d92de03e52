"""Run one external command under limits and return what happened as a record, never an exception.

Every tool bench runs (Yosys, iverilog, vvp, `sysr` itself) goes through `run_bounded`: a fresh
process group with a wall-clock limit (the whole group is killed when it is exceeded, so a
combinational loop spinning `vvp` cannot hang the scorer), limits on address space and file
size, captured output cut at a fixed size, and an environment without secrets.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .tools import tool_env

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MEMORY_BYTES = 2 * 1024**3
DEFAULT_FILE_BYTES = 64 * 1024**2
OUTPUT_LIMIT = 256 * 1024


@dataclass(frozen=True)
class RunResult:
    argv: tuple[str, ...]
    returncode: int | None  # None when it could not start or was killed
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool = False
    started: bool = True
    error: str = ""  # why it did not start, or what killed it

    @property
    def ran(self) -> bool:
        """Whether the tool ran to an exit of its own (not missing, not killed by a limit)."""
        return self.started and not self.timed_out and self.returncode is not None and self.returncode >= 0

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def _limits(memory_bytes: int, file_bytes: int):
    def apply() -> None:
        os.setsid()
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def _cut(data: bytes) -> str:
    text = data[:OUTPUT_LIMIT].decode("utf-8", errors="replace")
    if len(data) > OUTPUT_LIMIT:
        text += f"\n[output cut at {OUTPUT_LIMIT} bytes]\n"
    return text


def run_bounded(argv: list[str], cwd: Path | str, timeout_s: float = DEFAULT_TIMEOUT_S,
                memory_bytes: int = DEFAULT_MEMORY_BYTES, file_bytes: int = DEFAULT_FILE_BYTES,
                env: dict[str, str] | None = None, stdin: bytes | None = None) -> RunResult:
    """Run argv in cwd under the limits; the result says whether it ran, timed out or was killed."""
    env = dict(env) if env is not None else tool_env()
    env.setdefault("HOME", str(cwd))
    t0 = time.perf_counter()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=_limits(memory_bytes, file_bytes))
    except OSError as e:
        return RunResult(tuple(argv), None, "", "", time.perf_counter() - t0, started=False,
                         error=f"could not start {argv[0]}: {e.strerror or e}")
    try:
        out, err = proc.communicate(stdin, timeout=timeout_s)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        timed_out = True
    duration = time.perf_counter() - t0
    rc = proc.returncode
    error = ""
    if timed_out:
        error = f"killed after {timeout_s:g} s"
        rc = None
    elif rc is not None and rc < 0:
        error = f"killed by signal {signal.Signals(-rc).name}"
    _kill_group(proc)  # anything it left behind in its group
    return RunResult(tuple(argv), rc, _cut(out), _cut(err), duration, timed_out, True, error)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
