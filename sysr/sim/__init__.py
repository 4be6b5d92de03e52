"""`sysr sim`: run a design cycle by cycle on the concrete evaluator and check every property.

`simulate(text, options)` runs the static checks, elaborates the design with its instances'
logic inlined (the real hierarchy: `elaborate(design)`, what the differential tests compare
against Icarus), and steps `sysr.evaluate.Evaluator` from the reset state: registers with a
reset value hold it in cycle 0, memories, registers without reset values and `prev`'s history
start with random values (the proofs cover every value; a simulation picks one), like an
unreset flip-flop in hardware. Each cycle's inputs come from the stimulus file where it gives
them and are random within the `requires` elsewhere (`sysr.sim.inputs`). In each cycle every
property is evaluated as the checker states it (`prev` properties only where they are checked,
§5.2), and the run stops at the first cycle in which one fails; the first cycle in which each
`cover` holds is reported. The result is data
(`SimResult`); `render` turns it into the text `sysr sim` prints: a trace table (vectors in hex
by default) and what failed, where.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .. import elab as E
from ..diagnostics import Diagnostic, Trace
from ..evaluate import ArrayValue, Cycle, Evaluator
from ..front import syntax as S
from ..types import Ty, mask, struct_fields, to_signed
from .inputs import InputChooser, NoInputs, reset_ports
from .stimulus import RANDOM, Row, StimulusError, read_stimulus

__all__ = ["SimOptions", "SimResult", "simulate", "render", "StimulusError"]


@dataclass
class SimOptions:
    cycles: int | None = None  # None: the stimulus's rows, or 100 without a stimulus
    seed: int = 1
    stimulus: str | None = None  # the stimulus file's text
    reset_rate: float = 0.02  # how often a random reset is active
    radix: str = "hex"  # hex, dec or bin: how vectors are shown
    top: str | None = None


@dataclass
class Failure:
    kind: str  # "property": properties failed; "stimulus": the stimulus breaks a requires;
    cycle: int  # "dead-end": no input meets the requires; "extern": the design has extern modules
    props: list[E.Prop] = field(default_factory=list)
    line: int = 0  # the stimulus line
    externs: list[str] = field(default_factory=list)


def extern_modules(design) -> list[str]:
    """The extern modules the design instantiates, at any depth, by name."""
    found: list[str] = []
    todo = [design]
    while todo:
        for inst in todo.pop().instances.values():
            if inst.child.extern:
                if inst.module not in found:
                    found.append(inst.module)
            else:
                todo.append(inst.child)
    return found


@dataclass
class SimResult:
    diagnostics: list[Diagnostic]  # static errors (the simulation did not run)
    cycles: list[Cycle] = field(default_factory=list)
    trace: Trace | None = None
    failure: Failure | None = None
    properties: int = 0
    solver_calls: int = 0
    module: str = ""
    covers: list = field(default_factory=list)  # [(cover Prop, first cycle it held or None)]

    @property
    def passed(self) -> bool:
        return not self.diagnostics and self.failure is None


def simulate(text: str, options: SimOptions) -> SimResult:
    from ..pipeline import analyze
    outcome = analyze(text, options.top)
    if not outcome.accepted or outcome.design is None:
        return SimResult([d for d in outcome.diagnostics if d.severity.name == "ERROR"])
    design = outcome.design
    externs = extern_modules(design)
    if externs:  # no body to run: their outputs would be free, not what their contracts promise
        return SimResult([], failure=Failure("extern", 0, externs=externs), module=design.module.name)
    system = E.elaborate(design)
    lines = text.splitlines()
    for p in system.props + system.requires + system.covers:
        if not p.text:
            p.text = S.source_snippet(lines, p.text_span or p.span)
    rows = read_stimulus(options.stimulus, design, system.inputs) if options.stimulus is not None else []
    total = options.cycles if options.cycles is not None else (len(rows) if rows else 100)
    rng = random.Random(options.seed)
    ev = Evaluator(system)
    chooser = InputChooser(system, ev, rng, reset_ports(design), options.reset_rate)
    state = ev.initial_state(lambda name, i: rng.getrandbits(width(system, name)),
                             lambda name: rng.getrandbits(width(system, name)))
    result = SimResult([], properties=len(system.props), module=design.module.name)
    reached: dict[int, int] = {}
    last = None
    for t in range(total):
        row = rows[t] if t < len(rows) else Row({}, 0)
        try:
            ins = chooser.choose(state, row.values, last)
        except NoInputs:
            result.failure = Failure("dead-end", t)
            break
        broken = chooser.requires_hold(state, ins)
        if broken:  # only fixed values can break them: the chooser met them otherwise
            result.failure = Failure("stimulus", t, [system.requires[i] for i in broken], row.line)
            break
        env = dict(state)
        env.update(ins)
        memo: dict = {}
        for i, c in enumerate(system.covers):
            if i not in reached and ev.eval(c.expr, env, memo):
                reached[i] = t
        cyc, state = ev.step(state, ins)
        result.cycles.append(cyc)
        last = ins
        failed = [p for p, v in zip(system.props, cyc.props) if not v]
        if failed:
            result.failure = Failure("property", t, failed)
            break
    result.solver_calls = chooser.solver_calls
    result.covers = [(c, reached.get(i)) for i, c in enumerate(system.covers)]
    result.trace = make_trace(design, system, result.cycles, options.radix, result.failure)
    return result


def width(system: E.System, name: str) -> int:
    return system.state_var(name).ty.width


def columns(design, system: E.System) -> list[tuple[str, str, Ty, str]]:
    """(label, source, type, kind): inputs, outputs, registers, ghost state; instances' ports and
    registers under their names (`u.count`)."""
    cols = [(n, "in", ty, "in") for n, ty in system.inputs]
    small = lambda sv: sv.size is None or sv.size <= 8  # noqa: E731
    for s in design.signals.values():
        if s.kind == "out":
            cols.append((s.name, "comb", s.ty, "out"))
        elif s.kind == "out_reg":
            cols.append((s.name, "state", s.ty, "out"))
    ports = {c[0] for c in cols}
    for sv in system.state:
        if "#" not in sv.name and sv.name not in ports and not sv.ghost and small(sv):
            cols.append((sv.name, "state", sv.ty, "reg"))
    for sv in system.state:
        if "#" not in sv.name and sv.ghost and small(sv):
            cols.append((sv.name, "state", sv.ty, "ghost"))
    for name in system.comb_ghost:
        if "#" not in name and name in system.comb:
            cols.append((name, "comb", design_type(design, name), "ghost"))
    return [c for c in cols if c[2] is not None]


def design_type(design, name: str) -> Ty | None:
    s = design.signals.get(name)
    return s.ty if s is not None else None


def fmt(design, value, ty: Ty, radix: str) -> str:
    if isinstance(value, ArrayValue):
        return "[" + ",".join(fmt(design, x, ty, radix) for x in value.snapshot()) + "]"
    if value is None:
        return "-"
    if ty.kind == "enum":
        return design.enums[ty.enum].name_of(value) or f"?{value}"
    if ty.kind == "struct":  # by field: `{valid:1,data:0x05}`
        return "{" + ",".join(f"{n}:{fmt(design, v, t, radix)}" for n, v, t in struct_fields(value, ty)) + "}"
    if ty.width == 1:
        return str(value)
    if radix == "dec":
        return str(to_signed(value, ty.width) if ty.signed else value)
    if radix == "bin":
        return "0b" + format(value & mask(ty.width), f"0{ty.width}b")
    return "0x" + format(value & mask(ty.width), f"0{(ty.width + 3) // 4}x")


def make_trace(design, system: E.System, cycles: list[Cycle], radix: str, failure: Failure | None) -> Trace:
    cols = columns(design, system)
    rows, raw = [], []
    for cyc in cycles:
        row, rrow = [], []
        for name, src, ty, _ in cols:
            v = cyc.inputs.get(name) if src == "in" else cyc.values.get(name) if src == "comb" \
                else cyc.shown.get(name)
            row.append(fmt(design, v, ty, radix))
            rrow.append(v if isinstance(v, int) else None)
        rows.append(tuple(row))
        raw.append(tuple(rrow))
    failing = failure.cycle if failure is not None and failure.kind == "property" else max(len(cycles) - 1, 0)
    title = (f"simulation from reset (cycle 0 is the reset state; `>` marks cycle {failing}, where it fails):"
             if failure is not None and failure.kind == "property" else "simulation from reset (cycle 0 is the reset state):")
    return Trace(title, tuple(c[0] for c in cols), tuple(rows), failing, tuple(c[3] for c in cols), tuple(raw),
                 tuple(c[2].width for c in cols))


def describe(p: E.Prop) -> str:
    if p.kind == "index":
        return f"the index `{p.text}` is in range (below {p.limit})"
    if p.kind == "divisor":
        return f"the divisor `{p.text}` is not zero"
    if p.kind == "instance":
        return f"the requirement `{p.text}` of `{p.module}` (instance `{p.inst}`)"
    return f"`{p.kind} {p.text}`"


def render(result: SimResult, filename: str, source: str, options: SimOptions) -> str:
    """What `sysr sim` prints (without the static errors: the caller renders those)."""
    out = []
    if result.trace is not None and result.cycles:
        table = result.trace.render()
        if result.failure is None or result.failure.kind != "property":  # no row to point at
            table = "\n".join("  " + ln[2:] if ln.startswith("> ") else ln for ln in table.split("\n"))
        out.append(table)
    f = result.failure
    if f is not None and f.kind == "extern":
        return (f"{filename}: error: not simulated: extern module{'s' if len(f.externs) > 1 else ''} "
                f"{', '.join(f.externs)} {'have' if len(f.externs) > 1 else 'has'} no body to run (a random "
                "output would not keep its contract); simulate the lowered Verilog with the module's own "
                "Verilog instead (`sysr lower`, then Icarus)")
    if f is not None and f.kind == "property":
        for p in f.props:
            out.append(f"{filename}:{p.span.line}:{p.span.column}: error: {describe(p)} fails in cycle {f.cycle}")
            note = p.deadline_note(f.cycle, source.splitlines())
            if note is not None:
                out.append(f"  note: {note}")
    elif f is not None and f.kind == "stimulus":
        for p in f.props:
            out.append(f"{filename}:{p.span.line}:{p.span.column}: error: the stimulus (line {f.line}) breaks "
                       f"`requires {p.text}` in cycle {f.cycle}")
    elif f is not None:
        out.append(f"{filename}: error: no input values meet the `requires` in cycle {f.cycle} from the state "
                   "the simulation reached (the environment has no legal move)")
    for c, t in result.covers:
        out.append(f"{filename}:{c.span.line}:{c.span.column}: note: `cover {c.text}` "
                   + (f"first reached in cycle {t}" if t is not None else "not reached in this run"))
    how = "stimulus and random inputs" if options.stimulus is not None else "random inputs"
    if f is None:
        out.append(f"{filename}: {len(result.cycles)} cycles simulated ({how} within the `requires`, seed "
                   f"{options.seed}): all {result.properties} properties held in every cycle")
    else:
        out.append(f"{filename}: simulation stopped in cycle {f.cycle} ({how}, seed {options.seed})")
    return "\n".join(out)
