"""Run one external command under limits and return what happened as a record, never an exception.

Every tool bench runs (Yosys, iverilog, vvp, `sysr` itself) goes through `run_bounded`: a fresh
process group with a wall-clock limit (the whole group is killed when it is exceeded, so a
combinational loop spinning `vvp` cannot hang the scorer), limits on address space and file
size (set by util-linux's `prlimit` in front of the command, so Python can start it without
copying its own memory; by a pre-exec hook if prlimit is missing), and an environment without
secrets. Output is read as a stream while the tool runs: each
of stdout and stderr keeps at most `output_limit` bytes, and a tool that writes more is killed
there and then, so a flooding tool costs the scorer at most that much memory. The result says
which limit, if any, stopped the tool (`limit`: time, memory, output or file size).

`run_bounded` runs a command as it is (the scorer's own `sysr` stages, the test helpers); the
tools a candidate reaches (Yosys, iverilog, vvp) run in the candidate's sandbox instead
(`bench.judge.session`), which reads their output and names their limits with the same pieces
(`read_streams`, `finished`), so a result means the same wherever it comes from.
"""

from __future__ import annotations

import os
import resource
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .tools import ToolMissing, find_tool, tool_env

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MEMORY_BYTES = 2 * 1024**3
DEFAULT_FILE_BYTES = 64 * 1024**2
OUTPUT_LIMIT = 256 * 1024
WATCH_S = 0.05  # how often a run's `watch` looks (the files a tool wrote in all)
_CHUNK = 64 * 1024

# What a tool that ran out of memory says (C++ allocation failure, glibc, Python, bison, Yosys).
_MEMORY_WORDS = ("std::bad_alloc", "out of memory", "Out of memory", "Cannot allocate memory",
                 "MemoryError", "memory exhausted")


@dataclass(frozen=True)
class RunResult:
    argv: tuple[str, ...]
    returncode: int | None  # None when it could not start or was killed by a limit
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool = False
    started: bool = True
    error: str = ""  # why it did not start, or what stopped it
    limit: str = ""  # the limit that stopped it: "time", "memory", "output", "file size", "disk"; "" if none

    @property
    def ran(self) -> bool:
        """Whether the tool ran to an exit of its own (not missing, not stopped by a limit, not killed)."""
        return self.started and not self.limit and self.returncode is not None and self.returncode >= 0

    @property
    def crashed(self) -> bool:
        """Killed by a signal that no limit of ours explains (a segmentation fault, an abort...)."""
        return self.started and not self.limit and self.returncode is not None and self.returncode < 0

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def _limited(argv: list[str], memory_bytes: int, file_bytes: int):
    """(argv, pre-exec hook): argv behind prlimit, or argv unchanged and a hook that sets the limits."""
    try:
        prlimit = find_tool("prlimit")
    except ToolMissing:
        def apply() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        return argv, apply
    return [prlimit, f"--as={memory_bytes}", f"--fsize={file_bytes}", "--core=0", "--", *argv], None


