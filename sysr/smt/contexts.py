"""Fresh z3 contexts, made ahead of need on a thread of their own.

Every one-shot query is decided in a context of its own (`sysr.smt.unroll.solve_alone`), so that
its answer and model depend on the query alone; a small design asks a few dozen. Making a z3
context costs about 8 ms of CPU (z3 sets up every theory), as much as the rest of a small check's
proofs. z3's API is called through ctypes, which lets go of Python's lock during the call, so a
thread that makes contexts runs beside the parser and the proofs on another core. The contexts
it hands out are new and unused, the same as those made on the spot: no answer depends on which
thread made them.

`start()` begins making them (the command line calls it before it parses, so that `import z3`
is done beside the parser too); `fresh()` takes one, or makes one on the spot when none is ready.
"""

from __future__ import annotations

import threading

AHEAD = 3  # contexts kept ready

_ready: list = []
_cond = threading.Condition()
_state = {"started": False}


def start() -> None:
    """Begin making contexts on a daemon thread (once per process)."""
    with _cond:
        if _state["started"]:
            return
        _state["started"] = True
    threading.Thread(target=_fill, name="sysr-z3-contexts", daemon=True).start()


def fresh():
    """A new z3 context."""
    import z3
    with _cond:
        if _ready:
            ctx = _ready.pop(0)
            _cond.notify_all()
            return ctx
    return z3.Context()


def _fill() -> None:
    import z3
    while True:
        with _cond:
            while len(_ready) >= AHEAD:
                _cond.wait()
        ctx = z3.Context()  # outside the lock: ctypes releases Python's lock during the call
        with _cond:
            _ready.append(ctx)
