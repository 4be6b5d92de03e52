"""Fresh z3 contexts, the first ones made ahead of need on a thread of their own.

Every one-shot query is decided in a context of its own (`sysr.smt.unroll.solve_alone`), so that
its answer and model depend on the query alone. A z3 context starts with about 17 MB of tables
that the system must hand over page by page (about 7 ms, nearly all of it in the kernel). Two
things keep that off a small check's time:

- `start()` (the command line calls it before it parses) makes the first `FIRST` contexts on a
  thread: every check needs that many (the bounded unrolling's, and the first query's or the
  induction's), and z3's API is called through ctypes, which lets go of Python's lock, so they
  are made on another core while the parser works. The thread then ends: contexts made ahead
  and never used would be paid for and thrown away.
- `start()` also asks the C library to keep the memory of freed contexts for the next ones
  (`keep_freed_memory`): a query's context is freed when the query ends, and the next query's
  then costs a tenth as much. (It only changes when memory goes back to the system; the process
  is a one-shot command.)

The contexts handed out are new and unused, the same as those made on the spot: no answer
depends on which thread made them. `fresh()` takes one, or makes one on the spot when none is
ready.
"""

from __future__ import annotations

import threading

FIRST = 2  # contexts made ahead: what every check uses

_ready: list = []
_lock = threading.Lock()
_state = {"started": False}


def start() -> None:
    """Keep freed memory for reuse, and make the first contexts on a daemon thread (once)."""
    with _lock:
        if _state["started"]:
            return
        _state["started"] = True
    keep_freed_memory()
    threading.Thread(target=_fill, name="sysr-z3-contexts", daemon=True).start()


def fresh():
    """A new z3 context."""
    import z3
    with _lock:
        if _ready:
            return _ready.pop(0)
    return z3.Context()


def _fill() -> None:
    import z3
    for _ in range(FIRST):
        ctx = z3.Context()  # outside the lock: ctypes releases Python's lock during the call
        with _lock:
            _ready.append(ctx)


MMAP_THRESHOLD = 32 << 20  # blocks below this come from the heap, where freed ones are reused
TRIM_THRESHOLD = 256 << 20  # free memory kept at the top of the heap before it is given back


def keep_freed_memory() -> None:
    """With glibc, serve z3's large blocks from the heap and keep freed ones for reuse (without
    this, each is mapped and unmapped, and every new context faults its pages in again). A no-op
    where the C library has no `mallopt`."""
    import ctypes
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(-3, MMAP_THRESHOLD)  # M_MMAP_THRESHOLD
    mallopt(-1, TRIM_THRESHOLD)  # M_TRIM_THRESHOLD