class Capture:
    """One output stream, kept up to a cap; `over` once the tool wrote more than that."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data = bytearray()
        self.over = False

    def add(self, chunk: bytes) -> None:
        room = self.cap - len(self.data)
        if len(chunk) > room:
            self.data += chunk[:max(room, 0)]
            self.over = True
        else:
            self.data += chunk

    def text(self) -> str:
        text = self.data.decode("utf-8", errors="replace")
        if self.over:
            text += f"\n[output cut at {self.cap} bytes]\n"
        return text


def run_bounded(argv: list[str], cwd: Path | str, timeout_s: float = DEFAULT_TIMEOUT_S,
                memory_bytes: int = DEFAULT_MEMORY_BYTES, file_bytes: int = DEFAULT_FILE_BYTES,
                env: dict[str, str] | None = None, stdin: bytes | None = None,
                output_limit: int = OUTPUT_LIMIT) -> RunResult:
    """Run argv in cwd under the limits; the result says whether it ran and what stopped it."""
    env = dict(env) if env is not None else tool_env()
    env.setdefault("HOME", str(cwd))
    env.setdefault("TMPDIR", str(cwd))
    t0 = time.perf_counter()
    if os.path.isabs(argv[0]) and not os.access(argv[0], os.X_OK):
        return RunResult(tuple(argv), None, "", "", 0.0, started=False, error=f"could not start {argv[0]}: "
                         "no such executable file")
    command, hook = _limited(argv, memory_bytes, file_bytes)
    try:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                preexec_fn=hook)
    except OSError as e:
        return RunResult(tuple(argv), None, "", "", time.perf_counter() - t0, started=False,
                         error=f"could not start {argv[0]}: {e.strerror or e}")
    if stdin:
        threading.Thread(target=_feed, args=(proc.stdin, stdin), daemon=True).start()
    out, err = Capture(output_limit), Capture(output_limit)
    try:
        limit = read_streams(proc.stdout.fileno(), proc.stderr.fileno(), out, err, t0 + timeout_s)
    finally:
        proc.stdout.close()
        proc.stderr.close()
    if not limit:
        try:
            proc.wait(max(0.0, t0 + timeout_s - time.perf_counter()))
        except subprocess.TimeoutExpired:
            limit = "time"
    kill_group(proc)  # on a limit, the tool; otherwise anything it left behind in its group
    proc.wait()
    return finished(argv, proc.returncode, out, err, time.perf_counter() - t0, limit,
                    timeout_s, memory_bytes, file_bytes)


def finished(argv: list[str], rc: int | None, out: "Capture", err: "Capture", duration: float, limit: str,
             timeout_s: float, memory_bytes: int, file_bytes: int, error: str = "") -> RunResult:
    """The record of a run that started: which limit stopped it ("" if none) and why, in words.

    `rc` is the exit status (negative: killed by that signal); `limit` is "time" or "output" when
    the reader stopped the tool; a file size or memory limit is read from the exit.
    """
    stdout, stderr = out.text(), err.text()
    if not limit:
        limit = _limit_from_exit(rc, stderr)
    if limit == "time":
        error = f"killed after {timeout_s:g} s"
    elif limit == "output":
        error = f"killed after writing more than {out.cap} bytes of output"
    elif limit == "file size":
        error = f"a file it wrote exceeded {file_bytes} bytes"
    elif limit == "disk":
        error = "the files it wrote exceeded the candidate's budget for all its files together"
    elif limit == "memory":
        error = f"ran out of memory (limit {memory_bytes // 1024**2} MiB)"
    elif rc is not None and rc < 0 and not error:
        error = f"killed by signal {_signal_name(-rc)}"
    if limit in ("time", "output"):
        rc = None
    return RunResult(tuple(argv), rc, stdout, stderr, duration, limit == "time", True, error, limit)


def read_streams(out_fd: int, err_fd: int, out: "Capture", err: "Capture", deadline: float,
                 status_fd: int | None = None, status: bytearray | None = None,
                 watch: Callable[[], str] | None = None) -> str:
    """Read stdout and stderr into their captures; "time" or "output" when a limit was hit, else "".
    `watch`, called every `WATCH_S` while the tool runs, names a limit of its own ("" if none),
    which stops the reading as the others do.

    Without `status_fd`, until both pipes close. With it, until `status` (the bytes read from
    status_fd and not yet used, kept by the caller) holds a whole line or status_fd closes; then
    whatever the tool wrote before is drained from the pipes, which stay open (they must be
    non-blocking). The caller kills the tool on a limit.
    """
    sel = selectors.DefaultSelector()
    sel.register(out_fd, selectors.EVENT_READ, out)
    sel.register(err_fd, selectors.EVENT_READ, err)
    if status_fd is not None:
        if status is not None and b"\n" in status:
            return _drain(out_fd, out, err_fd, err)
        sel.register(status_fd, selectors.EVENT_READ, status)
    watched = time.perf_counter()
    try:
        while sel.get_map():
            now = time.perf_counter()
            remaining = deadline - now
            if remaining <= 0:
                return "time"
            if watch is not None:
                if now - watched >= WATCH_S:
                    watched = now
                    if limit := watch():
                        return limit
                remaining = min(remaining, WATCH_S)
            for key, _ in sel.select(remaining):
                try:
                    chunk = os.read(key.fd, _CHUNK)
                except BlockingIOError:
                    continue
                if key.fd == status_fd:
                    status += chunk
                    if b"\n" in status or not chunk:
                        return _drain(out_fd, out, err_fd, err)
                    continue
                if not chunk:
                    sel.unregister(key.fd)
                    continue
                key.data.add(chunk)
                if key.data.over:
                    return "output"
        return ""
    finally:
        sel.close()


def _drain(out_fd: int, out: "Capture", err_fd: int, err: "Capture") -> str:
    """Read what is left in two non-blocking pipes; "output" if that passes a cap."""
    for fd, cap in ((out_fd, out), (err_fd, err)):
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                break
            if not chunk:
                break
            cap.add(chunk)
            if cap.over:
                return "output"
    return ""


def _limit_from_exit(rc: int | None, stderr: str) -> str:
    """The limit a failed exit shows: SIGXFSZ for the file size, an allocation failure on stderr."""
    if rc is None or rc == 0:
        return ""
    if rc in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ) or "File size limit exceeded" in stderr:
        return "file size"  # killed by SIGXFSZ, itself or (as the shell reports it) a child
    if any(w in stderr for w in _MEMORY_WORDS):
        return "memory"
    return ""


def _signal_name(n: int) -> str:
    try:
        return signal.Signals(n).name
    except ValueError:
        return str(n)


def _feed(pipe, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except (BrokenPipeError, OSError):
        pass


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
