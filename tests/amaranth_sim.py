"""Amaranth's simulator as an oracle: run `sysr.amaranth` components against the evaluator.

`simulate(cases, n_cycles)` puts several components into one Amaranth design (one `sync`
domain per component, so that each has its own reset) and runs one testbench over them:
in each cycle it applies that cycle's inputs (the design's reset last, through the domain's
reset in "domain" mode, through the port in "port" mode), lets the combinational logic settle, and
samples every output port, register, register array element, wire and memory word; then it
ticks the clock. A design with an asynchronous reset gets a domain with `async_reset=True`, and
its reset changes between the edges (with the other inputs, after the previous edge): a
register reads as its reset value before the next edge (`Cycle.shown`), and in "port" mode,
where the register and the value read differ, the register itself is compared with what it
stored (`Cycle.state`). Cycle t is the evaluator's cycle t: Amaranth signals start at their reset
values and memories at zero, the evaluator's initial state, so no preliminary reset is needed;
registers without a reset value (reset-less signals) are set at the start to the values the
evaluator starts from (`Prepared.initial`).

`disagreements(case, observed)` compares the samples with the evaluator's cycles (`Prepared`
in tests/diff_prepare.py); any difference is a bug in the Amaranth back end (or in the
evaluator), reported with the cycle, the signal and both values. `run_amaranth` does it all for
designs from consecutive seeds (tests/test_differential_amaranth.py, and
benchmarks/differential_long.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from amaranth.hdl import ClockDomain, Module, Signal
from amaranth.sim import Simulator

import sysr.amaranth as sa
from diff_prepare import Figures, prepare, report, reset_less
from gen_designs import design_from_seed
from sysr import elab as E
from sysr.elab.clocks import clocking, is_leveled, register_domains
from sysr.types import mask


@dataclass
class AmCase:
    key: int
    prep: object  # diff_prepare.Prepared
    reset: str  # "domain" or "port"
    component: sa.SysrComponent | None = None
    crash: str | None = None
    probes: list = field(default_factory=list)  # (label, amaranth value, width, expected(cycle))


def make_case(prep, key: int, reset: str) -> AmCase:
    case = AmCase(key, prep, reset)
    d = prep.system.design
    try:
        domains = {c: f"d{key}_{c}" for c in d.clocks} if len(d.clocks) > 1 else None
        case.component = sa.from_design(d, reset=reset, domain=f"d{key}", domains=domains)
    except Exception as exc:  # a crash of the back end: reported for this design, not fatal
        case.crash = f"sysr.amaranth raised {type(exc).__name__}: {exc}"
        return case
    case.probes = probes(case.component, prep)
    return case


def probes(c: sa.SysrComponent, prep) -> list:
    d = prep.system.design
    out = []
    for name, member in c.port_names.items():
        sig = d.signals[name]
        if sig.kind == "out":
            out.append((name, c.port(name), sig.ty.width, lambda cyc, n=name: cyc.values[n]))
        elif sig.kind == "out_reg":
            out.append((name, c.port(name), sig.ty.width, lambda cyc, n=name: cyc.shown[n]))
    for name, reg in c.registers.items():  # (widths from the signals: an instance's are not the top's)
        w = len(reg[0] if isinstance(reg, list) else reg)
        seen = c.visible[name]
        if isinstance(reg, list):
            out += [(f"{name}[{i}]", el, w, lambda cyc, n=name, i=i: cyc.shown[n].get(i))
                    for i, el in enumerate(seen)]
            out += [(f"{name}[{i}] (stored)", el, w, lambda cyc, n=name, i=i: cyc.state[n].get(i))
                    for i, (el, v) in enumerate(zip(reg, seen)) if el is not v]
        else:
            out.append((name, seen, w, lambda cyc, n=name: cyc.shown[n]))
            if seen is not reg:
                out.append((f"{name} (stored)", reg, w, lambda cyc, n=name: cyc.state[n]))
    for name, wire in c.wires.items():
        out.append((name, wire, len(wire), lambda cyc, n=name: cyc.values[n]))
    for name, mem in c.memories.items():
        w = len(mem.data[0])
        out += [(f"{name}[{i}]", mem.data[i], w, lambda cyc, n=name, i=i: cyc.state[n].get(i))
                for i in range(mem.depth)]
    return out


def drive(ctx, case: AmCase, domain: ClockDomain | None, row: dict) -> None:
    """One cycle's inputs, the reset last: an asynchronous reset then becomes active after the
    other inputs have settled (a write enable, say), which it must still override at once."""
    c, d = case.component, case.prep.system.design
    for name, value in sorted(row.items(), key=lambda item: item[0] == d.reset):
        if name in c.port_names:
            ctx.set(c.port(name), value)
        elif name == d.reset and domain is not None:
            ctx.set(domain.rst, int(value == (0 if d.reset_active_low else 1)))


@dataclass
class Clock:
    """How the testbench drives one clock of a case: its bit of the clock bus, its value between
    steps, and per step whether the step ends with its edge (a pulse: the edge, then back to
    `idle`) or, for a clock with a level, with a toggle (no way back)."""
    bit: int
    idle: int
    level: bool
    edges: list[bool]


def case_clocks(case: AmCase, first_bit: int, n_cycles: int) -> dict[str, Clock]:
    """The clocks of a case as the evaluator steps them (`sysr.elab.clocks`): one clock at one
    edge ends every step with it; otherwise a ticked clock has its edge in the steps whose input
    named after it is 1, and a clock with a level toggles where `clk#toggle` says (every step
    when it is the only clock), from the level the evaluator starts with."""
    d, prep = case.prep.system.design, case.prep
    modes = clocking(d).modes
    edges = {c: {e for c2, e in register_domains(d).values() if c2 == c} or {"rising"} for c in d.clocks}
    out = {}
    for k, c in enumerate(d.clocks):
        mode = modes.get(c, "fixed")
        if mode == "level":
            ticks = [bool(row.get(f"{c}#toggle", 1)) for row in prep.inputs[:n_cycles]]
            out[c] = Clock(first_bit + k, prep.cycles[0].state[c], True, ticks)
        else:
            ticks = [True] * n_cycles if mode == "fixed" else [bool(row[c]) for row in prep.inputs[:n_cycles]]
            out[c] = Clock(first_bit + k, int(edges[c] == {"falling"}), False, ticks)
    return out


def simulate(cases: list[AmCase], n_cycles: int) -> dict[int, list[list[int]]]:
    """Per case key, per cycle, the sampled value of every probe (as bit patterns). Every clock of
    every case is a bit of one bus that the testbench sets: the edges that end a step happen
    together, after the step's samples."""
    live = [c for c in cases if c.component is not None]
    top = Module()
    domains: dict[int, ClockDomain] = {}  # a case's reset (all its domains share it)
    clocks: dict[int, dict[str, Clock]] = {}
    n_bits = 0
    for c in live:
        top.submodules[f"dut{c.key}"] = c.component
        clocks[c.key] = case_clocks(c, n_bits, n_cycles)
        n_bits += len(clocks[c.key])
    bus = Signal(max(n_bits, 1), init=sum(k.idle << k.bit for cs in clocks.values() for k in cs.values()))
    for c in live:
        comp = c.component
        for clock, am_domain in comp.domains.items():
            cd = ClockDomain(am_domain, async_reset=comp.reset_async and c.reset == "domain")
            if c.key in domains:  # one reset for the case's domains, as the design has
                cd.rst = domains[c.key].rst
            domains.setdefault(c.key, cd)
            top.domains += cd
            top.d.comb += cd.clk.eq(bus[clocks[c.key][clock].bit])
    sim = Simulator(top)
    observed: dict[int, list[list[int]]] = {c.key: [] for c in live}
    steps = 0

    async def testbench(ctx):
        nonlocal steps
        for c in live:  # registers without a reset value start where the evaluator's do
            for name, value in c.prep.initial.items():
                if name in c.component.registers:
                    ctx.set(c.component.registers[name], value)
        now = ctx.get(bus)
        for t in range(n_cycles):
            for c in live:
                drive(ctx, c, domains.get(c.key), c.prep.inputs[t])
            for c in live:
                observed[c.key].append([ctx.get(v) & mask(w) for _, v, w, _ in c.probes])
            edge = now
            for cs in clocks.values():
                for k in cs.values():
                    if k.edges[t]:
                        edge ^= 1 << k.bit
            ctx.set(bus, edge)  # every edge of this step at once
            await ctx.delay(0.5e-6)
            now = edge
            for cs in clocks.values():  # a ticked clock back to its idle value
                for k in cs.values():
                    if not k.level:
                        now = (now & ~(1 << k.bit)) | (k.idle << k.bit)
            ctx.set(bus, now)
            await ctx.delay(0.5e-6)
            steps += 1

    sim.add_testbench(testbench)
    sim.run()
    assert steps == n_cycles
    return observed


