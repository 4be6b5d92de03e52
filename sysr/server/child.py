"""A check server's child: become the client's process, then run its command.

The server forks one child per request (`sysr.server.daemon`). Before the command runs, the
child takes over everything of the client's that a process started by the client would have:

- standard input, output and error: the client's own descriptors (passed with the request), and
  `sys.stdin`/`stdout`/`stderr` made anew over them as Python makes them at start-up (the
  client's encodings and error handlers, line-buffered on a terminal, stderr line-buffered);
- the working directory, the umask, the priority (only ever lowered), the environment (`os.environ`
  and the C library's, `LC_CTYPE` and `TZ` applied) and `sys.argv`;
- the resource limits (`RLIMIT_AS`, `RLIMIT_CPU`, ...): the client's, so the checker's memory
  and time limits (`sysr.limits`, L008) act in the child as in process; a server whose own hard
  limits are below a client's cannot take its command (`refusal`), the client then runs it;
- Python's signal handling as the client has it (Ctrl-C is KeyboardInterrupt; what the client
  ignores, as a background job's SIGINT, is ignored), in a process group of its own,
  and killed with the server (PR_SET_PDEATHSIG) so that no check outlives it.

The command then runs as `python -m sysr.cli` would run it (`sysr.cli.run`, passed in by the
caller), and the child ends as that process would: its exit status, or the signal that killed
it, goes back to the client. A forked child starts from the server's memory as it was after
the start-up imports (nothing of an earlier check: each check has a child of its own).
"""

from __future__ import annotations

import io
import os
import signal
import sys
from dataclasses import dataclass, field

from . import place

INFINITY = -1  # resource.RLIM_INFINITY as Python reports it on Linux


@dataclass
class Request:
    kind: str  # "run", "status" or "stop"
    cwd: bytes = b""
    umask: int = 0o022
    nice: int = 0
    ignored: tuple[str, ...] = ()  # the signals the client ignores (SIGINT in a background job, nohup's SIGHUP)
    streams: list[tuple[str, str, str]] = field(default_factory=list)  # stdin, stdout, stderr: encoding,
    # errors, "1" when unbuffered
    limits: list[tuple[str, int, int]] = field(default_factory=list)  # name, soft, hard
    argv: list[str] = field(default_factory=list)
    env: dict[bytes, bytes] = field(default_factory=dict)


def parse(body: bytes) -> Request:
    """The request `sysr.server.client.request` wrote; ValueError when it is not one."""
    fields, i = [], 0
    while i < len(body):
        n = int.from_bytes(body[i:i + 4], "little")
        if i + 4 + n > len(body):
            raise ValueError("truncated request")
        fields.append(body[i + 4:i + 4 + n])
        i += 4 + n
    if len(fields) < 2 or fields[0] != place.PROTOCOL:
        raise ValueError("not a request of this version of sysr")
    kind = fields[1].decode()
    if kind != "run":
        return Request(kind)
    cwd, umask, nice, ignored, *rest = fields[2:]
    streams = [tuple(f.decode().split("\0", 2)) for f in rest[:3]]
    n_limits = int(rest[3])
    limits = []
    for f in rest[4:4 + n_limits]:
        name, soft, hard = f.decode().split()
        limits.append((name, int(soft), int(hard)))
    rest = rest[4 + n_limits:]
    n_argv = int(rest[0])
    argv = [os.fsdecode(a) for a in rest[1:1 + n_argv]]
    env = dict(e.split(b"=", 1) for e in rest[1 + n_argv:])
    return Request("run", cwd, int(umask), int(nice), tuple(filter(None, ignored.decode().split(","))), streams,
                   limits, argv, env)


def refusal(req: Request) -> str | None:
    """Why a child of this server could not run `req` as its client would (None: it can)."""
    import resource
    if not os.path.isdir(req.cwd):
        return "the client's directory is not one this server can enter"
    if len(req.streams) != 3 or any(len(s) != 3 for s in req.streams) or not req.argv:
        return "a malformed request"
    for name, soft, hard in req.limits:
        number = getattr(resource, name, None)
        if number is None:
            return f"this system has no {name}"
        _, own_hard = resource.getrlimit(number)
        if own_hard != INFINITY and (hard == INFINITY or hard > own_hard):  # (root may lack the right too)
            return f"the client's {name} ({hard}) is above this server's ({own_hard})"
    return None


def run(req: Request, fds: list[int], closing: list, run_cli, server_pid: int) -> None:
    """In the forked child: take over the client's process state (see the module's docstring),
    run the command and end the process. Never returns."""
    try:
        os.setpgid(0, 0)
        _die_with(server_pid)
        for thing in closing:
            thing.close()
        signal.set_wakeup_fd(-1)
        for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for name in req.ignored:
            signal.signal(getattr(signal, name), signal.SIG_IGN)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in set(fds) - {0, 1, 2}:
            os.close(fd)
        os.chdir(req.cwd)
        os.umask(req.umask)
        if req.nice > os.nice(0):
            os.nice(req.nice - os.nice(0))
        _environment(req.env)
        _limits(req.limits)
        _streams(req.streams)
        sys.argv = list(req.argv)
    except BaseException as e:  # nothing of the command has run: say so on the client's stderr
        os.write(2, f"sysr: error: the check server could not take over this command ({e}); "
                    "set SYSR_SERVER=0 to run it without the server\n".encode())
        os._exit(2)
    code = 0
    try:
        run_cli()  # `sysr check` ends the process itself (os._exit) after flushing
    except SystemExit as e:
        code = _exit_status(e.code)
    except KeyboardInterrupt:  # as Python does: end killed by SIGINT
        _flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    except BaseException:
        import traceback
        traceback.print_exc()
        code = 1
    os._exit(code if _flush() else 120)  # 120: Python's status when flushing at exit fails


def _exit_status(code) -> int:
    """The exit status Python gives `sys.exit(code)`."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        print(code, file=sys.stderr)
    except Exception:
        pass
    return 1


def _flush() -> bool:
    ok = True
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except (OSError, ValueError):
            ok = ok and f is not sys.stdout
    return ok


def _die_with(server_pid: int) -> None:
    """Be killed when the server ends (Linux; elsewhere the server's `stop` ends its children)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != server_pid:  # it ended before the call above
        os._exit(2)


def _environment(env: dict[bytes, bytes]) -> None:
    os.environb.clear()  # os.environ and os.environb share their data; both reach the C library
    os.environb.update(env)
    import locale
    import time
    time.tzset()
    try:
        locale.setlocale(locale.LC_CTYPE, "")  # what Python does at start-up
    except locale.Error:
        pass


def _limits(limits: list[tuple[str, int, int]]) -> None:
    import resource
    for name, soft, hard in limits:
        number = getattr(resource, name)
        if resource.getrlimit(number) != (soft, hard):
            resource.setrlimit(number, (soft, hard))


def _streams(streams: list[tuple[str, str, str]]) -> None:
    """sys.stdin/stdout/stderr over descriptors 0-2, made the way Python makes them at start-up."""
    made = []
    for fd, (encoding, errors, unbuffered) in enumerate(streams):
        write = fd != 0
        buffered = io.open(fd, "wb" if write else "rb", buffering=-1, closefd=False)
        tty = os.isatty(fd)
        made.append(io.TextIOWrapper(buffered, encoding=encoding or None, errors=errors or None, newline="\n",
                                     line_buffering=write and (tty or fd == 2) and not unbuffered,
                                     write_through=write and bool(unbuffered)))
    sys.stdin, sys.stdout, sys.stderr = made
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = made
