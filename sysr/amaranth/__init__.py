"""sysr designs inside Amaranth: an accepted design as an Amaranth `wiring.Component`.

    import sysr.amaranth
    fifo = sysr.amaranth.load("fifo.sysr")   # checked and proven, or refused
    m.submodules.fifo = fifo                 # ports: fifo.push, fifo.din, fifo.dout, ...

`load(path)`, `from_text(text)` and `from_design(design)` run sysr's checker (the proofs
too, unless `verify=False`) and raise `Rejected`, carrying the diagnostics, for a design it
does not accept. The component is Amaranth logic built from the elaborated design (see
`sysr.amaranth.component` for how the clocks, the reset and names map, `domains` for the
clock domains, `exprs` and `arrays` for operators and memories), so Amaranth's simulator runs it and Amaranth's back ends
(`amaranth.back.rtlil`, `amaranth.back.verilog`) emit it. A construct the back end cannot
build raises `Unsupported`; it never builds a different circuit. `params` sets the top
module's parameters (§4.8 of the reference, as `--param` does): the component is that binding.
"""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostic, Severity, render
from ..model import Design
from ..pipeline import Options, analyze, check
from .component import RESET_MODES, SysrComponent
from .ops import Unsupported

__all__ = ["load", "from_text", "from_design", "Rejected", "Unsupported", "SysrComponent", "RESET_MODES"]


class Rejected(Exception):
    """sysr's checker did not accept the design; `diagnostics` says why."""

    def __init__(self, filename: str, text: str, diagnostics: list[Diagnostic]) -> None:
        self.filename = filename
        self.diagnostics = diagnostics
        errors = [d for d in diagnostics if d.severity == Severity.ERROR]
        shown = "\n\n".join(render(d, filename, text) for d in errors)
        super().__init__(f"{filename}: sysr rejects the design ({len(errors)} error(s)):\n{shown}")


def load(path, *, verify: bool = True, options: Options | None = None, reset: str = "domain",
         domain: str = "sync", params: dict[str, int] | None = None,
         domains: dict[str, str] | None = None) -> SysrComponent:
    """The design in file `path` as a component (see `from_text`)."""
    p = Path(path)
    return from_text(p.read_text(encoding="utf-8"), filename=str(path), verify=verify, options=options,
                     reset=reset, domain=domain, params=params, domains=domains)


def from_text(text: str, *, filename: str = "<text>", verify: bool = True, options: Options | None = None,
              reset: str = "domain", domain: str = "sync", params: dict[str, int] | None = None,
              domains: dict[str, str] | None = None) -> SysrComponent:
    """Check the design (`verify=False`: the static checks only, no proofs) and build it.

    `reset` is "domain" (the design's reset is the clock domains') or "port" (it stays a
    port); `domain` names the Amaranth domain of a design with one clock, `domains` maps each
    clock of a design to one (default with several clocks: each clock's own name).
    """
    if reset not in RESET_MODES:
        raise ValueError(f"reset must be one of {', '.join(map(repr, RESET_MODES))}, not {reset!r}")
    if verify:
        opts = options or Options()
        outcome = check(text, Options(opts.depth, opts.induction, opts.timeout, True, top=opts.top,
                                      params=dict(params or opts.params)))
    else:
        outcome = analyze(text, options.top if options else None, params)
    if not outcome.accepted or outcome.design is None:
        raise Rejected(filename, text, outcome.diagnostics)
    return SysrComponent(outcome.design, reset=reset, domain=domain, domains=domains)


def from_design(design: Design, *, reset: str = "domain", domain: str = "sync",
                domains: dict[str, str] | None = None) -> SysrComponent:
    """A design that already passed the checks (`sysr.pipeline.analyze` or `check`) as a component."""
    if design.holes:
        hole, _ = design.holes[0]
        raise ValueError(f"the design has a hole (`?{hole.name}` at line {hole.span.line}): "
                         f"fill it before building the design")
    return SysrComponent(design, reset=reset, domain=domain, domains=domains)
