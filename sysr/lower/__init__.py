"""Lowering: a checked sysr design to one plain Verilog-2005 module.

`lower_text` runs the static checks (parse, names, types, structure, holes) and refuses a
design with any error; the proofs are not needed to lower (run `sysr check` for those).
`lower` turns a design that passed into Verilog text: deterministic, readable, and meaning
exactly what `sysr.types` defines (see `sysr.lower.expr` for how widths and signedness are
kept exact).
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..pipeline import analyze
from .module import lower
from .names import VERILOG_KEYWORDS

__all__ = ["lower", "lower_text", "VERILOG_KEYWORDS"]


def lower_text(text: str, filename: str) -> tuple[str | None, list[Diagnostic]]:
    """(Verilog text, diagnostics); the text is None when the design has an error."""
    outcome = analyze(text)
    if not outcome.accepted or outcome.design is None:
        return None, outcome.diagnostics
    return lower(outcome.design, filename), outcome.diagnostics
