"""`sysr server start|stop|status|run`: start, stop and ask the check server of this checkout.

- `start`: starts `sysr server run` in the background (a session of its own, its output to
  `KEY.log` in the runtime folder) with this interpreter and its options, and waits until it
  answers (it has imported everything by then); says so when one already runs.
- `stop`: asks it to stop (running commands finish first) and waits until its socket is gone;
  servers of this package under other keys (started before an edit) are stopped too.
- `status`: what it has done (exit 0), or that none runs for this checkout (exit 1).
- `run`: the server in the foreground (what `start` runs; for a debugger or a supervisor).

The server ends by itself after `--idle` seconds without a command (default `IDLE_S`, or
`SYSR_SERVER_IDLE`). Where it listens and which checkout it serves: `sysr.server.place`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from . import client, place

IDLE_S = 900.0
START_TIMEOUT_S = 60.0


def idle_default() -> float:
    try:
        return float(os.environ.get("SYSR_SERVER_IDLE", IDLE_S))
    except ValueError:
        return IDLE_S


def ask(kind: str, sock: str | None = None) -> str | None:
    """Send a control request (`status`, `stop`) to this checkout's server (or the one at `sock`):
    its answer, or None."""
    folder = place.runtime_dir()
    if folder is None or not place.usable_dir(folder):
        return None
    s = client.connect(sock or place.paths(folder, place.key())[0])
    if s is None:
        return None
    try:
        body = client._field(place.PROTOCOL) + client._field(kind.encode())
        s.sendall(len(body).to_bytes(4, "little") + body)
        line = client.read_line(s)
    except OSError:
        return None
    finally:
        s.close()
    return None if line is None else line.decode(errors="replace")


def command(args, run_cli) -> int:
    """The `sysr server ACTION` command; `run_cli` runs a command line in a child (`sysr.cli.run`)."""
    folder = place.runtime_dir()
    if folder is None:
        print("sysr: error: no folder for the server's socket: set SYSR_RUNTIME_DIR, XDG_RUNTIME_DIR or HOME",
              file=sys.stderr)
        return 2
    if args.action == "status":
        answer = ask("status")
        print(f"sysr server: {answer}" if answer else f"sysr server: none running for {place.PACKAGE}")
        return 0 if answer else 1
    if args.action == "stop":
        return _stop(folder)
    try:
        place.make_dir(folder)
    except OSError as e:
        print(f"sysr: error: {e}", file=sys.stderr)
        return 2
    idle = args.idle if args.idle is not None else idle_default()
    if args.action == "run":
        return _run(folder, idle, run_cli)
    return _start(folder, idle, args.quiet)


def _run(folder: str, idle: float, run_cli) -> int:
    from . import daemon
    key = place.key()
    server = daemon.Server(folder, key, idle, run_cli)
    if not server.claim():
        return 0  # another server serves this key
    daemon.warm_up()
    if place.key() != key:
        print("sysr: error: the sysr package changed while the server started; start it again", file=sys.stderr)
        return 2
    return server.serve()


def _start(folder: str, idle: float, quiet: bool) -> int:
    answer = ask("status")
    if answer:
        if not quiet:
            print(f"sysr server: already {answer}")
        return 0
    sock, _, log = place.paths(folder, place.key())
    if len(sock) > place.MAX_SOCKET_PATH:
        print(f"sysr: error: the socket path {sock} is too long for a UNIX socket; set SYSR_RUNTIME_DIR to a "
              "shorter folder", file=sys.stderr)
        return 2
    argv = [sys.executable, *client.interpreter_options(), "-m", "sysr", "server", "run", "--idle", f"{idle:g}"]
    with open(log, "w") as out:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        answer = ask("status")
        if answer:
            if not quiet:
                print(f"sysr server: started, {answer}\n(`sysr server stop` ends it; it ends by itself after "
                      f"{idle:g} s without a command)")
            return 0
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    if proc.poll() is None:
        proc.kill()
    with open(log, errors="replace") as f:
        tail = "".join(f.readlines()[-10:])
    print(f"sysr: error: the server did not start (its log, {log}):\n{tail}", file=sys.stderr)
    return 2


def _stop(folder: str) -> int:
    """Stop this checkout's server, and any other of this package in the folder (one started
    before the checkout was edited: no client reaches it any more)."""
    mine = place.paths(folder, place.key())[0]
    others = []
    if place.usable_dir(folder):
        others = [os.path.join(folder, n) for n in sorted(os.listdir(folder))
                  if n.endswith(".sock") and os.path.join(folder, n) != mine]
    stopped = []
    for sock in [mine, *others]:
        if sock != mine and f"package={place.PACKAGE} " not in (ask("status", sock) or ""):
            continue
        answer = ask("stop", sock)
        if answer is None:
            continue
        deadline = time.monotonic() + START_TIMEOUT_S
        while os.path.exists(sock) and time.monotonic() < deadline:
            time.sleep(0.02)
        stopped.append(answer + ("" if answer.endswith("running=0") else " (it ends when they finish)"))
    for answer in stopped:
        print(f"sysr server: {answer}")
    if not stopped:
        print(f"sysr server: none running for {place.PACKAGE}")
    return 0
