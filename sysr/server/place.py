"""Where a check server listens, and the key that names it (so that no client reaches the wrong one).

The folder: `$SYSR_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/sysr`, else `~/.cache/sysr/servers`. It
must be a real folder owned by the user and closed to everyone else (mode 0700): a client uses
no other (`usable_dir`), and the server creates it so (`make_dir`). The server's socket there is
`KEY.sock`, with `KEY.lock` (held by the live server, so that two never serve one key) and
`KEY.log` (its standard error).

The key is a hash of everything a check's result could depend on that a forked child would
inherit from the server rather than take from its client:

- the sysr package: every file's path, size and modification time (a changed checkout, a
  `git checkout`, an edit: a new key, so an old server is never used for a new tree);
- the interpreter: its path and version, `sys.flags`, `sys.path` (but the current folder or the
  script's folder that Python puts first without `-P`) and the modification time of each of its folders (a package installed or upgraded in the venv changes them), the file
  system encoding;
- the environment that modules read when they are imported: every `SYSR_*` and `PYTHON*`
  variable (but `SYSR_SERVER*` and `SYSR_RUNTIME_DIR`, which only say where and whether to look).

Everything else of a client (its directory, descriptors, environment, limits, umask, locale) is
handed to the child per request (`sysr.server.child`). This module imports only `os` and `sys`,
which every Python process has already imported: the client computes the key on each command.
"""

from __future__ import annotations

import os
import sys

PROTOCOL = b"sysr-server-1"  # the request format (sysr.server.client, sysr.server.daemon)
ENV_PREFIXES = ("SYSR_", "PYTHON")
ENV_IGNORED = ("SYSR_SERVER", "SYSR_SERVER_IDLE", "SYSR_RUNTIME_DIR")
MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux, 104 on the BSDs
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the sysr package folder


def runtime_dir(env=os.environ) -> str | None:
    """The folder of this user's servers (it may not exist yet); None when there is no home."""
    if env.get("SYSR_RUNTIME_DIR"):
        return env["SYSR_RUNTIME_DIR"]
    if env.get("XDG_RUNTIME_DIR"):
        return os.path.join(env["XDG_RUNTIME_DIR"], "sysr")
    home = env.get("HOME") or ""
    return os.path.join(home, ".cache", "sysr", "servers") if home.startswith("/") else None


def usable_dir(path: str) -> bool:
    """Whether `path` is a folder (not a link) of this user's that nobody else may enter."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (st.st_mode & 0o170000) == 0o040000 and st.st_uid == os.getuid() and st.st_mode & 0o077 == 0


def make_dir(path: str) -> None:
    """Create the runtime folder (mode 0700) when missing; raise OSError when it is not usable."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    if not usable_dir(path):
        raise OSError(f"{path} must be a folder of yours that nobody else can enter (mode 0700); "
                      "remove it or set SYSR_RUNTIME_DIR")


def _files(folder: str, out: list[str]) -> None:
    with os.scandir(folder) as entries:
        for e in entries:
            if e.name == "__pycache__" or e.name.startswith("."):
                continue
            if e.is_dir(follow_symlinks=False):
                _files(e.path, out)
            else:
                st = e.stat()
                out.append(f"{e.path}\0{st.st_size}\0{st.st_mtime_ns}")


def _mtime(path: str) -> str:
    try:
        return str(os.stat(path).st_mtime_ns)
    except OSError:
        return "-"


def key(env=os.environ) -> str:
    """The key of a server for this process: 20 hex digits (see the module's docstring)."""
    parts = [PROTOCOL.decode(), sys.executable, sys.version, repr(tuple(sys.flags)),
             sys.getfilesystemencoding(), sys.getfilesystemencodeerrors(), PACKAGE]
    # sys.path without the entry the interpreter puts first when not run with -P (the current
    # folder, or a script's), which differs between a client and the server it started
    parts += [f"{p}\0{_mtime(p)}" for p in (sys.path if sys.flags.safe_path else sys.path[1:])]
    parts += sorted(f"{k}={v}" for k, v in env.items() if k.startswith(ENV_PREFIXES) and k not in ENV_IGNORED)
    files: list[str] = []
    _files(PACKAGE, files)
    parts += sorted(files)
    try:
        from _sha256 import sha256  # the built-in module: no OpenSSL to load (Python 3.11)
    except ImportError:  # pragma: no cover - other Pythons
        from hashlib import sha256
    return sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:20]


def paths(folder: str, k: str) -> tuple[str, str, str]:
    """The socket, lock and log files of the server with key `k` in `folder`."""
    base = os.path.join(folder, k)
    return base + ".sock", base + ".lock", base + ".log"
