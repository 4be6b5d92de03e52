"""Fresh z3 contexts, the first ones made ahead of need on a thread of their own.

Every one-shot query is decided in a context of its own (`sysr.smt.unroll.solve_alone`), so that
its answer and model depend on the query alone. A new z3 context starts with about 17 MB of
tables that the system hands over page by page (about 7 ms, nearly all of it in the kernel),
unless the memory of a freed context is there to reuse: glibc reuses it once one context has
been freed, so after the first few queries a context costs about 1 ms.

`start()` (the command line calls it before it parses) makes the first `FIRST` contexts on a
thread: every check with state needs that many at once (the bounded unrolling's and the free
unrolling's, `sysr.smt.prove` and `sysr.smt.induction`), and z3's API is called through ctypes,
which lets go of Python's lock, so they are made on another core while the parser works. The
thread then ends: contexts kept ready beyond these would each need fresh memory while the others
are in use, and the last ones would be paid for and thrown away.

The contexts handed out are new and unused, the same as those made on the spot: no answer
depends on which thread made them. `fresh()` takes one, or makes one on the spot when none is
ready.

`make_ahead()` is the check server's (`sysr.server.daemon`): it makes the first contexts at once
on the calling thread, before the server forks its children, so that each child starts with them
made (their memory shared with the server until written) and `start()` starts no thread.
"""

from __future__ import annotations

import threading

FIRST = 2  # contexts made ahead

_ready: list = []
_lock = threading.Lock()
_state = {"started": False}


def start() -> None:
    """Begin making the first contexts on a daemon thread (once per process)."""
    with _lock:
        if _state["started"]:
            return
        _state["started"] = True
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


def make_ahead() -> None:
    """Make the first `FIRST` contexts now, on this thread; a later `start()` makes none."""
    import z3
    with _lock:
        _state["started"] = True
    made = [z3.Context() for _ in range(FIRST)]
    with _lock:
        _ready.extend(made)
