"""How strong each hidden testbench is: Yosys `mutate` mutants of the Verilog reference, simulated.

For each task, `mutate -list N -seed S` (after `prep`, and `setundef -zero` so that the netlist
holds no x constants for the simulator and the equivalence check to read differently) picks N
mutations of the reference's
netlist by Yosys's even sampling (inverted, constant and conditionally inverted bits of cell
ports); one Yosys run applies each to a copy of the design and writes it back as Verilog
(`write_verilog -noattr`). Each mutant goes through the scorer (`Scorer.score`, so the
testbench judges it exactly as it judges a candidate): one that does not pass is killed.

A survivor is compared with the reference by a bounded equivalence check from reset: a miter
of the reference's netlist and the mutant's, both started in the same state (every register and
memory word 0) and reset in the first cycle, every output compared in every cycle, checked by
`yosys-smtbmc` with z3 for `DEPTH` cycles. The task's requirements on the inputs, where the sysr
reference states them (`requires`), are assumed: the reference is lowered with `sysr lower
--formal` and instantiated beside the two as a monitor, fed the same inputs, with its asserts
removed and its assumptions kept. A survivor that never differs is `equivalent` and is not
counted against the testbench; one that differs is a testbench gap unless the difference is in
something the task leaves unspecified (an output the testbench must not check then), which the
equivalence check cannot know: such survivors are reviewed by hand (see README).

The score of a testbench: killed / (mutants - equivalent).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field

from sysr.front import syntax as S
from sysr.front.parse import parse

from ..judge.run import run_bounded
from ..judge.score import Limits, Scorer
from ..judge.tasks import Task
from ..checker.smtbmc import _smtbmc as smtbmc  # the one yosys-smtbmc runner (z3 on its PATH, status parsed)
from ..judge.tools import ToolMissing, find_tool
from ..verilog.ports import PortInfo
from ..judge.probe import read_ports

PER_TASK = 40  # mutants a task (the measurement used 40)
SEED = 1
DEPTH = 25  # cycles from reset the equivalence check covers
EQUIV_TIMEOUT_S = 300.0


class Survivor(BaseModel):
    mutation: str  # the `mutate -mode ...` command
    src: str  # where in ref.v the mutated cell comes from
    verdict: str  # equivalent | differs | unknown
    reason: str
    cycle: int | None = None  # differs: the first cycle an output differs
    outputs: list[str] = Field(default_factory=list)  # differs: the outputs that differ then


class TaskMutants(BaseModel):
    task: str
    mutants: int
    killed: int
    equivalent: int
    survivors: list[Survivor]
    constrained: bool  # the requirements were assumed in the equivalence check
    score: float | None = None  # killed / (mutants - equivalent)
    killed_by: dict[str, int] = Field(default_factory=dict)  # result -> mutants
    note: str = ""


class MutantsReport(BaseModel):
    per_task: int
    seed: int
    depth: int
    tasks: list[TaskMutants]


class MutantsError(Exception):
    """Yosys could not list or apply the mutations of a task's reference."""


@dataclass(frozen=True)
class Mutation:
    command: str  # `mutate -mode ...`
    src: str
    verilog: str  # the mutated netlist


def _yosys(script: str, work: Path, timeout_s: float):
    (work / "script.ys").write_text(script)
    return run_bounded([find_tool("yosys"), "-q", "-s", "script.ys"], work, timeout_s)


def mutations(task: Task, n: int, seed: int, work: Path, timeout_s: float = 600.0) -> tuple[str, list[Mutation]]:
    """The unmutated netlist and n mutated ones (Yosys's sample for the seed)."""
    (work / "ref.v").write_text(task.text("ref.v"))
    # `setundef -zero`: the don't-care values `proc` leaves (`we ? waddr : 8'hxx`) become 0, so
    # that a mutant means the same in Icarus (which drops a write to an x address) and in the
    # equivalence check (which has no x)
    prep = f"read_verilog ref.v\nprep -top {task.top}\nsetundef -zero\n"
    res = _yosys(prep + f"mutate -list {n} -seed {seed} -o list.txt\n", work, timeout_s)
    if res.returncode != 0 or not (work / "list.txt").is_file():
        raise MutantsError(f"{task.name}: `mutate -list` failed: {res.output[-500:]}")
    commands = [l.strip() for l in (work / "list.txt").read_text().splitlines() if l.strip().startswith("mutate ")]
    script = [prep, "design -save base", "write_verilog -noattr m0.v"]
    for i, c in enumerate(commands, 1):
        script += ["design -load base", c, "opt_clean", f"write_verilog -noattr m{i}.v"]
    res = _yosys("\n".join(script) + "\n", work, timeout_s)
    if res.returncode != 0:
        raise MutantsError(f"{task.name}: applying the mutations failed: {res.output[-500:]}")
    out = [Mutation(c, " ".join(re.findall(r"-src (\S+)", c)), (work / f"m{i}.v").read_text())
           for i, c in enumerate(commands, 1)]
    return (work / "m0.v").read_text(), out


