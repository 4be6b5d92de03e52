"""One sandbox per candidate: a single bubblewrap start, then its tool runs one after the other.

Starting a sandbox costs more than most tool runs it holds (bwrap makes six namespaces and a
dozen mounts: about 4 ms of CPU, 10 to 20 ms of wall time on a loaded machine), so the scorer
starts one per candidate, at its first tool run, and runs every stage's tool in it
(`bench.judge.sandbox` says what the sandbox holds and why). Process 1 inside is a driver, a POSIX
shell script (`DRIVER`) that reads one command per line from the scorer, runs it as its child
in the stage's folder with the stage's limits (`ulimit`: address space, file size, no core
file) and its stdin /dev/null, and answers with its exit status on the same channel (its stdin,
one end of a socket pair: the tool never holds it). The tool's stdout and stderr are the sandbox's, read by the scorer as a stream with
their caps (`bench.judge.run.read_streams`); what arrives between a command and its status is that
command's. After each run the driver kills every other process in the sandbox (`kill -KILL -1`
as process 1 of its pid namespace), so nothing of one stage outlives it.

A run that hits its time or output limit ends the whole sandbox (the candidate has failed; a
later run says the sandbox ended). A run's result is a `bench.judge.run.RunResult` with the same
meaning as one from `run_bounded`: exit status (negative: killed by that signal), the limit
that stopped it, why in words. With `BENCH_UNSANDBOXED=1` the driver runs as it is, in the work
folder (and kills nothing: outside a pid namespace `kill -1` would reach every process of the
user).
"""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from . import sandbox
from .run import Capture, RunResult, finished, kill_group, read_streams
from .tools import tool_env

# Its stdin is a socket: commands come in (DIR FILE-BLOCKS MEMORY-KIB XFSZ ARGV..., each word quoted
# for the shell by the scorer: its own words, file names and scripts, never a candidate's text)
# and exit statuses go out. XFSZ is `kill` (a file past its limit kills the tool with SIGXFSZ) or
# `cut` (the signal is ignored, inherited through exec: the write fails and the tool goes on).
DRIVER = r"""
echo ready >&0
while read -r line; do
  eval "set -- $line"
  dir=$1 blocks=$2 kib=$3 xfsz=$4
  shift 4
  (cd "$dir" && ulimit -f "$blocks" && ulimit -v "$kib" && ulimit -c 0 &&
   if [ "$xfsz" = cut ]; then trap '' XFSZ; fi &&
   HOME=$PWD && TMPDIR=$PWD && export HOME TMPDIR && exec "$@") </dev/null
  rc=$?
  if [ "$$" = 1 ]; then kill -KILL -1 2>/dev/null; fi
  echo "$rc" >&0
done
"""


