"""The client side of the check server: hand a command to a running server, or say there is none.

`through_server(argv)` runs in every `sysr check|lower|explain` started as `python -m sysr` (what
`bin/sysr` runs) before anything heavy is imported: it computes this process's key
(`sysr.server.place`), connects to the server with that key if one listens, and hands it the
command with this process's standard input, output and error (passed as descriptors, so the
child writes straight to them), its directory, environment, umask, priority and resource limits.
It then waits for the child's exit status and returns it; signals the client gets meanwhile
(Ctrl-C, SIGTERM, SIGHUP) are sent on to the child, and if the client dies the server kills the
child. None means no server took the command: the caller runs it in its own process.

The exchange, on a UNIX stream socket: the client sends a 4-byte length with the descriptors
attached and then the request (length-prefixed fields); the server answers `ready` or `refused
WHY`; only after `ready` does the client send `g`, which commits it (a client that gave up
waiting has sent nothing and runs the command itself, so a command never runs twice); then
single bytes, the signals to pass on; the server's last line is `exit N` or `signal N`.

`SYSR_SERVER`: unset, the server is used when one runs; `0` (or `off`), never; `1` (or `auto`),
and when none runs one is started in the background for the next command (this one runs in
process). The imports here are the interpreter's built-in modules only: `_socket`, `_signal`,
`resource` (`python -X importtime -m sysr check F` shows the client's cost).
"""

from __future__ import annotations

import os
import sys

from . import place

READY_TIMEOUT_S = 10.0  # a server that does not answer in this long is left alone
SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")  # passed on to the child; ignored by it when ignored here


def mode(env=os.environ) -> str:
    """`off`, `on` (use a running server) or `auto` (use one, start one when none runs)."""
    value = env.get("SYSR_SERVER", "").strip().lower()
    if value in ("0", "off", "no", "false"):
        return "off"
    return "auto" if value in ("1", "auto", "on", "yes", "true") else "on"


def _field(data: bytes) -> bytes:
    return len(data).to_bytes(4, "little") + data


def _limits() -> list[bytes]:
    import resource
    out = []
    for name in ("RLIMIT_AS", "RLIMIT_DATA", "RLIMIT_FSIZE", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_CORE",
                 "RLIMIT_STACK", "RLIMIT_NPROC"):
        number = getattr(resource, name, None)
        if number is not None:
            soft, hard = resource.getrlimit(number)
            out.append(f"{name} {soft} {hard}".encode())
    return out


def _stream(f) -> bytes:
    """A standard stream's encoding, error handler and whether it is unbuffered (`python -u`)."""
    through = "1" if getattr(f, "write_through", False) else ""
    return f"{getattr(f, 'encoding', None) or ''}\0{getattr(f, 'errors', None) or ''}\0{through}".encode()


def request(argv: list[str]) -> bytes:
    """The request for running `argv` (sys.argv, argv[0] included) as this process would."""
    umask = os.umask(0o022)
    os.umask(umask)
    limits = _limits()
    import _signal
    ignored = ",".join(name for name in SIGNALS if _signal.getsignal(getattr(_signal, name)) == _signal.SIG_IGN)
    fields = [place.PROTOCOL, b"run", os.getcwdb(), str(umask).encode(), str(os.nice(0)).encode(), ignored.encode(),
              _stream(sys.stdin), _stream(sys.stdout), _stream(sys.stderr),
              str(len(limits)).encode(), *limits,
              str(len(argv)).encode(), *(os.fsencode(a) for a in argv),
              *(k + b"=" + v for k, v in os.environb.items())]
    return b"".join(_field(f) for f in fields)


def connect(path: str):
    """A socket connected to the server at `path`, or None."""
    import _socket
    s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        s.settimeout(READY_TIMEOUT_S)
        s.connect(path)
    except OSError:
        s.close()
        return None
    return s


def read_line(s) -> bytes | None:
    """One reply line from the server (without its newline), or None when it closed first."""
    data = b""
    while not data.endswith(b"\n"):
        try:
            got = s.recv(256)
        except InterruptedError:  # pragma: no cover - Python retries these itself (PEP 475)
            continue
        except OSError:
            return None
        if not got:
            return None
        data += got
    return data[:-1]


def through_server(argv: list[str]) -> tuple[str, int] | None:
    """Run sys.argv through this checkout's server: ("exit", code) or ("signal", number), or None
    when no server took it (then nothing was run and nothing written)."""
    how = mode()
    folder = place.runtime_dir()
    if how == "off" or folder is None:
        return None
    try:
        sock_path, _, _ = place.paths(folder, place.key())
    except OSError:  # the package cannot be listed: no key, no server
        return None
    s = connect(sock_path) if place.usable_dir(folder) and len(sock_path) <= place.MAX_SOCKET_PATH else None
    if s is None:
        if how == "auto":
            _start_in_background()
        return None
    try:
        try:
            import _socket
            fds = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in (0, 1, 2))
            body = request(argv)
            s.sendmsg([len(body).to_bytes(4, "little")], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)])
            s.sendall(body)
            answer = read_line(s)
            if answer != b"ready":
                return None  # refused (its reason is in the server's log) or gone: run in process
            s.sendall(b"g")
        except OSError:  # a descriptor of ours closed, a server that went away: nothing ran
            return None
        return _wait(s)
    finally:
        s.close()


def _wait(s) -> tuple[str, int]:
    """After `g`: pass signals on until the server reports how the child ended."""
    import _signal
    s.settimeout(None)

    def forward(number, frame) -> None:
        try:
            s.send(bytes([number]))
        except OSError:
            pass

    # Passed on even when this process ignores them (a background job's SIGINT): the child ignores
    # what the client ignores, and z3 still takes SIGINT during a query, as in process.
    for name in SIGNALS:
        _signal.signal(getattr(_signal, name), forward)
    line = read_line(s)
    for name in SIGNALS:
        _signal.signal(getattr(_signal, name), _signal.SIG_DFL)
    if line is not None:
        word, _, value = line.partition(b" ")
        if word in (b"exit", b"signal") and value.isdigit():
            return word.decode(), int(value)
    os.write(2, b"sysr: error: the check server stopped before the command ended; its output above may "
                b"be incomplete (run it again, or set SYSR_SERVER=0 to check without a server)\n")
    return "exit", 2


def finish(result: tuple[str, int]) -> None:
    """End this process as the child ended: with its exit status, or killed by its signal."""
    how, value = result
    if how == "signal":
        import _signal
        try:
            _signal.signal(value, _signal.SIG_DFL)
        except (OSError, ValueError):  # SIGKILL and SIGSTOP have no handler to reset
            pass
        os.kill(os.getpid(), value)
        value = 128 + value  # a signal that does not end a process (none of those passed on)
    os._exit(value)


def _start_in_background() -> None:
    """SYSR_SERVER=1 and no server: start one for the next command (`sysr server start`,
    detached, its output to its log); this command does not wait for it."""
    import subprocess
    try:
        subprocess.Popen([sys.executable, *interpreter_options(), "-m", "sysr", "server", "start", "--quiet"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    except OSError:
        pass


def interpreter_options() -> list[str]:
    """The options this interpreter was started with (`-P`, `-X ...`), for a server started from it
    to compute the same key."""
    orig = list(getattr(sys, "orig_argv", []))[1:]
    out: list[str] = []
    while orig and orig[0].startswith("-") and orig[0] not in ("-m", "-c", "-"):
        a = orig.pop(0)
        out.append(a)
        if a in ("-X", "-W") and orig:
            out.append(orig.pop(0))
    return out