# ---- the equivalence check --------------------------------------------------------------------

@dataclass(frozen=True)
class Clocking:
    clock: str | None
    reset: str | None
    active_low: bool


def clocking(task: Task) -> Clocking:
    """The clock and reset, from the sysr reference's ports."""
    tree, _ = parse(task.text("ref.sysr"))
    module = next(it for it in tree.items if isinstance(it, S.Module)) if tree else None
    ports = module.ports if module else ()
    clock = next((p.name for p in ports if p.kind == "clock"), None)
    reset = next((p for p in ports if p.kind not in ("in", "out", "out_reg", "clock")), None)
    return Clocking(clock, reset.name if reset else None, bool(reset and reset.kind.endswith("_n")))


def _rename(verilog: str, top: str, name: str) -> str:
    return re.sub(rf"^(\s*module\s+){re.escape(top)}\b", rf"\g<1>{name}", verilog, count=1, flags=re.M)


def miter_source(ports: list[PortInfo], clk: Clocking, monitor: bool) -> str:
    """The top module: gold and gate on the same inputs, reset in the first cycle, outputs asserted equal."""
    def width(p: PortInfo) -> str:
        return f"[{p.width - 1}:0] " if p.width > 1 else ""

    ins = [p for p in ports if p.direction == "input"]
    outs = [p for p in ports if p.direction == "output"]
    lines = ["module miter(" + ", ".join(f"input {width(p)}{p.name}" for p in ins) + ");"]
    conn = {p.name: p.name for p in ins}
    if clk.clock and clk.reset:
        active = "1'b0" if clk.active_low else "1'b1"
        lines += ["  reg first = 1'b1;  // the first cycle: reset, as the testbench starts",
                  f"  always @(posedge {clk.clock}) first <= 1'b0;",
                  f"  wire reset_in = first ? {active} : {clk.reset};"]
        conn[clk.reset] = "reset_in"
    for p in outs:
        lines.append(f"  wire {width(p)}g_{p.name}, m_{p.name};")

    def inst(module: str, name: str, prefix: str | None) -> str:
        pins = [f".{p.name}({conn[p.name]})" for p in ins]
        pins += [f".{p.name}({prefix + p.name if prefix else ''})" for p in outs]
        return f"  {module} {name}(" + ", ".join(pins) + ");"

    lines += [inst("gold", "g", "g_"), inst("gate", "m", "m_")]
    if monitor:
        lines.append(inst("requirements", "r", None))
    lines.append("  always @* begin")
    lines += [f"    same_{p.name}: assert (g_{p.name} == m_{p.name});" for p in outs]
    lines += ["  end", "endmodule", ""]
    return "\n".join(lines)


EQUIV_SCRIPT = """read_verilog -formal miter.v
read_verilog gold.v
read_verilog gate.v
{monitor}prep -top miter
{remove}flatten
memory_map
opt_clean
setundef -zero -init
async2sync
dffunmap
write_smt2 -wires miter.smt2
"""


def requirements_monitor(task: Task, work: Path, timeout_s: float = 180.0) -> str | None:
    """The sysr reference lowered with its properties (`sysr lower --formal`), renamed
    `requirements`; None when the lowering cannot do that."""
    import sys

    (work / "ref.sysr").write_text(task.text("ref.sysr"))
    res = run_bounded([sys.executable, "-P", "-m", "sysr.cli", "lower", "--formal", "ref.sysr", "-o", "mon.v"],
                      work, timeout_s)
    if res.returncode != 0 or not (work / "mon.v").is_file():
        return None
    return _rename((work / "mon.v").read_text(), task.top, "requirements")


