"""A design past one of the checker's limits (`sysr.limits`): the L diagnostics that report it.

`LimitExceeded` carries the diagnostic from where the limit was passed (a token too long, a
tree nested too deep, a budget of elaborated operations or quantifier instances spent) up to
`contained`, which runs a stage of the pipeline and also turns running out of memory (L008) or
of stack (L003) into a diagnostic. The numbers themselves are in `sysr.limits`, read when a
limit is checked (so a test may tighten them).
"""

from __future__ import annotations

import gc
from dataclasses import dataclass

from . import limits
from .diagnostics import Diagnostic, error
from .front import syntax as S
from .front.syntax import Span


class LimitExceeded(Exception):
    """A design past one of the limits: carries the L diagnostic that reports it."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def exceeded(code: str, message: str, span: Span, *notes: str) -> LimitExceeded:
    return LimitExceeded(error(code, message, span, *notes))


SIMPLIFY = ("simplify the design: fewer or narrower signals, smaller memories, fewer nested "
            "quantifiers, shorter unrolled `for` loops and fns inlined fewer times")


@dataclass
class Budget:
    """A count that may not pass a limit: elaborated operations, quantifier instances."""

    limit: int
    code: str
    what: str  # "the design elaborates to more than {limit} operations ..."
    advice: str
    used: int = 0

    def spend(self, n: int, span: Span) -> None:
        self.ensure(n, span)
        self.used += n

    def ensure(self, n: int, span: Span) -> None:
        """Raise now if spending `n` more would pass the limit."""
        if self.used + n > self.limit:
            raise exceeded(self.code, self.what.format(limit=self.limit), span, self.advice)


def design_size_budget() -> Budget:
    return Budget(limits.MAX_DESIGN_SIZE, "L007",
                  "the design is too large: it elaborates to more than {limit} operations once fns are "
                  "inlined, `for` loops unrolled and quantifiers expanded",
                  "the limit keeps every proof within the checker's memory and time; " + SIMPLIFY)


def quant_budget() -> Budget:
    return Budget(limits.MAX_QUANT_INSTANCES, "L005",
                  "the quantifiers expand too far: more than {limit} instances of their bodies in all "
                  "(each one is expanded over every value of its variable, and nested ones multiply)",
                  "quantify over narrower variables (a `u4` has 16 values, a `u8` 256), nest fewer "
                  "quantifiers, or state the property for one symbolic index: "
                  "`requires i < N;` with an input `i` instead of `forall i`")


def contained(stage: str, span: Span, fn, *args):
    """(fn(*args), None), or (None, the L diagnostic) when it passed a limit, ran out of memory
    or recursed too deeply. `stage` says what was running ("parsing", "proving ...")."""
    try:
        return fn(*args), None
    except LimitExceeded as e:
        return None, e.diagnostic
    except RecursionError:
        return None, too_deep(span)
    except MemoryError:
        pass  # leave the handler first: its traceback holds what filled the memory
    gc.collect()
    return None, out_of_memory(stage, span)


def too_deep(span: Span) -> Diagnostic:
    return error("L003", "the design nests too deeply for the checker (expressions, statements, and fn "
                         "bodies inlined into each other)", span,
                 "split deep expressions with `let` or wires, and call fns inside fns less deeply")


def out_of_memory(stage: str, span: Span) -> Diagnostic:
    limit = limits.memory_limit_bytes()
    within = f" (this process may use {limit / 2**20:.0f} MiB)" if limit else ""
    return error("L008", f"the checker ran out of memory while {stage}{within}", span, SIMPLIFY,
                 "a lower --depth also makes the proofs smaller")


def too_many_signals(tree) -> Diagnostic | None:
    """L006 when a module declares more than `limits.MAX_SIGNALS` ports, registers and wires."""
    for m in tree.items:
        if isinstance(m, S.Module):
            n = len(m.ports) + sum(isinstance(i, (S.RegDecl, S.WireDecl)) for i in m.items)
            if n > limits.MAX_SIGNALS:
                return error("L006", f"`{m.name}` declares {n:,} signals (ports, registers, memories and wires); "
                                     f"the checker takes at most {limits.MAX_SIGNALS:,}", m.name_span,
                             "pack related bits into wider signals or a memory (`reg m: u8[N];`)")
    return None