def disagreements(case: AmCase, observed: dict) -> list[str]:
    if case.crash:
        return [case.crash]
    out = []
    for t, cyc in enumerate(case.prep.cycles):
        row = observed[case.key][t]
        for (label, _, _, want), got in zip(case.probes, row):
            if got != want(cyc):
                out.append(f"cycle {t}: {label}: Amaranth {hex(got)}, evaluator {hex(want(cyc))}")
        if len(out) >= 8:
            break
    return out


# ---- many designs ----------------------------------------------------------------------------
#
# Designs alternate between the two reset mappings (even seeds: the reset is the clock
# domains'; odd seeds: it stays a port, except under an asynchronous reset with steps that are
# not edges of every domain, which only the domains' reset builds).

def amaranth_reset_mode(seed: int, system: E.System) -> str:
    d = system.design
    if seed % 2 == 0 or (d.reset_async and d.reset is not None and is_leveled(d)):
        return "domain"
    return "port"


def features(system: E.System) -> set[str]:
    """What a design's logic (ghosts and properties left out) uses of the newer constructs:
    an asynchronous reset, `/`, `%`, a memory, registers without a reset value,
    power-up values, no reset port, several clocks, a falling edge, a clock read as a level,
    a signal wider than 256 bits, a struct."""
    d = system.design
    out = {"async reset"} if d.reset_async and d.reset is not None else set()
    roots = [x for n, x in system.comb.items() if n not in system.comb_ghost]
    roots += [sv.next for sv in system.state if not sv.ghost and sv.next is not None]
    done: dict = {}
    for root in roots:
        for n in E.postorder(root, done):
            done[id(n)] = n
            if isinstance(n, E.Bin) and n.op in ("/", "%"):
                out.add(n.op)
    if any(sv.kind == "mem" for sv in system.state):
        out.add("memory")
    if any(not sv.ghost for sv in reset_less(system)):
        out.add("register without reset value")
    if any(not sv.ghost and sv.powerup is not None for sv in system.state):
        out.add("power-up value")
    if d.clock is not None and d.reset is None:
        out.add("no reset port")
    if len(d.clocks) > 1:
        out.add("several clocks")
    if any(edge == "falling" for _, edge in d.domains.values()):
        out.add("falling edge")
    if d.clock_reads:
        out.add("clock read as a level")
    if any(sig.ty is not None and sig.ty.width > 256 for sig in d.signals.values() if not sig.ghost):
        out.add("wide bus")
    if d.structs:
        out.add("struct")
    return out


def run_amaranth(n_designs: int, batch: int, n_cycles: int, first_seed: int, progress=None, **gen_opts) -> Figures:
    """Designs from seeds first_seed.. : generate (`gen_opts` for the generator), build, simulate in
    batches and compare."""
    figures = Figures()
    for start in range(0, n_designs, batch):
        t0 = time.perf_counter()
        seeds = range(first_seed + start, first_seed + min(start + batch, n_designs))
        preps = [(s, prepare(design_from_seed(s, **{"resets": False, **gen_opts}), s, n_cycles)) for s in seeds]
        cases = [make_case(p, s, amaranth_reset_mode(s, p.system)) for s, p in preps]
        t1 = time.perf_counter()
        observed = simulate(cases, n_cycles)
        figures.python_s += t1 - t0
        figures.run_s += time.perf_counter() - t1
        for c in cases:
            figures.designs += 1
            figures.cycles += len(c.prep.cycles)
            figures.features.update(features(c.prep.system))
            problems = disagreements(c, observed)
            if problems:
                figures.failures.append(f"==== Amaranth, reset={c.reset} (design_from_seed({c.key}))\n"
                                        + report(c.prep, problems, c.key))
        progress and progress(figures)
    return figures
