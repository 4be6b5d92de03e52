"""A content-hash cache of candidate results, so that scoring the same candidates twice costs nothing.

A result is stored under the SHA-256 of everything it depends on (`Key`):

- the candidate's text (as the scorer judges it: line ends made `\\n`) and its language;
- every file of the task's folder, by name and content (task.json, iface.v, tb.v, ref.v, and
  the rest: more than the scoring reads, so a file it starts reading later is covered too);
- the tools: Yosys, iverilog, vvp and bwrap, each by its version line and its binary (path,
  size, modification time), so a rebuild that keeps the version string misses too;
- the scorer's limits (`bench.judge.score.Limits`), whether it checks crashes against the reference
  and runs shadows, and the checker's command line;
- the project: sysr's `__version__`, the SHA-256 of every file of the `bench` and `sysr`
  packages (any change to the code misses, committed or not), the Python version and the
  versions of z3-solver and lark, which the checker's verdicts rest on.

Not stored: a `tool-failure`, or a result whose shadow (`bench.report.shadow`) is one (a tool that did
not run says nothing about the candidate), a
result produced with `BENCH_UNSANDBOXED=1` (the cache is not used at all then), a result
decided before any tool ran (no candidate, too large: nothing to save). A stored result comes
back with `cached: true`; its stage records are those of the run that produced it (tool
versions, durations). Results that depend on time (`timeout`, a time `resource-limit`) are
stored like the others: the limits are in the key, so raising one misses.

Where: `$BENCH_CACHE_DIR`, else `$XDG_CACHE_HOME/sysr-bench`, else `~/.cache/sysr-bench`; one
JSON file per result (`<aa>/<key>.json`), written to a temporary file and renamed into place, so
parallel jobs and concurrent `bench score` runs never see half an entry. An entry that does not
parse or does not match its key is ignored (and overwritten by the next store). Bounded: when
the entries pass `max_bytes` (256 MiB by default), the least recently used are removed until
they take three quarters of it (a hit refreshes an entry's time).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict
from functools import cache
from importlib import metadata
from pathlib import Path

from pydantic import ValidationError

from . import sandbox
from .results import CandidateResult
from .tasks import ROOT, Task
from .tools import ToolMissing, find_tool, tool_version

FORMAT = 2  # of the key and the entries: bumped when either changes (2: lint, log digests)
MAX_BYTES = 256 * 1024**2
TOOLS = ("yosys", "iverilog", "vvp", "bwrap", "verilator")
_PACKAGES = ("bench", "sysr")


def default_dir() -> Path:
    """Where the cache lives: $BENCH_CACHE_DIR, $XDG_CACHE_HOME/sysr-bench or ~/.cache/sysr-bench."""
    if os.environ.get("BENCH_CACHE_DIR"):
        return Path(os.environ["BENCH_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sysr-bench"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@cache
def project() -> dict[str, str]:
    """The project's identity: sysr's version, a hash of the bench and sysr sources, Python, z3, lark."""
    from sysr import __version__

    root = ROOT
    versions = {}
    for dist in ("z3-solver", "lark"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = "missing"
    return {"sysr": __version__, "source": tree_digest(root, _PACKAGES), "python": sys.version, **versions}


def tree_digest(root: Path, folders: tuple[str, ...]) -> str:
    """The SHA-256 of every file under root/folder for each folder, by name and content (not caches)."""
    h = hashlib.sha256()
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                h.update(str(path.relative_to(root)).encode() + b"\0" + _sha(path.read_bytes()).encode() + b"\n")
    return h.hexdigest()


def tools() -> dict[str, str]:
    """Each tool's version line and binary (path, size, modification time), as they are now."""
    out = {}
    for name in TOOLS:
        try:
            path = find_tool(name)
            st = os.stat(path)
            out[name] = f"{tool_version(name)} | {os.path.realpath(path)} {st.st_size} {st.st_mtime_ns}"
        except (ToolMissing, OSError):
            out[name] = "missing"
    return out


def task_files(task: Task) -> dict[str, str]:
    """The hash of every file in the task's folder, by its name in the folder."""
    folder = task.path("")
    return {str(p.relative_to(folder)): _sha(p.read_bytes()) for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def key(scorer, task: Task, lang: str, source: str) -> str:
    """The cache key of scoring `source` (normalized as the scorer judges it) for `task` in `lang`."""
    material = {
        "format": FORMAT, "lang": lang, "candidate": _sha(source.encode("utf-8", errors="surrogatepass")),
        "task": task_files(task), "tools": tools(), "project": project(),
        "scorer": {"limits": asdict(scorer.limits), "check_reference": scorer.check_reference,
                   "shadow": scorer.shadow, "sysr": list(scorer.sysr), "lint": scorer.lint},
    }
    return _sha(json.dumps(material, sort_keys=True).encode())


class ResultCache:
    """Results on disk by key (see the module doc)."""

    def __init__(self, folder: Path | None = None, max_bytes: int = MAX_BYTES) -> None:
        self.folder = Path(folder) if folder is not None else default_dir()
        self.max_bytes = max_bytes
        self.hits = 0
        self.stored = 0

    def _path(self, k: str) -> Path:
        return self.folder / f"v{FORMAT}" / k[:2] / f"{k}.json"

    def get(self, k: str) -> CandidateResult | None:
        """The stored result for key `k` (marked cached), or None if there is none or it is unreadable."""
        path = self._path(k)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            if entry.get("key") != k:
                return None
            result = CandidateResult.model_validate(entry["result"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError, ValidationError):
            return None
        try:
            os.utime(path)  # recently used
        except OSError:
            pass
        self.hits += 1
        return result.model_copy(update={"cached": True})

    def put(self, k: str, result: CandidateResult) -> None:
        """Store a result (never a tool failure, never one produced unsandboxed); errors are ignored."""
        shadow = result.shadow.result if result.shadow is not None else ""
        if "tool-failure" in (result.result, shadow) or sandbox.disabled() or result.cached:
            return
        path = self._path(k)
        data = json.dumps({"key": k, "result": result.model_dump(mode="json")})
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(data)
            os.replace(tmp, path)
        except OSError:
            return  # a full or read-only disk costs the cache, never the score
        self.stored += 1

    def prune(self) -> int:
        """Remove the least recently used entries when all of them pass max_bytes; how many went."""
        entries, now = [], time.time()
        for path in (self.folder / f"v{FORMAT}").glob("*/*"):
            try:
                st = path.stat()
                if path.name.startswith(".tmp-") and now - st.st_mtime > 3600:
                    path.unlink()  # left by a store that was killed mid-write
                    continue
            except OSError:
                continue
            if path.suffix == ".json":
                entries.append((st.st_mtime, st.st_size, path))
        total = sum(size for _, size, _ in entries)
        if total <= self.max_bytes:
            return 0
        removed = 0
        for _, size, path in sorted(entries):
            if total <= self.max_bytes * 3 // 4:
                break
            try:
                path.unlink()
            except OSError:
                continue
            total -= size
            removed += 1
        return removed
