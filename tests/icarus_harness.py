"""The Icarus side of the differential tests: the lowered Verilog of many designs simulated in
one testbench and compared with the evaluator cycle by cycle.

`lower_case` lowers a prepared design (tests/diff_prepare.py) and lists what to probe (ports,
and the wires, registers and memories the lowering kept by name, through hierarchical
references); `make_testbench` drives each design with its own inputs; `simulate` compiles and
runs a batch with Icarus (a design that does not compile alone is reported and left out);
`compare` sets each probe's value against the evaluator's. `run_differential` does it all for
designs from consecutive seeds, `check_one` and `harness_problems` for one design's text.

`SYSR_DIFF_DESIGNS`, `SYSR_DIFF_BATCH`, `SYSR_DIFF_CYCLES` and `SYSR_DIFF_SEED` set the size
of the random test (tests/test_differential.py). Icarus reads the designs as SystemVerilog
(`-g2012`), as the scorer does; `SYSR_DIFF_GENERATION=-g2005` reads them as Verilog-2005.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from diff_prepare import Figures, Prepared, prepare, report, reset_less
from gen_designs import Generated, design_from_seed
from sysr.front.syntax import RESET_KINDS
from sysr.types import mask


# ---- Icarus vs evaluator ------------------------------------------------------------------
#
# Cycle alignment. The testbench runs n+1 steps of 10 time units; in each step it applies that
# step's inputs as the clock falls (time 0 of the step), waits for the combinational logic to
# settle, samples every output (and probe) at time 3, then raises the clock at time 5 (the
# edge that ends the step). Step 0 is a preliminary reset: the reset is active, so at its edge
# every register takes its reset value and the seq blocks do nothing (memories, set to 0 by
# the testbench at time 0, and registers without a reset value, set by it to the values the
# evaluator starts from, `Prepared.initial`, keep them). Its outputs are not compared. Step
# k >= 1 is the evaluator's cycle k-1: the evaluator starts in the reset state with memories 0
# (`initial_state(memory=lambda n, i: 0)`), which is what the registers hold after the edge of
# step 0. A clocked design without a reset port has no preliminary reset: its clock is held low
# in step 0 (`ck<key>`), so that step 1 starts from the values the testbench set at time 0.
# Later reset pulses are ordinary inputs of both. An asynchronous reset of a design
# with an odd key is applied at time 2 of the step instead (neither edge): registers it
# asserts must be cleared by the sample at time 3, what the evaluator shows for that cycle.

SIM_DESIGNS = int(os.environ.get("SYSR_DIFF_DESIGNS", "300"))
SIM_BATCH = int(os.environ.get("SYSR_DIFF_BATCH", "75"))
SIM_CYCLES = int(os.environ.get("SYSR_DIFF_CYCLES", "24"))
SIM_SEED = int(os.environ.get("SYSR_DIFF_SEED", "1000"))
HAVE_ICARUS = shutil.which("iverilog") is not None and shutil.which("vvp") is not None


@dataclass
class Probe:
    """A value the testbench prints each cycle and what the evaluator says it should be."""
    label: str
    verilog: str  # expression in the testbench, e.g. `u3.r9` or `o3_2`
    expected: object  # Cycle -> int


@dataclass
class SimCase:
    key: int
    seed: int | None
    prep: Prepared
    prelim: dict[str, int]  # inputs of the preliminary reset step
    ports: list[tuple[str, str, int]]  # (name, kind, width) in source order
    verilog: str  # the lowered module, renamed `<name>_d<key>`
    probes: list[Probe] = field(default_factory=list)
    mem_inits: list[str] = field(default_factory=list)  # testbench statements at time 0
    names: dict = field(default_factory=dict)  # source name (flat) -> `Placed`: where it is in the Verilog
    crash: str | None = None  # why there is no Verilog
    # several clocks or edges (§4.10): (port index, clock, mode, edge, stimulus input or None)
    clocks: list[tuple[int, str, str, str, str | None]] = field(default_factory=list)

    @property
    def module(self) -> str:
        return f"{self.prep.system.design.module.name}_d{self.key}"


def lower_case(prep: Prepared, key: int, seed: int | None, corrupt=None) -> SimCase:
    """Lower a prepared design and work out its ports, probes and memory initialisation."""
    from sysr.lower.module import ModuleLowering, lowerings
    d = prep.system.design
    try:
        # what `sysr.lower.lower` and `lower_hierarchy` run
        parts = lowerings(prep.hierarchy, f"d{key}.sysr") if prep.hierarchy else [ModuleLowering(d, f"d{key}.sysr")]
        verilog = "\n".join(m.run() for m in parts)
    except Exception as exc:  # a crash of the lowering: reported for this design, not fatal
        return SimCase(key, seed, prep, {}, [], "", crash=f"lower() raised {type(exc).__name__}: {exc}")
    names = verilog_paths(parts)
    if corrupt is not None:
        verilog = corrupt(verilog)
    verilog, n = re.subn(rf"\bmodule\s+{re.escape(d.module.name)}\b", f"module {d.module.name}_d{key}", verilog, 1)
    assert n == 1, "no module header in the lowered Verilog:\n" + verilog
    from sysr.lower.instances import module_names
    vnames = module_names(prep.hierarchy) if prep.hierarchy else {}
    for child in (prep.hierarchy.reachable()[1:] if prep.hierarchy else ()):  # one copy of each per case
        vname = vnames[child.name]  # a binding of a module with parameters: `pk__W12_K4` (§8)
        verilog = re.sub(rf"^(module\s+|\s+){re.escape(vname)}(?= )", rf"\g<1>{vname}_d{key}", verilog, flags=re.M)
    ports = [(p.name, p.kind, 1 if p.kind == "clock" else d.signals[p.name].ty.width) for p in d.module.ports]
    prelim = dict(prep.inputs[0])
    for rst, kind in d.resets.items():  # every reset active (§4.10: one per domain)
        prelim[rst] = 0 if kind.endswith("_n") else 1
    case = SimCase(key, seed, prep, prelim, ports, verilog, names=names, clocks=case_clocks(d, ports))
    for _, name, mode, _, stim in case.clocks:  # the preliminary reset: every clock's edges
        if stim is not None:
            prelim[stim] = 0 if gated_clock(case) else 1
    case.probes = port_probes(case) + internal_probes(case)
    case.mem_inits = memory_inits(case) + reset_less_inits(case)
    return case


def case_clocks(d, ports) -> list[tuple[int, str, str, str, str | None]]:
    """How the testbench drives each clock of a design with several clocks or edges (none for
    one clock at one edge, which the shared `clk` drives): its mode (`sysr.elab.clocks`: "tick",
    one edge that the stimulus says happens or not, or "level", toggled by it), the edge of a
    ticked clock, and the stimulus input behind it (None: a single clock toggled every step)."""
    from sysr.elab.clocks import clocking
    c = clocking(d)
    out = []
    for j, (name, kind, _) in enumerate(ports):
        mode = c.modes.get(name)
        if kind != "clock" or mode is None:
            continue
        edges = {e for clock, e in d.domains.values() if clock == name} or {"rising"}
        stim = name if mode == "tick" else (f"{name}#toggle" if c.free else None)
        out.append((j, name, mode, next(iter(edges)) if len(edges) == 1 else "both", stim))
    return out


@dataclass(frozen=True)
class Placed:
    """Where a source signal is in the lowered Verilog: its path below the top (`u1.count`,
    `u1.g1.acc`), and the module that declares it (its Verilog name: a binding's, §8)."""
    path: str
    module: str
    sig: object  # its `sysr.model.Signal` in that module
    wire: "Placed | None" = None  # an instance's output: the wire it drives in the parent (`u1.g1_y`)

    @property
    def leaf(self) -> str:
        return self.path.rsplit(".", 1)[-1]


def verilog_paths(parts: list) -> dict[str, Placed]:
    """Every lowered signal of the top and, through the instances, of every module below it,
    under its name in the flat system (`u1.g1.acc`), from each module's lowering."""
    by_module = {m.d.name: m for m in parts}  # a binding of a module with parameters is a module of its own

    def vname(m) -> str:
        return m.verilog_modules[m.d.name]
    out = {}

    def walk(m, prefix: str, path: str) -> None:
        out.update({prefix + s.name: Placed(path + m.name(s), vname(m), s) for s in m.signals})
        for inst in m.d.instances.values():
            walk(by_module[inst.key], f"{prefix}{inst.name}.", f"{path}{m.names[('inst', inst.name)]}.")
            for port in m.output_ports(inst):
                key = f"{inst.name}.{port.name}"
                wire = Placed(path + m.names[("sig", key)], vname(m), out[prefix + key].sig)
                out[prefix + key] = replace(out[prefix + key], wire=wire)
    walk(parts[0], "", "")
    return out


def module_text(case: "SimCase", module: str) -> str:
    """The lowered text of one module of the case (the whole text for a single module)."""
    if not case.prep.hierarchy:
        return case.verilog
    m = re.search(rf"^module {re.escape(module)}_d{case.key} \(.*?^endmodule$", case.verilog, re.M | re.S)
    return m.group(0) if m else ""


def port_probes(case: SimCase) -> list[Probe]:
    out = []
    for j, (name, kind, _) in enumerate(case.ports):
        if kind == "out":
            out.append(Probe(name, f"o{case.key}_{j}", lambda c, n=name: c.values[n]))
        elif kind == "out_reg":
            out.append(Probe(name, f"o{case.key}_{j}", lambda c, n=name: c.shown[n]))
    return out


def declaration(verilog: str, name: str) -> tuple[int, int | None] | None:
    """(width, entries) of `reg [W-1:0] name;` or `reg [W-1:0] name [0:N-1];` in the lowered text."""
    m = re.search(rf"^\s*(?:reg|wire)\s+(?:signed\s+)?(?:\[(\d+):0\]\s*)?{re.escape(name)}\s*(?:\[0:(\d+)\])?\s*[;=]",
                  verilog, re.M)
    if m is None:
        return None
    return int(m.group(1) or 0) + 1, (int(m.group(2)) + 1 if m.group(2) else None)


def internal_probes(case: SimCase) -> list[Probe]:
    """Wires, registers, register arrays and memories, where the lowering kept the source name
    (a flattened array is compared as one vector, element i at bits i*W), in the top and inside
    its instances (through hierarchical names, with the outputs of the instances' modules): not
    needed for the verdict (the top's outputs are), but they show where a disagreement starts."""
    out = []
    for name, at in case.names.items():
        sig = at.sig
        if sig.kind == "wire" and not sig.ghost and placed_declaration(case, at) == (sig.ty.width, None):
            out.append(Probe(name, f"u{case.key}.{at.path}", lambda c, n=name: c.values[n]))
        if at.wire is not None and placed_declaration(case, at.wire) == (sig.ty.width, None):
            got = (lambda c, n=name: c.values[n]) if sig.kind == "out" else (lambda c, n=name: c.shown[n])
            out.append(Probe(name, f"u{case.key}.{at.wire.path}", got))
    for sv in case.prep.system.state:
        at = case.names.get(sv.name)
        if sv.ghost or sv.kind not in ("reg", "mem") or at is None:
            continue
        decl = placed_declaration(case, at)
        where = f"u{case.key}.{at.path}"
        if decl is None:
            continue
        width, entries = decl
        if sv.size is None and width == sv.ty.width and entries is None:
            out.append(Probe(sv.name, where, lambda c, n=sv.name: c.shown[n]))
        elif sv.size is not None and entries is None and width == sv.size * sv.ty.width:
            out.append(Probe(sv.name, where, lambda c, n=sv.name, w=sv.ty.width: pack(c.shown[n].snapshot(), w)))
        elif sv.size is not None and entries == sv.size and width == sv.ty.width:
            out += [Probe(f"{sv.name}[{i}]", f"{where}[{i}]", lambda c, n=sv.name, i=i: c.shown[n].get(i))
                    for i in range(sv.size)]
    return out


def placed_declaration(case: SimCase, at: Placed) -> tuple[int, int | None] | None:
    return declaration(module_text(case, at.module), at.leaf)


def pack(values: list[int], width: int) -> int:
    return sum(v << (i * width) for i, v in enumerate(values))


def memory_inits(case: SimCase) -> list[str]:
    """Testbench statements that zero every memory (the evaluator's initial contents)."""
    out = []
    for sv in case.prep.system.state:
        if sv.kind != "mem" or sv.ghost:
            continue
        at = case.names.get(sv.name)
        decl = placed_declaration(case, at) if at is not None else None
        if decl is None:  # the testbench cannot zero it: this design cannot be compared
            case.crash = f"memory `{sv.name}` not found in the lowered Verilog (the testbench zeroes it by name)"
            return []
        where = f"u{case.key}.{at.path}"
        if decl[1] is None:
            out.append(f"{where} = 0;")
        else:
            out.append(f"for (k = 0; k < {decl[1]}; k = k + 1) {where}[k] = 0;")
    return out


def reset_less_inits(case: SimCase) -> list[str]:
    """Testbench statements that set every register without a reset value to the value the
    evaluator starts from (Icarus would start it at x)."""
    out = []
    for sv in reset_less(case.prep.system):
        if sv.ghost:
            continue
        value = case.prep.initial.get(sv.name, 0)
        out.append(f"u{case.key}.{case.names[sv.name].path} = {sv.ty.width}'h{value:x};")
    if any(mode == "level" for _, _, mode, _, _ in case.clocks):  # (the edge at time 0 may have written them)
        out += [f"u{case.key}.{case.names[sv.name].path} = {sv.ty.width}'h{sv.powerup:x};"
                for sv in case.prep.system.state if sv.powerup is not None and not sv.ghost and sv.size is None
                and sv.name in case.names]
    return out


def gated_clock(case: SimCase) -> bool:
    """Whether the case's clock is held low in step 0: a clocked design without a reset port."""
    d = case.prep.system.design
    return d.clock is not None and d.reset is None


INPUT_KINDS = ("in",) + RESET_KINDS


def input_ports(case: SimCase) -> list[tuple[int, str, int]]:
    return [(j, name, w) for j, (name, kind, w) in enumerate(case.ports) if kind in INPUT_KINDS]


def mid_cycle_reset(case: SimCase) -> int | None:
    """The port index of an asynchronous reset that this case changes between the edges (at
    time 2 of a step rather than with the other inputs), or None."""
    if case.key % 2 == 0:
        return None
    return next((j for j, (_, kind, _) in enumerate(case.ports) if kind in ("areset", "areset_n")), None)


def clock_bits(case: SimCase) -> list[tuple[int, str, int]]:
    """The ticks and toggles the stimulus carries, after the inputs: (port, input, 1)."""
    return [(j, stim, 1) for j, _, _, _, stim in case.clocks if stim is not None]


def stim_lines(case: SimCase) -> list[str]:
    """One hex word per step: the inputs concatenated in port order, first port most significant,
    then the clocks' ticks and toggles."""
    ins = input_ports(case) + clock_bits(case)
    total = sum(w for _, _, w in ins)
    lines = []
    for row in [case.prelim] + case.prep.inputs:
        word = 0
        for _, name, w in ins:
            word = (word << w) | (row[name] & mask(w))
        lines.append(f"{word:0{max(1, (total + 3) // 4)}x}")
    return lines


def tb_declarations(case: SimCase, n_steps: int) -> list[str]:
    k = case.key
    total = max(1, sum(w for _, _, w in input_ports(case) + clock_bits(case)))
    lines = [f"  // design {k}" + (f" (seed {case.seed})" if case.seed is not None else ""),
             f"  reg [{total - 1}:0] s{k} [0:{n_steps - 1}];"]
    conns = []
    for j, (name, kind, w) in enumerate(case.ports):
        own = next((c for c in case.clocks if c[0] == j), None)
        if kind == "clock" and own is not None:  # driven by its own register (`clock_edges`)
            idle = int(own[2] == "tick" and own[3] == "falling")
            lines.append(f"  reg c{k}_{j} = 1'b{idle};")
            if own[4] is not None:
                lines.append(f"  reg t{k}_{j};")
            conns.append(f"c{k}_{j}")
            continue
        if kind == "clock":
            if gated_clock(case):
                lines.append(f"  wire ck{k} = clk && step > 0;")
            shared = f"ck{k}" if gated_clock(case) else "clk"
            # one clock at its falling edge: the shared clock inverted, its edge at time 5 too
            doms = case.prep.system.design.domains.values()
            conns.append(f"~{shared}" if doms and all(e == "falling" for _, e in doms) else shared)
            continue
        sig = f"{'i' if kind in INPUT_KINDS else 'o'}{k}_{j}"
        lines.append(f"  {'reg' if sig[0] == 'i' else 'wire'} [{w - 1}:0] {sig};")
        conns.append(sig)
    lines.append(f"  {case.module} u{k} ({', '.join(conns)});")
    return lines


def make_testbench(cases: list[SimCase], stim_paths: dict[int, str], n_steps: int) -> str:
    """One module instantiating every case, driving each from its stimulus memory."""
    decls, setup, drive, late, show, edges, restore = [], [], [], [], [], [], []
    for c in cases:
        decls += tb_declarations(c, n_steps)
        setup.append(f'    $readmemh("{stim_paths[c.key]}", s{c.key});')
        setup += [f"    {stmt}" for stmt in c.mem_inits]
        ins = [f"i{c.key}_{j}" for j, _, _ in input_ports(c)] + [f"t{c.key}_{j}" for j, _, _ in clock_bits(c)]
        now, after = clock_edges(c)
        edges += now
        restore += after
        mid = mid_cycle_reset(c)
        if mid is not None:  # the reset keeps last step's value until time 2: drive a dummy bit
            at = ins.index(f"i{c.key}_{mid}")
            decls.append(f"  reg r{c.key};")
            late.append(f"      i{c.key}_{mid} = r{c.key};")
            ins[at] = f"r{c.key}"
        if ins:
            drive.append(f"      {{{', '.join(ins)}}} = s{c.key}[step];")
        fmt = " ".join("%h" for _ in c.probes)
        args = "".join(f", {p.verilog}" for p in c.probes)
        show.append(f'        $display("D{c.key} %0d {fmt}", step - 1{args});')
    return "\n".join([
        "module tb;", "  reg clk = 1'b0;", "  integer step, k;", *decls,
        # (after time 0: a clock with a level may see an edge as its port leaves x, and the
        # values set here must be what the run starts from)
        "  initial begin", "    #1;", *setup,
        f"    for (step = 0; step < {n_steps}; step = step + 1) begin", *drive,
        "      #2;", *late, "      #1;", "      if (step > 0) begin", *show, "      end",
        "      #2 clk = 1'b1;", *edges, "      #2;", *restore,
        # (a block that names no reset, in a module with several, writes in the preliminary
        # reset too: what it wrote is set back to the evaluator's start)
        *(["      if (step == 0) begin", *[f"  {x}" for x in setup if not x.strip().startswith("$readmemh")],
            "      end"] if any(len(c.prep.system.design.resets) > 1 for c in cases) else []),
        "      #3 clk = 1'b0;", "    end",
        "    $finish;", "  end", "endmodule", ""])


def clock_edges(case: SimCase) -> tuple[list[str], list[str]]:
    """Testbench statements for the clocks of a design with several clocks or edges: at the
    shared clock's rising edge (time 5 of a step) each one's edge, if its tick says so (a ticked
    clock pulses: high then low again at time 7, or low then high for a falling one), or its
    toggle (a clock with a level). In the preliminary reset (step 0) every clock has every edge:
    a clock with a level toggles back at time 7. A design without a reset port has none in step 0."""
    now, after = [], []
    k = case.key
    gate = "step > 0 && " if gated_clock(case) else ""
    for j, _, mode, edge, stim in case.clocks:
        c, t = f"c{k}_{j}", (f"t{k}_{j}" if stim is not None else "1'b1")
        if mode == "tick":
            active, idle = ("1'b0", "1'b1") if edge == "falling" else ("1'b1", "1'b0")
            now.append(f"      if ({gate}{t}) {c} = {active};")
            after.append(f"      {c} = {idle};")
        else:
            now.append(f"      if ({gate}{t}) {c} = !{c};")
            if not gated_clock(case):
                after.append(f"      if (step == 0) {c} = !{c};")
    return now, after


@dataclass
class SimResult:
    rows: dict  # (key, cycle) -> list of ints (None for x/z)
    problems: dict  # key -> list of messages (compile errors, warnings)
    compile_s: float = 0.0
    run_s: float = 0.0


GENERATION = os.environ.get("SYSR_DIFF_GENERATION", "-g2012")


def run_tool(args: list[str], cwd: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def compile_alone(case: SimCase, workdir: str) -> str | None:
    """Why one design's Verilog does not compile cleanly on its own, or None."""
    path = os.path.join(workdir, f"alone{case.key}.v")
    Path(path).write_text(case.verilog)
    r = run_tool(["iverilog", GENERATION, "-o", os.devnull, path], workdir)
    if r.returncode != 0 or r.stderr.strip():
        return f"iverilog on the lowered module: {r.stderr.strip() or 'exit ' + str(r.returncode)}"
    return None


def simulate(cases: list[SimCase], n_cycles: int) -> SimResult:
    """Compile and run one testbench for all cases; designs that do not compile are set aside."""
    result = SimResult({}, {})
    for c in cases:
        if c.crash:
            result.problems[c.key] = [c.crash]
    with tempfile.TemporaryDirectory(prefix="sysr-diff-") as wd:
        live = [c for c in cases if not c.crash]
        while live:
            ok = run_batch(live, n_cycles, wd, result)
            if ok:
                return result
            bad = {c.key: compile_alone(c, wd) for c in live}
            culprits = {k: m for k, m in bad.items() if m}
            if not culprits:  # the batch fails but each design alone is fine: a harness bug
                raise AssertionError(f"testbench does not compile:\n{result.problems.get(-1)}")
            result.problems.pop(-1, None)
            for k, m in culprits.items():
                result.problems.setdefault(k, []).append(m)
            live = [c for c in live if c.key not in culprits]
    return result


def run_batch(cases: list[SimCase], n_cycles: int, wd: str, result: SimResult) -> bool:
    stim_paths = {}
    for c in cases:
        stim_paths[c.key] = os.path.join(wd, f"stim{c.key}.hex")
        Path(stim_paths[c.key]).write_text("\n".join(stim_lines(c)) + "\n")
    files = [os.path.join(wd, "tb.v")]
    Path(files[0]).write_text(make_testbench(cases, stim_paths, n_cycles + 1))
    for c in cases:
        files.append(os.path.join(wd, f"d{c.key}.v"))
        Path(files[-1]).write_text(c.verilog)
    t0 = time.perf_counter()
    r = run_tool(["iverilog", GENERATION, "-s", "tb", "-o", os.path.join(wd, "sim.vvp"), *files], wd)
    result.compile_s += time.perf_counter() - t0
    if r.returncode != 0:
        result.problems[-1] = [r.stderr]
        return False
    for line in r.stderr.splitlines():  # warnings: attribute them to a design when possible
        m = re.search(r"/d(\d+)\.v:|\bof \w+?_d(\d+)\b", line)
        key = int(m.group(1) or m.group(2)) if m else -1
        result.problems.setdefault(key, []).append(f"iverilog warning: {line}")
    t1 = time.perf_counter()
    r = run_tool(["vvp", "-n", os.path.join(wd, "sim.vvp")], wd)
    result.run_s += time.perf_counter() - t1
    for line in r.stdout.splitlines():
        if line.startswith("D"):
            words = line.split()
            result.rows[(int(words[0][1:]), int(words[1]))] = [hex_value(w) for w in words[2:]]
    return True


def hex_value(word: str) -> int | None:
    try:
        return int(word, 16)
    except ValueError:  # x or z digits
        return None


def compare(case: SimCase, result: SimResult) -> list[str]:
    """Every probe in every cycle: Icarus vs the evaluator."""
    out = list(result.problems.get(case.key, []))
    if out and (case.key, 0) not in result.rows:  # it did not compile: nothing to compare
        return out
    for t, cyc in enumerate(case.prep.cycles):
        row = result.rows.get((case.key, t))
        if row is None or len(row) != len(case.probes):
            out.append(f"cycle {t}: no output from the simulation")
            break
        for p, got in zip(case.probes, row):
            want = p.expected(cyc)
            if got != want:
                shown = "x/z" if got is None else hex(got)
                out.append(f"cycle {t}: {p.label}: Icarus {shown}, evaluator {hex(want)}")
        if len(out) >= 8:
            break
    return out


def sim_report(case: SimCase, problems: list[str]) -> str:
    head = f"design {case.key}" + (f" (design_from_seed({case.seed}))" if case.seed is not None else "")
    return "\n".join([f"==== {head}", report(case.prep, problems), "lowered Verilog:", case.verilog])


def sim_cases(seeds: list[int], n_cycles: int, start_key: int = 0, **gen_opts) -> list[SimCase]:
    cases = []
    for i, seed in enumerate(seeds):
        prep = prepare(design_from_seed(seed, **gen_opts), seed, n_cycles)
        cases.append(lower_case(prep, start_key + i, seed))
    return cases


def check_cases(cases: list[SimCase], n_cycles: int, figures: Figures) -> None:
    result = simulate(cases, n_cycles)
    figures.compile_s += result.compile_s
    figures.run_s += result.run_s
    figures.failures += result.problems.get(-1, [])
    for c in cases:
        figures.designs += 1
        figures.cycles += len(c.prep.cycles)
        problems = compare(c, result)
        if problems:
            figures.failures.append(sim_report(c, problems))


def run_differential(n_designs: int, batch: int, n_cycles: int, first_seed: int, progress=None,
                     **gen_opts) -> Figures:
    """Designs from seeds first_seed.. : generate, lower, simulate in batches and compare.
    Icarus runs on one batch while Python prepares the next; `progress(figures)` after each."""
    from concurrent.futures import ThreadPoolExecutor
    figures = Figures()
    pending = None
    with ThreadPoolExecutor(max_workers=1) as pool:
        for start in range(0, n_designs, batch):
            t0 = time.perf_counter()
            seeds = list(range(first_seed + start, first_seed + min(start + batch, n_designs)))
            cases = sim_cases(seeds, n_cycles, start, **gen_opts)
            figures.python_s += time.perf_counter() - t0
            if pending is not None:
                pending.result()
                progress and progress(figures)
            pending = pool.submit(check_cases, cases, n_cycles, figures)
        if pending is not None:
            pending.result()
            progress and progress(figures)
    return figures


needs_icarus = pytest.mark.skipif(not HAVE_ICARUS, reason="iverilog/vvp not installed")


def check_one(source: str, n_cycles: int = 12, corrupt=None, seed: int = 5) -> tuple[SimCase, list[str]]:
    """One design through prepare, lower, Icarus and compare: the case and its disagreements."""
    prep = prepare(Generated(source, "m"), seed, n_cycles)
    case = lower_case(prep, 0, None, corrupt=corrupt)
    return case, compare(case, simulate([case], n_cycles))


def harness_problems(source: str, n_cycles: int = 12, corrupt=None, seed: int = 5) -> list[str]:
    return check_one(source, n_cycles, corrupt, seed)[1]
