"""The check server's loop: listen on a UNIX socket, fork a child per command, supervise it.

`Server(folder, key, idle_s, run_cli)` is the server (`sysr server run`, which `sysr server start`
starts in the background). It takes the key's lock first (one server per key: `claim`), then
imports what a check needs (`warm_up`: sysr's pipeline and proofs, z3, the lowering, the
parser's tables, the first z3 contexts of a check: `sysr.smt.contexts.make_ahead`), freezes that
memory for the garbage collector (so the children share it rather than copy it) and listens on
the key's socket (`sysr.server.place`).

Per request (see `sysr.server.client` for the exchange) it checks that the client is this user
(SO_PEERCRED), reads the request and its three descriptors, answers `refused WHY` when a child
could not run it as the client would (`sysr.server.child.refusal`), else `ready`; on the client's
`g` it forks. The parent keeps only the connection and the child's pid: a byte from the client is
a signal to pass on to the child; the client going away kills the child's process group; the
child's end (exit status or signal) is the last line to the client.

The parent never runs a check and never has a second thread (the checker starts its own in each
child; a fork with threads running could copy a lock held by one of them): it refuses a
request rather than fork with one. It ends on `stop`, on SIGTERM/SIGINT/SIGHUP, after `idle_s`
seconds without a command, or when the sysr package on disk no longer has its key (an edited
checkout; its clients already look for a new server); running children finish first.
"""

from __future__ import annotations

import fcntl
import gc
import importlib
import os
import selectors
import signal
import socket
import struct
import sys
import threading
import time

from . import child, place

# What a check, a lowering or an explanation imports, imported once in the server.
WARM = ("sysr.cli", "sysr.pipeline", "sysr.smt.hier", "sysr.smt.prove", "sysr.smt.induction",
        "sysr.smt.contexts", "sysr.smt.portfolio", "sysr.report", "sysr.vcd", "sysr.lower", "sysr.explain",
        "sysr.sim.inputs", "locale", "z3")
REQUEST_TIMEOUT_S = 5.0  # for a client to send its request, and its `g`
MAX_REQUEST = 1 << 22
KEY_CHECK_S = 60.0  # how often an idle server checks that its key still matches the files


def warm_up() -> None:
    """Import what the commands need and load the parser, so a child starts with them."""
    for name in WARM:
        try:
            importlib.import_module(name)
        except ImportError:  # an optional module (a solver not installed): imported per check
            pass
    from sysr.front.parse import grammar
    grammar._parser()
    from sysr.smt import contexts
    contexts.make_ahead()  # z3 contexts, made without a thread: each child starts with them
    gc.collect()
    gc.freeze()


