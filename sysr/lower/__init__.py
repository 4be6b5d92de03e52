"""Lowering: a checked sysr design to plain Verilog-2005, one module per sysr module.

`lower_text` runs the static checks (parse, names, types, structure, holes) and refuses a
design with any error; the proofs are not needed to lower (run `sysr check` for those).
`lower` turns a design that passed into Verilog text: deterministic, readable, and meaning
exactly what `sysr.types` defines (see `sysr.lower.expr` for how widths and signedness are
kept exact); `lower_formal` adds the properties for Yosys' formal flow (`sysr.lower.formal`).
`lower_text` elaborates each module first, so that one past the size limits of
`sysr.limits` (which the lowering's own unrolling and inlining would meet too) is refused with
its L diagnostic, as is one that runs the lowering out of memory. A file with several modules
lowers to the top module and every module it instantiates (`lower_hierarchy`,
`sysr.lower.instances`), the hierarchy kept.
"""

from __future__ import annotations

import re

from .. import limits, overrun
from ..diagnostics import Diagnostic
from ..elab import elaborate
from ..pipeline import analyze
from .formal import FormalUnsupported, lower_formal
from .formal_hier import lower_formal_hierarchy
from .module import lower, lower_hierarchy
from .names import VERILOG_KEYWORDS

__all__ = ["lower", "lower_hierarchy", "lower_formal", "lower_formal_hierarchy", "lower_text",
           "FormalUnsupported", "VERILOG_KEYWORDS", "needed_externs"]

_EXTERNS = re.compile(r"^// Instantiates extern modules that sysr does not write: ([^(]*?) \(", re.M)


def needed_externs(verilog: str) -> list[str]:
    """The Verilog modules a lowered file instantiates but does not define (its extern modules,
    §4.9), as its header comment names them."""
    m = _EXTERNS.search(verilog)
    return m.group(1).split(", ") if m else []


def lower_text(text: str, filename: str, formal: bool = False, top: str | None = None,
               params: dict[str, int] | None = None) -> tuple[str | None, list[Diagnostic]]:
    """(Verilog text, diagnostics); the text is None when the design has an error. With `formal`,
    the text also has the properties for Yosys' formal flow (`sysr.lower.formal`). `top` names
    the top module (default: the one no other module instantiates); `params` sets the top's
    parameters (§4.8)."""
    return limits.run_deep(_lower_text, text, filename, formal, top, params)


def _lower_text(text: str, filename: str, formal: bool, top: str | None,
                params: dict[str, int] | None = None) -> tuple[str | None, list[Diagnostic]]:
    outcome = analyze(text, top, params)
    if not outcome.accepted or outcome.design is None:
        return None, outcome.diagnostics
    span = outcome.design.module.name_span
    h = outcome.hierarchy
    limit = None
    for d in h.reachable():  # each module on its own: the Verilog keeps the hierarchy
        if d.extern:
            continue
        _, limit = overrun.contained("elaborating the design", d.module.name_span, elaborate, d, "shallow")
        if limit is not None:
            break
    if limit is None:
        if formal:
            code, limit = overrun.contained("lowering the design", span, lower_formal_hierarchy, h, filename, text)
        else:
            code, limit = overrun.contained("lowering the design", span, lower_hierarchy, h, filename)
    if limit is not None:
        return None, outcome.diagnostics + [limit]
    return code, outcome.diagnostics
