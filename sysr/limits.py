"""The checker's limits, in one place: how big a design may be before sysr refuses it.

sysr checks untrusted designs (a model's candidates in the benchmark, anything a user opens),
so no input may crash it, hang it or make it run out of memory: a design past one of these
limits gets an L diagnostic that says which limit and how to simplify (exit 1, rejected), the
same as any other error. Each limit is far above what real designs use: the largest design in
this repository (task references, examples, tests) is 6.6 KB, nests 19 syntax levels, declares
42 signals, elaborates to 1,082 operations and expands 32 quantifier instances, and
tests/test_limits.py checks that every one of them still passes with every limit ten times
tighter. The limits that matter are chosen
so that a design just inside all of them still parses, checks and is encoded for z3 well
within the benchmark's budget (2 GiB of address space, 180 s):

- a file of `MAX_FILE_BYTES` parses in seconds; the size is checked before lark sees it;
- `MAX_NESTING` bounds the depth of the syntax tree (an operator chain `a + b + ...` nests one
  level per operator); the checker, the elaboration and the lowering walk the tree
  recursively, so they run on a thread with a large stack (`run_deep`) where `RECURSION_LIMIT`
  frames fit, and `MAX_INLINED_NESTING` bounds the same depth once fns are inlined;
- `MAX_LITERAL_CHARS` and `MAX_NAME_CHARS` keep every number Python converts from text below
  its 4,300-digit limit (a literal of the widest type, in binary, still fits), and every name short enough to show in a trace column;
- `MAX_SIGNALS` (ports, registers, wires) bounds the variables z3 gets per cycle;
- `MAX_QUANT_INSTANCES` and `MAX_DESIGN_SIZE` bound what elaboration builds: quantifier bodies
  over all expansions together (nested quantifiers multiply), and operations after fns are
  inlined, `for` loops unrolled and quantifiers expanded (z3 gets one copy per cycle checked);
  a hierarchy flattened for simulation (`sysr.elab.flat`) shares one budget over all its instances;
- `MAX_INSTANCES` and `MAX_HIERARCHY_DEPTH` bound the instances of a file and how deeply modules
  nest through them (each module is proven on its own, with its children's contracts, so the
  proofs grow with the modules, not with the flattened hierarchy);
- `DEFAULT_TIME_LIMIT_S` is the time the proofs of one `sysr check` may take in all; what was
  not decided by then is V003, so a check ends with a verdict before the benchmark's 180 s
  (the rest is startup, the static checks and building the queries, which the other limits
  keep to seconds);
- a MemoryError anywhere, or z3 reaching its memory cap (set below the process's address-space
  limit, see `sysr.smt.bounded`), is L008.

The language's own bounds are rules of the language rather than of the checker, with T codes:
widths up to 4,096 bits, arrays up to 2^20 elements, `for` loops up to 4096 iterations,
quantified variables up to 8 bits.

The output is bounded too, so that a report always fits the benchmark's 256 KiB output cap
and stays valid JSON: at most `MAX_DIAGNOSTICS` diagnostics are shown (the rest are counted
as omitted), messages, source excerpts, traces and the report's text are cut to the sizes
below, and `sysr check --json` prints at most `MAX_JSON_BYTES`.

This module holds the numbers and runs the pipeline on a deep stack (`run_deep`); the L
diagnostics of a design past a limit, and the budgets that count toward one, are
`sysr.overrun`'s.
"""

from __future__ import annotations

import resource
import sys
import threading

