"""Reading a user's checkout of an upstream suite as hostile input: its commit, its files, its names.

A checkout is somebody else's repository, and `bench suite import` reads it with the user's
rights, so nothing in it may run, point elsewhere, or grow without bound:

- `commit`: the commit is read from the files of its git folder (HEAD, the loose ref or
  packed-refs), and whether the checkout's files differ from it from the index (each tracked
  file's blob hash recomputed), with no git command at all: `git status` would run a
  `core.fsmonitor` command, hooks or filter drivers from the checkout's own `.git/config`.
  Tracked files under the folder that are missing, changed, over the size limit, or an index
  this reader does not know make it `<commit>-dirty`; no git folder, or a HEAD it cannot
  resolve, makes it "unknown" (which `bench suite import` refuses unless told otherwise).
- `read_under`: a file below the checkout's root opened one path component at a time with
  O_NOFOLLOW, so a symbolic link anywhere on the way (to /proc/self/environ, to /etc/passwd) is
  refused, never followed; only a regular file of at most `FILE_LIMIT` bytes is read (its size
  taken before reading), and a FIFO or device is refused without blocking.
- `safe_name`: a problem or task name that can only ever be one folder inside `--out` (no `/`,
  no `..`, no leading dot); a problem list naming `../x` is an erratum, never a path.
- `folders`: the subfolders of a folder, symbolic links left out.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path

FILE_LIMIT = 4 * 1024**2  # a problem file (the largest upstream one is under 1 MiB)
INDEX_LIMIT = 64 * 1024**2
SMALL = 64 * 1024  # HEAD, a ref, a gitdir file
PROBLEMS_LIMIT = 5000  # problems in one import
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,127}")
_HEX = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


class Unsafe(Exception):
    """A file of the checkout that is not read (the message says why)."""


def safe_name(name: str) -> bool:
    return bool(_NAME.fullmatch(name)) and ".." not in name


def folders(folder: Path) -> list[Path]:
    """The real subfolders of `folder` (symbolic links to folders are not followed)."""
    try:
        with os.scandir(folder) as it:
            return sorted(Path(e.path) for e in it if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def files(folder: Path) -> list[str]:
    """The names of the entries of `folder` that are not folders (links included: reading refuses them)."""
    try:
        with os.scandir(folder) as it:
            return sorted(e.name for e in it if not e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def _open_nofollow(name: str, dir_fd: int | None, directory: bool) -> int:
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | (os.O_DIRECTORY if directory else 0)
    return os.open(name, flags, dir_fd=dir_fd)


def read_under(root: Path, path: Path, limit: int = FILE_LIMIT) -> str | None:
    """The text of `path` (below `root`), or None if it does not exist; Unsafe if it is a symbolic
    link or passes through one, is not a regular file, or is over `limit` bytes."""
    try:
        rel = Path(os.path.relpath(os.path.abspath(path), os.path.abspath(root)))
    except ValueError:
        raise Unsafe(f"{path}: outside the checkout") from None
    parts = rel.parts
    if not parts or parts[0] == ".." or rel.is_absolute():
        raise Unsafe(f"{path}: outside the checkout")
    try:
        fd = _open_nofollow(str(root), None, True)
    except OSError as e:
        raise Unsafe(f"{root}: cannot open the checkout ({e.strerror})") from None
    try:
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            try:
                nxt = _open_nofollow(part, fd, not last)
            except FileNotFoundError:
                return None
            except OSError as e:
                if _is_link(fd, part):
                    raise Unsafe(f"{rel}: a symbolic link (never followed)") from None
                raise Unsafe(f"{rel}: cannot be read ({e.strerror})") from None
            os.close(fd)
            fd = nxt
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Unsafe(f"{rel}: not a regular file")
        if st.st_size > limit:
            raise Unsafe(f"{rel}: {st.st_size} bytes, over the limit of {limit} bytes")
        data = _read_all(fd, limit)
        if len(data) > limit:
            raise Unsafe(f"{rel}: over the limit of {limit} bytes")
        return data.decode("utf-8", errors="replace").replace("\r\n", "\n")
    finally:
        os.close(fd)


def _read_all(fd: int, limit: int) -> bytes:
    """At most limit + 1 bytes of an open file (so that a file grown past its size is seen)."""
    chunks, got = [], 0
    while got <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - got))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _is_link(dir_fd: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _small(path: Path, limit: int = SMALL) -> str | None:
    """A file of the git folder (at most about `limit` bytes of it), not followed if it is a link;
    None if it cannot be read or is not a regular file."""
    try:
        fd = _open_nofollow(str(path), None, False)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return _read_all(fd, limit).decode("utf-8", errors="replace")
    finally:
        os.close(fd)


def git_dirs(folder: Path) -> tuple[Path, Path, Path] | None:
    """(work tree root, git dir, common git dir) of the checkout holding `folder`, or None."""
    here = Path(os.path.abspath(folder))
    for top in (here, *here.parents):
        dot = top / ".git"
        try:
            st = os.lstat(dot)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode):
            gitdir = dot
        elif stat.S_ISREG(st.st_mode):  # a worktree or submodule: "gitdir: <path>"
            text = _small(dot) or ""
            if not text.startswith("gitdir:"):
                return None
            gitdir = (top / text[len("gitdir:"):].strip()).resolve()
        else:
            return None
        common = gitdir
        if (c := _small(gitdir / "commondir")) is not None:
            common = (gitdir / c.strip()).resolve()
        return top, gitdir, common
    return None


def head_commit(gitdir: Path, common: Path) -> str | None:
    head = (_small(gitdir / "HEAD") or "").strip()
    if _HEX.fullmatch(head):
        return head
    if not head.startswith("ref:"):
        return None
    ref = head[4:].strip()
    if not ref.startswith("refs/") or ".." in ref or not re.fullmatch(r"[A-Za-z0-9_./+-]+", ref):
        return None
    for base in (gitdir, common):
        loose = (_small(base / ref) or "").strip()
        if _HEX.fullmatch(loose):
            return loose
    for line in (_small(common / "packed-refs", INDEX_LIMIT) or "").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1] == ref and _HEX.fullmatch(parts[0]):
            return parts[0]
    return None


def index_entries(gitdir: Path) -> list[tuple[str, int, bytes]] | None:
    """(path, mode, sha1) of every entry of the git index (versions 2 to 4), None if unreadable."""
    try:
        fd = _open_nofollow(str(gitdir / "index"), None, False)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode) or os.fstat(fd).st_size > INDEX_LIMIT:
            return None
        data = _read_all(fd, INDEX_LIMIT)
    finally:
        os.close(fd)
    if len(data) < 12 or data[:4] != b"DIRC":
        return None
    version, count = int.from_bytes(data[4:8], "big"), int.from_bytes(data[8:12], "big")
    if version not in (2, 3, 4):
        return None
    out, pos, prev = [], 12, b""
    try:
        for _ in range(count):
            start = pos
            mode = int.from_bytes(data[pos + 24:pos + 28], "big")
            sha = data[pos + 40:pos + 60]
            flags = int.from_bytes(data[pos + 60:pos + 62], "big")
            pos += 62
            if flags & 0x4000:
                pos += 2
            if version == 4:
                b = data[pos]  # git's offset varint: bytes of the previous path to drop
                pos += 1
                strip = b & 0x7F
                while b & 0x80:
                    b = data[pos]
                    pos += 1
                    strip = ((strip + 1) << 7) + (b & 0x7F)
                end = data.index(b"\0", pos)
                name = prev[:len(prev) - strip] + data[pos:end]
                pos = end + 1
            else:
                end = data.index(b"\0", pos)
                name = data[pos:end]
                pos = start + ((end - start + 8) // 8) * 8
            prev = name
            if len(sha) != 20:
                return None
            out.append((name.decode("utf-8", errors="surrogateescape"), mode, sha))
    except (IndexError, ValueError):
        return None
    return out


def _blob_sha(data: bytes) -> bytes:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).digest()


def _differs(root: Path, rel: str, mode: int) -> bool:
    path = root / rel
    try:
        st = os.lstat(path)
    except OSError:
        return True
    if mode & 0o170000 == 0o120000:
        return not stat.S_ISLNK(st.st_mode)  # the link's target is not compared (links are never read)
    if not stat.S_ISREG(st.st_mode) or st.st_size > FILE_LIMIT * 4:
        return True
    return False


def commit(folder: Path) -> str:
    """The commit of the checkout holding `folder`, `-dirty` if its tracked files there differ, or "unknown"."""
    found = git_dirs(folder)
    if found is None:
        return "unknown"
    top, gitdir, common = found
    head = head_commit(gitdir, common)
    if head is None:
        return "unknown"
    entries = index_entries(gitdir)
    if entries is None or len(head) != 40:
        return head + "-dirty"  # cannot show the files are the commit's
    try:
        prefix = os.path.relpath(os.path.abspath(folder), top)
    except ValueError:
        return head + "-dirty"
    prefix = "" if prefix == "." else prefix.replace(os.sep, "/") + "/"
    for rel, mode, sha in entries:
        if not rel.startswith(prefix):
            continue
        if _differs(top, rel, mode):
            return head + "-dirty"
        if mode & 0o170000 == 0o100000:
            try:
                fd = _open_nofollow(str(top / rel), None, False)
            except OSError:
                return head + "-dirty"
            try:
                data = _read_all(fd, FILE_LIMIT * 4)
            finally:
                os.close(fd)
            if _blob_sha(data) != sha:
                return head + "-dirty"
    return head
