"""Scratch folders for scoring: made at once, removed off the scorer's path.

Removing a folder can cost more than the tool runs it held: on ext4 mounted with `discard` (as
on many virtual machines) each freed directory is trimmed on the spot, about 2 ms a folder, and
a candidate uses four. So the scorer hands a finished folder to one background thread that
removes folders in the order given (`discard`), and a normal exit of the process waits for it
(`drain`, registered with atexit), so nothing is left behind.
"""

from __future__ import annotations

import atexit
import queue
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_pending: queue.Queue[Path] = queue.Queue()
_started: list[threading.Thread] = []
_lock = threading.Lock()


@contextmanager
def folder(prefix: str) -> Iterator[Path]:
    """A new, empty folder for the `with`; removed in the background after it."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        discard(path)


def discard(path: Path) -> None:
    """Remove `path` (a folder, with everything in it) soon, in the background."""
    with _lock:
        if not _started:
            worker = threading.Thread(target=_remove, name="bench-scratch", daemon=True)
            worker.start()
            _started.append(worker)
    _pending.put(path)


def drain() -> None:
    """Wait until every folder given to `discard` is gone."""
    if _started:
        _pending.join()


def _remove() -> None:
    while True:
        path = _pending.get()
        try:
            shutil.rmtree(path, ignore_errors=True)
        finally:
            _pending.task_done()


atexit.register(drain)
