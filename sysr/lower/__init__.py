"""Lowering: a checked sysr design to one plain Verilog-2005 module.

`lower_text` runs the static checks (parse, names, types, structure, holes) and refuses a
design with any error; the proofs are not needed to lower (run `sysr check` for those).
`lower` turns a design that passed into Verilog text: deterministic, readable, and meaning
exactly what `sysr.types` defines (see `sysr.lower.expr` for how widths and signedness are
kept exact); `lower_formal` adds the properties for Yosys' formal flow (`sysr.lower.formal`).
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..pipeline import analyze
from .formal import FormalUnsupported, lower_formal
from .module import lower
from .names import VERILOG_KEYWORDS

__all__ = ["lower", "lower_formal", "lower_text", "FormalUnsupported", "VERILOG_KEYWORDS"]


def lower_text(text: str, filename: str, formal: bool = False) -> tuple[str | None, list[Diagnostic]]:
    """(Verilog text, diagnostics); the text is None when the design has an error. With `formal`,
    the text also has the properties for Yosys' formal flow (`sysr.lower.formal`)."""
    outcome = analyze(text)
    if not outcome.accepted or outcome.design is None:
        return None, outcome.diagnostics
    if formal:
        return lower_formal(outcome.design, filename, text), outcome.diagnostics
    return lower(outcome.design, filename), outcome.diagnostics