class Session:
    """A sandbox around `work` for tool runs from one thread; use as a context manager.

    `tools`: the absolute paths of the programs it will run (their install prefixes are bound
    when outside the system folders); `yosys`: Yosys's binary, for the link in its /proc.
    Nothing starts until the first `run`.
    """

    def __init__(self, work: Path, tools: Sequence[str] = (), yosys: str = "") -> None:
        self.work = Path(work).resolve()
        self.tools = tuple(tools)
        self.yosys = yosys
        self.proc: subprocess.Popen | None = None
        self.channel: socket.socket | None = None  # commands out, exit statuses in
        self.status = bytearray()  # read from the status pipe, not yet used
        self.ready = False
        self.ended = ""  # why no command can run any more

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def holds(self, path: Path) -> bool:
        """Whether `path` is in the sandbox's work folder (a tool may run there)."""
        return Path(path).resolve().is_relative_to(self.work)

    def run(self, argv: list[str], cwd: Path, timeout_s: float, memory_bytes: int, file_bytes: int,
            output_limit: int, cut_files: bool = False, disk_bytes: int = 0) -> RunResult:
        """Run argv (argv[0] an absolute path) in `cwd`, a folder under the work folder. With
        `cut_files`, a file written past `file_bytes` is cut there and the tool goes on (a
        simulation's VCD); otherwise the tool is killed (SIGXFSZ, the `file size` limit). With
        `disk_bytes`, the tool is also stopped (the `disk` limit) once the work folder holds more
        than that in all, or more than `MAX_FILES` files, looked at every `WATCH_S`: a per-file
        limit alone lets a tool write many files just under it."""
        t0 = time.perf_counter()
        why = self._cannot_run(argv[0]) or (self._start() if self.proc is None else "")
        if why:
            return RunResult(tuple(argv), None, "", "", time.perf_counter() - t0, started=False, error=why)
        where = Path(cwd).resolve().relative_to(self.work)
        line = shlex.join([str(where), str(-(-file_bytes // 512)), str(memory_bytes // 1024),
                          "cut" if cut_files else "kill", *argv])
        if "\n" in line:
            raise ValueError(f"a command for the sandbox holds a newline: {line!r}")
        out, err = Capture(output_limit), Capture(output_limit)
        try:
            self.channel.sendall(line.encode() + b"\n")
        except OSError:  # the driver is gone: what it said is on its stderr
            pass
        deadline = t0 + timeout_s
        watch = (lambda: "disk" if over_budget(self.work, disk_bytes) else "") if disk_bytes else None
        limit = self._read(out, err, deadline, watch)
        while not limit and not self.ready and self._line() == "ready":
            self.ready = True
            limit = self._read(out, err, deadline, watch)
        if limit:
            self.close(f"the sandbox was ended when a run hit its {limit} limit")
            return finished(argv, None, out, err, time.perf_counter() - t0, limit, timeout_s, memory_bytes,
                            file_bytes)
        status = self._line()
        if status is None or not status.isdigit():
            started = self.ready
            self.close("the sandbox's driver ended")
            if not started:
                said = err.text().strip().splitlines()
                return RunResult(tuple(argv), None, out.text(), err.text(), time.perf_counter() - t0,
                                 started=False, error="the sandbox did not start" + (f": {said[-1]}" if said else ""))
            return finished(argv, -signal.SIGKILL, out, err, time.perf_counter() - t0, "", timeout_s,
                            memory_bytes, file_bytes, error="the sandbox ended during the run (killed)")
        rc = int(status)
        if 128 < rc < 128 + signal.NSIG:
            rc = 128 - rc  # the shell reports a child killed by signal N as exit status 128 + N
        return finished(argv, rc, out, err, time.perf_counter() - t0, "", timeout_s, memory_bytes, file_bytes)

    def close(self, why: str = "the sandbox was closed") -> None:
        """End the sandbox and everything in it (idempotent)."""
        self.ended = self.ended or why
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        kill_group(proc)
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
        self.channel.close()

    def _cannot_run(self, tool: str) -> str:
        if self.ended:
            return self.ended
        if not (os.path.isabs(tool) and os.access(tool, os.X_OK)):
            return f"could not start {tool}: no such executable file"
        if not sandbox.disabled() and sandbox.prefix(tool) and tool not in self.tools:
            return f"could not start {tool}: it is outside the sandbox's folders"
        return ""

    def _start(self) -> str:
        """Start the sandbox and its driver; "" or why it could not start."""
        try:
            front = [] if sandbox.disabled() else sandbox.command(self.work, self.tools, self.yosys)
        except sandbox.SandboxUnavailable as e:
            self.ended = str(e)
            return self.ended
        if not front:
            sandbox.warn_once()
        env = {**tool_env(), "HOME": str(self.work), "TMPDIR": str(self.work)}
        mine, theirs = socket.socketpair()
        try:
            self.proc = subprocess.Popen([*front, "/bin/sh", "-c", DRIVER], cwd=self.work, env=env,
                                         stdin=theirs.fileno(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         start_new_session=True)
        except OSError as e:
            mine.close()
            self.ended = f"the sandbox could not start: {e.strerror or e}"
            return self.ended
        finally:
            theirs.close()
        self.channel = mine
        for fd in (mine.fileno(), self.proc.stdout.fileno(), self.proc.stderr.fileno()):
            os.set_blocking(fd, False)
        return ""

    def _read(self, out: Capture, err: Capture, deadline: float, watch=None) -> str:
        return read_streams(self.proc.stdout.fileno(), self.proc.stderr.fileno(), out, err, deadline,
                            self.channel.fileno(), self.status, watch)

    def _line(self) -> str | None:
        """The next line from the status pipe, or None if it closed without one."""
        if b"\n" not in self.status:
            return None
        line, _, rest = bytes(self.status).partition(b"\n")
        self.status[:] = rest
        return line.decode("ascii", errors="replace").strip()


MAX_FILES = 10_000  # in a candidate's work folder, all its stages' files together


def over_budget(folder: Path, budget: int) -> bool:
    """Whether `folder` holds more than `budget` bytes on disk (blocks, so a sparse file counts what
    it uses) or more than MAX_FILES entries; the walk stops as soon as either is passed."""
    used, entries = 0, 0
    todo = [str(folder)]
    while todo:
        try:
            with os.scandir(todo.pop()) as it:
                for entry in it:
                    entries += 1
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    used += st.st_blocks * 512
                    if used > budget or entries > MAX_FILES:
                        return True
                    if entry.is_dir(follow_symlinks=False):
                        todo.append(entry.path)
        except OSError:
            continue
    return False