def equivalent(task: Task, gold: str, gate: str, ports: list[PortInfo], monitor: str | None,
               depth: int = DEPTH, timeout_s: float = EQUIV_TIMEOUT_S) -> tuple[str, str, int | None, list[str]]:
    """(equivalent | differs | unknown, reason, cycle, outputs) for the mutant `gate`."""
    clk = clocking(task)
    with tempfile.TemporaryDirectory(prefix=f"bench-equiv-{task.name}-") as d:
        work = Path(d)
        (work / "gold.v").write_text(_rename(gold, task.top, "gold"))
        (work / "gate.v").write_text(_rename(gate, task.top, "gate"))
        (work / "miter.v").write_text(miter_source(ports, clk, monitor is not None))
        if monitor is not None:
            (work / "mon.v").write_text(monitor)
        script = EQUIV_SCRIPT.format(monitor="read_verilog -formal mon.v\n" if monitor else "",
                                     remove="chformal -assert -cover -remove requirements\n" if monitor else "")
        res = _yosys(script, work, timeout_s)
        if res.returncode != 0:
            return "unknown", f"the miter could not be built: {res.output.strip()[-300:]}", None, []
        steps = depth if clk.clock else 1
        try:
            r = smtbmc(["--presat", "-t", str(steps)], "miter.smt2", work, timeout_s)
        except ToolMissing as e:
            return "unknown", str(e), None, []
    if r.status == "timeout":
        return "unknown", f"the equivalence check did not finish in {timeout_s:g} s", None, []
    if r.status == "error":
        return "unknown", f"yosys-smtbmc gave no status: {r.log.strip()[-300:]}", None, []
    under = "under the task's requirements" if monitor else "with no requirements on the inputs"
    if r.status == "passed":
        what = f"{steps} cycles from reset" if clk.clock else "every input"
        return "equivalent", f"equal to the reference in every output for {what}, {under}", None, []
    if r.status == "preunsat":
        return "unknown", "the requirements cannot hold together in the miter", None, []
    outs = sorted({f.removeprefix("same_") for f in r.failed})
    when = f"in cycle {r.step} from reset" if clk.clock else "for some input"
    return "differs", f"differs from the reference {when} ({', '.join(outs)}), {under}", r.step, outs


# ---- a task ------------------------------------------------------------------------------------

def measure_task(task: Task, n: int = PER_TASK, seed: int = SEED, depth: int = DEPTH,
                 scorer: Scorer | None = None, jobs: int = 1, progress=None) -> TaskMutants:
    from concurrent.futures import ThreadPoolExecutor

    scorer = scorer or Scorer(Limits())
    with tempfile.TemporaryDirectory(prefix=f"bench-mutants-{task.name}-") as d:
        work = Path(d)
        original, muts = mutations(task, n, seed, work)
        monitor = requirements_monitor(task, work)
    ports, _ = read_ports(task.text("iface.v"), task.top)
    base = scorer.score(task, "verilog", original)
    if base.result != "PASS":
        raise MutantsError(f"{task.name}: the reference's own netlist does not pass its testbench "
                           f"({base.result}: {base.detail[:200]}); its mutants would say nothing")
    results = {}

    def one(m: Mutation):
        r = scorer.score(task, "verilog", m.verilog)
        if r.result == "PASS":
            verdict = equivalent(task, original, m.verilog, ports or [], monitor, depth)
        else:
            verdict = None
        results[m.command] = (r.result, verdict)
        if progress:
            progress(f"{task.name}: {m.command.split(' -src')[0]}: "
                     f"{'killed (' + r.result + ')' if verdict is None else 'survived, ' + verdict[0]}")

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, muts))
    killed_by: dict[str, int] = {}
    survivors = []
    for m in muts:
        result, verdict = results[m.command]
        if verdict is None:
            killed_by[result] = killed_by.get(result, 0) + 1
            continue
        kind, reason, cycle, outs = verdict
        survivors.append(Survivor(mutation=m.command, src=m.src, verdict=kind, reason=reason, cycle=cycle, outputs=outs))
    killed = sum(killed_by.values())
    equiv = sum(s.verdict == "equivalent" for s in survivors)
    score = round(killed / (len(muts) - equiv), 4) if len(muts) > equiv else None
    note = "" if monitor else "the requirements were not assumed: `sysr lower --formal` could not lower ref.sysr"
    return TaskMutants(task=task.name, mutants=len(muts), killed=killed, equivalent=equiv, survivors=survivors,
                       constrained=monitor is not None, score=score, killed_by=dict(sorted(killed_by.items())),
                       note=note)