def _threads() -> int:
    """This process's threads, the native ones (a library's) included where the system says."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


class Server:
    def __init__(self, folder: str, key: str, idle_s: float, run_cli, log=None) -> None:
        self.folder, self.key, self.idle_s, self.run_cli = folder, key, idle_s, run_cli
        self.sock_path, self.lock_path, _ = place.paths(folder, key)
        self.log = log or sys.stderr
        self.children: dict[int, socket.socket] = {}  # pid -> its client's connection
        self.served = 0
        self.started = time.time()
        self.last = time.monotonic()
        self.key_checked = time.monotonic()
        self.stopping = False

    def say(self, message: str) -> None:
        print(f"{time.strftime('%H:%M:%S')} {message}", file=self.log, flush=True)

    # ---- life ----------------------------------------------------------------------------
    def claim(self) -> bool:
        """Take the key's lock (False: another server holds it), and clear what servers of other
        keys left behind (their lock free: they have ended)."""
        self.lock = open(self.lock_path, "a")
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.say("another server holds this key; not starting")
            self.lock.close()
            return False
        for name in os.listdir(self.folder):
            if not name.endswith(".lock") or os.path.join(self.folder, name) == self.lock_path:
                continue
            with open(os.path.join(self.folder, name), "a") as other:
                try:
                    fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    continue  # a live server of another key (another checkout, another interpreter)
                for path in place.paths(self.folder, name[:-len(".lock")]):
                    try:
                        os.unlink(path)
                    except OSError:
                        pass
        return True

    def serve(self) -> int:
        """Run until stopped (after `claim`); 0."""
        if os.path.lexists(self.sock_path):
            os.unlink(self.sock_path)  # a socket left by a server that died (its lock is gone)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.sock_path)
        os.chmod(self.sock_path, 0o600)
        self.listener.listen(64)
        self.listener.setblocking(False)
        self.wake_r, self.wake_w = socket.socketpair()
        self.wake_r.setblocking(False)
        self.wake_w.setblocking(False)
        signal.set_wakeup_fd(self.wake_w.fileno())
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(number, self._stop_signal)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes the loop through the wakeup socket
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.listener, selectors.EVENT_READ, "accept")
        self.sel.register(self.wake_r, selectors.EVENT_READ, "wake")
        self.say(f"serving {place.PACKAGE} as {self.sock_path} (pid {os.getpid()})")
        try:
            self._loop()
        finally:
            self._close_listener()
        self.say(f"stopped after {self.served} commands")
        return 0

    def _stop_signal(self, number, frame) -> None:
        self.stopping = True

    def _close_listener(self) -> None:
        if getattr(self, "listener", None) is None:
            return
        self.sel.unregister(self.listener)
        self.listener.close()
        self.listener = None
        try:
            if os.path.exists(self.sock_path):
                os.unlink(self.sock_path)  # ours: the lock says no other server has this key
        except OSError:
            pass

    def _loop(self) -> None:
        while not (self.stopping and not self.children):
            if self.stopping:
                self._close_listener()
            for key, _ in self.sel.select(timeout=1.0):
                if key.data == "accept":
                    self._accept()
                elif key.data == "wake":
                    try:
                        while self.wake_r.recv(512):
                            pass
                    except BlockingIOError:
                        pass
                else:
                    self._from_client(key.fileobj, key.data)
            self._reap()
            now = time.monotonic()
            if not self.children and now - self.last > self.idle_s:
                self.say(f"idle for {self.idle_s:g} s; stopping")
                self.stopping = True
            if not self.children and now - self.key_checked > KEY_CHECK_S:
                self.key_checked = now
                if place.key() != self.key:
                    self.say("the sysr package changed on disk; stopping (clients look for a new server)")
                    self.stopping = True

    # ---- requests ------------------------------------------------------------------------
    def _accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        fds: list[int] = []
        try:
            conn.settimeout(REQUEST_TIMEOUT_S)
            creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
            _, uid, _ = struct.unpack("3i", creds)
            if uid != os.getuid():
                raise ValueError(f"a client of another user ({uid})")
            head, fds, _, _ = socket.recv_fds(conn, 4, 3)
            size = int.from_bytes(head, "little") if len(head) == 4 else -1
            if not 0 <= size <= MAX_REQUEST:
                raise ValueError("a malformed request")
            body = b""
            while len(body) < size:
                got = conn.recv(min(size - len(body), 1 << 16))
                if not got:
                    raise ValueError("a request cut short")
                body += got
            req = child.parse(body)
        except (OSError, ValueError, UnicodeDecodeError) as e:
            self.say(f"request dropped: {e}")
            self._close(conn, fds)
            return
        self.last = time.monotonic()
        if req.kind != "run":
            self._control(conn, req.kind)
            self._close(conn, fds)
            return
        why = child.refusal(req) or (None if len(fds) == 3 else "the client's descriptors did not arrive")
        if why is None and _threads() != 1:
            why = "the server has a thread running (it never forks with one)"
        try:
            conn.sendall(b"ready\n" if why is None else f"refused {why}\n".encode())
            go = conn.recv(1) if why is None else b""
        except OSError:
            go = b""
        if why is not None:
            self.say(f"refused: {why}")
        if go != b"g":
            self._close(conn, fds)
            return
        pid = os.fork()
        if pid == 0:
            child.run(req, fds, self._inherited(conn), self.run_cli, os.getppid())
        for fd in fds:
            os.close(fd)
        self.served += 1
        conn.setblocking(False)
        self.children[pid] = conn
        self.sel.register(conn, selectors.EVENT_READ, pid)

    def _inherited(self, conn) -> list:
        """What a child must not keep: the server's sockets, selector and lock."""
        things = [self.sel, self.wake_r, self.wake_w, self.lock, conn, *self.children.values()]
        return things + ([self.listener] if self.listener is not None else [])

    def _control(self, conn, kind: str) -> None:
        if kind == "stop":
            self.stopping = True
            answer = f"stopping pid={os.getpid()} running={len(self.children)}"
        elif kind == "status":
            answer = (f"running pid={os.getpid()} key={self.key} package={place.PACKAGE} served={self.served} "
                      f"running={len(self.children)} children={','.join(map(str, self.children)) or '-'} "
                      f"idle_s={self.idle_s:g} "
                      f"up_s={time.time() - self.started:.0f}")
        else:
            answer = f"unknown {kind}"
        try:
            conn.sendall(answer.encode() + b"\n")
        except OSError:
            pass

    def _from_client(self, conn, pid: int) -> None:
        """A byte from a running command's client: a signal to pass on; nothing: it went away."""
        try:
            data = conn.recv(64)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        try:
            if not data:
                self.say(f"the client of child {pid} went away; killing the child")
                self.sel.unregister(conn)  # reaped, and the connection closed, by _reap
                os.killpg(pid, signal.SIGKILL)
                return
            for number in data:
                if number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                    os.kill(pid, number)
        except ProcessLookupError:  # it has ended; _reap reports it
            pass

    def _reap(self) -> None:
        while self.children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.children.pop(pid, None)
            if conn is None:
                continue
            self.last = time.monotonic()
            code = os.waitstatus_to_exitcode(status)
            line = f"exit {code}\n" if code >= 0 else f"signal {-code}\n"
            try:
                conn.setblocking(True)
                conn.settimeout(REQUEST_TIMEOUT_S)
                conn.sendall(line.encode())
            except OSError:
                pass
            self._close(conn, [])

    def _close(self, conn, fds: list[int]) -> None:
        for fd in fds:
            os.close(fd)
        try:
            self.sel.unregister(conn)
        except (KeyError, ValueError):
            pass
        conn.close()