# ---- input -----------------------------------------------------------------------------
MAX_FILE_BYTES = 1 << 20  # L001; the largest real design is 6.6 KB
MAX_NESTING = 512  # L003: depth of the syntax tree; real designs reach 19
MAX_INLINED_NESTING = 2048  # L003: the same once fn bodies are inlined at their calls
MAX_LITERAL_CHARS = 4200  # L004: an integer literal's characters (a u4096 in binary is 4098 with `0b`)
MAX_NAME_CHARS = 256  # L004
MAX_SIGNALS = 4096  # L006: ports, registers, memories and wires, ghost ones included; real: 42
MAX_QUANT_INSTANCES = 1 << 17  # L005: quantifier bodies, all expansions together
MAX_CYCLES_BACK = 256  # T013: the count of `prev(e, n)`, `next(b, n)`, `within(b, n)` (a history register each)
MAX_DESIGN_SIZE = 200_000  # L007: elaborated operations; real designs: up to 1,082
MAX_INSTANCES = 1024  # L009: `inst` declarations in a file
MAX_FN_LETS = 16_384  # L011: a fn body of statements unrolled to `let`s (a CRC-32 of 64 bytes: 1,536)
MAX_HIERARCHY_DEPTH = 32  # L010: modules nested in each other through instances, the top included
DEFAULT_TIME_LIMIT_S = 120.0  # the proofs of one check, in all (V003 for what is left)

# ---- output ----------------------------------------------------------------------------
MAX_DIAGNOSTICS = 100  # shown; the rest are counted as omitted
MAX_PROPERTIES = 200  # in the JSON report; the rest are counted as omitted
MAX_RELATED = 12  # related locations shown per diagnostic
MAX_NOTES = 12
MAX_MESSAGE_CHARS = 1000  # a message, note or related message
MAX_EXCERPT_CHARS = 160  # of a source line shown under a diagnostic
MAX_TRACE_ROWS = 64  # the last cycles of a trace (it fails in its last cycle)
MAX_TRACE_COLUMNS = 32
MAX_CELL_CHARS = 80  # a trace value or column name (a u256 in hex is 66; wider ones are cut)
MAX_TEXT_CHARS = 64 * 1024  # the `text` field of the JSON report
MAX_JSON_BYTES = 200 * 1024  # the whole JSON report (the benchmark cuts output at 256 KiB)
MAX_SUGGEST_WORK = 200_000  # names compared for "did you mean" in one check (then no more)

# ---- running ---------------------------------------------------------------------------
STACK_BYTES = 256 << 20  # the stack of the thread the pipeline runs on
RECURSION_LIMIT = 40_000  # Python frames on that thread


# ---- running the pipeline --------------------------------------------------------------
_deep = threading.local()
_start_lock = threading.Lock()
_limit_lock = threading.Lock()
_running = [0, 0]  # deep threads running, the recursion limit before the first of them


def _raise_recursion_limit() -> None:
    with _limit_lock:
        if _running[0] == 0:
            _running[1] = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_running[1], RECURSION_LIMIT))
        _running[0] += 1


def _restore_recursion_limit() -> None:
    with _limit_lock:
        _running[0] -= 1
        if _running[0] == 0:
            sys.setrecursionlimit(_running[1])


def run_deep(fn, *args):
    """fn(*args) on a thread with a large stack and a high recursion limit (the checker, the
    elaboration and the lowering recurse over the syntax tree); exceptions propagate. The limit
    is process-wide in Python: it is raised while such threads run and put back after. Runs in
    place when already on such a thread, or when no thread can be started."""
    if getattr(_deep, "active", False):
        return fn(*args)
    box: dict = {}

    def target() -> None:
        _deep.active = True
        _raise_recursion_limit()
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # handed to the caller's thread
            box["error"] = e
        finally:
            _restore_recursion_limit()

    with _start_lock:
        old = threading.stack_size()
        try:
            threading.stack_size(STACK_BYTES)
            worker = threading.Thread(target=target, name="sysr-pipeline", daemon=True)
            worker.start()
        except (RuntimeError, MemoryError, ValueError):  # no room for the thread: run here
            worker = None
        finally:
            threading.stack_size(old)
    if worker is None:
        return fn(*args)
    worker.join()
    if "error" in box:
        raise box.pop("error")
    return box["value"]


def memory_limit_bytes() -> int | None:
    """The address-space limit this process runs under, or None when there is none."""
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ValueError, OSError):
        return None
    return None if soft == resource.RLIM_INFINITY else soft
