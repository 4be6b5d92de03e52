"""The LALR parser loaded from a cache of its tables, so that a start-up does not rebuild them.

Building lark's LALR tables for the grammar is most of the work of a short `sysr check`; loading
them back is about ten times faster. `cached_parser(build, *key_parts)` returns the parser from
the first readable cache file, else builds it and saves it for the next start.

- Invalidation: the file name carries a hash of the key parts (the grammar text and the source
  of the module that builds the parser), lark's version, Python's version and this module's
  `FORMAT`; the file repeats the hash in its first line and is used only when it matches. A
  change to any of them simply uses a new name; older files in the folder are removed.
- Where: beside the package (`sysr/front/__pycache__/`, written by `make setup`, so a run with an
  empty `HOME`, as the scorer's, still finds it), else the user's cache folder
  (`$XDG_CACHE_HOME/sysr`, or `~/.cache/sysr`) when the package folder is read-only.
- Many processes at once: a cache is written to a temporary name in its folder and renamed into
  place, so a reader sees a whole file or none. A file that cannot be read or loaded (truncated,
  corrupt, from another lark) is ignored and replaced; a folder that cannot be written is
  skipped. The cache never makes a check fail.

`python -m sysr.front.parse [--quiet]` writes the cache of sysr's parser (what `make setup`
runs) and says where.
`SYSR_PARSER_CACHE=off` builds the parser every time (to measure what the cache saves).
"""

from __future__ import annotations

import hashlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Sequence

import lark

FORMAT = 1  # bump when what is saved changes meaning
PREFIX = "grammar-"
SUFFIX = ".lark-cache"
STALE_S = 60.0  # leftovers older than this (other versions, abandoned temporary files) are removed


def cache_key(*parts: str) -> str:
    """The hash that names a cache: the given parts, lark's and Python's versions, the format."""
    h = hashlib.sha256()
    for part in (str(FORMAT), lark.__version__, "%d.%d" % sys.version_info[:2], *parts):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def cache_name(key: str) -> str:
    """The file name of the cache saved under `key`."""
    return PREFIX + key[:32] + SUFFIX


def default_dirs() -> list[Path]:
    """Where caches are looked for and written, in order: beside the package, then per user."""
    dirs = [Path(__file__).resolve().parent / "__pycache__"]
    user = _user_cache_dir()
    if user is not None:
        dirs.append(user)
    return dirs


def _user_cache_dir() -> Path | None:
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base and os.path.isabs(base):
        return Path(base) / "sysr"
    try:
        return Path.home() / ".cache" / "sysr"
    except (RuntimeError, KeyError):  # no home folder to be found
        return None


def cached_parser(build: Callable[[], lark.Lark], *key_parts: str,
                  dirs: Sequence[Path] | None = None) -> lark.Lark:
    """The parser `build` makes, loaded from the first valid cache in `dirs`, else built and saved."""
    if os.environ.get("SYSR_PARSER_CACHE") == "off":
        return build()
    key = cache_key(*key_parts)
    name = cache_name(key)
    dirs = default_dirs() if dirs is None else list(dirs)
    for d in dirs:
        parser = read_cache(d / name, key)
        if parser is not None:
            return parser
    parser = build()
    for d in dirs:
        if write_cache(d / name, key, parser):
            break
    return parser


def _header(key: str) -> bytes:
    return f"sysr lark tables {key}\n".encode("ascii")


def read_cache(path: Path, key: str) -> lark.Lark | None:
    """The parser saved at `path` under `key`, or None when it is missing, stale or unreadable."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header = _header(key)
    if not data.startswith(header):
        return None
    try:
        return lark.Lark.load(io.BytesIO(data[len(header):]))
    except Exception:  # a corrupt or incompatible file is a missing cache, never a failed check
        return None


def write_cache(path: Path, key: str, parser: lark.Lark) -> bool:
    """Save `parser` at `path` atomically (temporary file, then rename); False when it cannot."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(_header(key))
            parser.save(f)
        os.chmod(tmp, 0o644)  # readable by every user of a shared installation, like the package
        os.replace(tmp, path)
        tmp = None
    except Exception:  # a read-only or full folder, or a parser that cannot be saved: no cache here
        return False
    finally:
        if tmp is not None:
            _unlink(Path(tmp))
    _remove_stale(path)
    return True


def _remove_stale(current: Path) -> None:
    """Remove caches of other versions and abandoned temporary files beside `current`."""
    now = time.time()
    try:
        entries = list(current.parent.glob(PREFIX + "*"))
    except OSError:
        return
    for p in entries:
        if p.name == current.name:
            continue
        try:
            if now - p.stat().st_mtime > STALE_S:
                p.unlink()
        except OSError:
            pass


def _unlink(p: Path) -> None:
    try:
        p.unlink()
    except OSError:
        pass
