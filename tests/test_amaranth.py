"""`sysr.amaranth`: sysr designs as Amaranth components, simulated and synthesized by Amaranth.

- The FIFO task's sysr reference, driven by an Amaranth testbench, agrees cycle for cycle with
  a Python model written from the task's prompt (tasks/fifo/task.json), in both reset modes.
- Task references go through Amaranth's flow (RTLIL, then Yosys), keep the task's ports, and
  the synthesized netlist passes the task's hidden testbench under Icarus; the RAM task's
  memory becomes an iCE40 block RAM.
- The signature, the reset mapping (the domain's reset, active-low resets, a user domain with
  its own reset, `reset="port"`), names Amaranth cannot take, refusal of rejected designs with
  their diagnostics, and a clear error for constructs the back end does not know.
- Every operator at its edge values (wrap-around, large shifts, signed comparison, casts)
  against `sysr.types` (the random designs of tests/test_differential.py cover the rest).
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from amaranth.back import rtlil
from amaranth.hdl import ClockDomain, Fragment, Module, ResetInserter, Signal, signed, unsigned
from amaranth.lib.wiring import In, Out
from amaranth.sim import Simulator

import sysr.amaranth as sa
from bench.tasks import ROOT, load_tasks
from bench.tools import find_tool
from bench.verilog import compare_ports, read_ports, simulate
from sysr import elab as E
from sysr.pipeline import analyze
from sysr.types import BOOL, mask, op_binary, op_cast, op_unary, sint, uint

FIFO = ROOT / "tasks" / "fifo" / "ref.sysr"


def elaborated(component):
    """A component a test only looks at, elaborated once (Amaranth warns of one that never is)."""
    Fragment.get(component, None)
    return component


def run(top, testbench, clock: bool = True) -> None:
    sim = Simulator(top)
    if clock:
        sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()


def with_domain(component) -> tuple[Module, ClockDomain]:
    m = Module()
    m.domains.sync = cd = ClockDomain()
    m.submodules.dut = component
    return m, cd


# ---- the FIFO task against a Python model of its prompt --------------------------------------

class FifoModel:
    """The FIFO of tasks/fifo/task.json: 8 entries of bytes, first-word fall-through, outputs
    from the state only, a synchronous active-high reset that empties it."""

    DEPTH = 8

    def __init__(self) -> None:
        self.q: list[int] = []

    def outputs(self) -> dict[str, int]:
        out = {"count": len(self.q), "empty": int(not self.q), "full": int(len(self.q) == self.DEPTH)}
        if self.q:  # dout is unspecified while the queue is empty
            out["dout"] = self.q[0]
        return out

    def edge(self, rst: int, push: int, pop: int, din: int) -> None:
        if rst:
            self.q = []
            return
        if pop:
            self.q.pop(0)
        if push:
            self.q.append(din)


def fifo_stimulus(rng: random.Random, model_q_len: int, t: int) -> dict[str, int]:
    """Inputs that meet the task's requirements: no push when full, no pop when empty; the reset
    held for the first two edges and pulsed now and then."""
    rst = int(t < 2 or rng.random() < 0.02)
    push = int(model_q_len < FifoModel.DEPTH and rng.random() < 0.55)
    pop = int(model_q_len > 0 and rng.random() < 0.45)
    return {"rst": rst, "push": push, "pop": pop, "din": rng.getrandbits(8)}


@pytest.mark.parametrize("reset", ["domain", "port"])
def test_fifo_reference_agrees_with_a_model_of_its_prompt(reset):
    fifo = sa.load(FIFO, reset=reset)  # checked and proven first
    top, cd = with_domain(fifo)
    rng = random.Random(19)
    model = FifoModel()
    cycles = 1000
    seen = {"full": 0, "both": 0, "resets": 0}

    async def testbench(ctx):
        for t in range(cycles):
            ins = fifo_stimulus(rng, len(model.q), t)
            ctx.set(cd.rst if reset == "domain" else fifo.rst, ins["rst"])
            for name in ("push", "pop", "din"):
                ctx.set(getattr(fifo, name), ins[name])
            for name, want in model.outputs().items():
                got = ctx.get(getattr(fifo, name))
                assert got == want, f"cycle {t}: {name} is {got}, the model says {want}"
            seen["full"] += model.outputs()["full"]
            seen["both"] += ins["push"] and ins["pop"] and not ins["rst"]
            seen["resets"] += ins["rst"] and len(model.q) > 0
            await ctx.tick()
            model.edge(**ins)

    run(top, testbench)
    assert all(seen.values()), f"the stimulus missed a case: {seen}"


# ---- synthesis through Amaranth's flow -----------------------------------------------------

def verilog_top(component: sa.SysrComponent):
    """An Amaranth top with the sysr design's own clock and reset ports (names, polarity),
    as an Amaranth user would wire a component to a board: the clock (and, in "domain" mode,
    the reset) drive the component's domain."""
    d = component.design
    m = Module()
    m.submodules.dut = component
    ports = []
    if d.clock is not None:
        m.domains.sync = cd = ClockDomain()
        clk = Signal(name=d.clock)
        m.d.comb += cd.clk.eq(clk)
        ports.append(clk)
        if component.reset_mode == "domain" and d.reset is not None:
            rst = Signal(name=d.reset)
            m.d.comb += cd.rst.eq(~rst if d.reset_active_low else rst)
            ports.append(rst)
    ports += [component.port(p) for p in component.port_names]
    return m, ports


def yosys(script: str, workdir: Path) -> str:
    r = subprocess.run([find_tool("yosys"), "-q", "-p", script], cwd=workdir, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:] + r.stdout[-3000:]
    return r.stdout


TASKS = {t.name: t for t in load_tasks()}
# Every task's reference, in one reset mode or the other (alternating), and the FIFO (memory)
# and the AXI-Lite slave (an active-low reset, clock and reset not named clk and rst) in both.
THROUGH_AMARANTH = sorted({(n, ("domain", "port")[k % 2]) for k, n in enumerate(sorted(TASKS))}
                          | {(n, r) for n in ("fifo", "axi-lite") for r in ("domain", "port")})


@pytest.mark.parametrize("name,reset", THROUGH_AMARANTH)
def test_task_reference_synthesized_by_amaranth_passes_its_testbench(name, reset, tmp_path):
    task = TASKS[name]
    component = sa.from_text(task.text("ref.sysr"), verify=False, reset=reset)
    top, ports = verilog_top(component)
    (tmp_path / "top.il").write_text(rtlil.convert(top, name=task.top, ports=ports))
    yosys(f"read_rtlil top.il; hierarchy -check -top {task.top}; proc; flatten; opt; memory; opt; "
          f"check -assert; write_verilog -noattr netlist.v", tmp_path)
    netlist = (tmp_path / "netlist.v").read_text()
    got, res = read_ports(netlist, task.top)
    want, _ = read_ports(task.text("iface.v"), task.top)
    assert got is not None, res.output
    assert compare_ports(sorted(got, key=lambda p: p.name), sorted(want, key=lambda p: p.name)) is None
    verdict, res = simulate(task.text("tb.v"), netlist, tmp_path / "sim")
    assert verdict == "PASS", res.output[-2000:]


def test_a_registered_memory_read_becomes_block_ram(tmp_path):
    task = TASKS["sync-ram"]
    component = sa.from_text(task.text("ref.sysr"), verify=False)
    (tmp_path / "ram.il").write_text(rtlil.convert(component, name=task.top))
    out = yosys(f"read_rtlil ram.il; synth_ice40 -top {task.top}; tee -o stat.txt stat", tmp_path)
    stat = (tmp_path / "stat.txt").read_text()
    assert "SB_RAM40_4K" in stat, stat + out


# ---- the signature and the reset mapping ---------------------------------------------------

MIXED = """enum Mode { Idle, Run, Stop }
module m(clk: clock, rst_n: reset_n, a: in s8, mode: in Mode, en: in bool,
         y: out s8, busy: out bool, cnt: out reg u4 = 3) {
  y = -a;
  busy = !rst_n || mode == Mode::Run;
  seq { if en { cnt <= cnt + 1; } }
}
"""


def test_signature_is_the_ports_and_the_clock_and_reset_are_the_domain():
    c = elaborated(sa.from_text(MIXED, verify=False))
    members = c.signature.members
    assert list(members) == ["a", "mode", "en", "y", "busy", "cnt"]
    assert members["a"] == In(signed(8)) and members["y"] == Out(signed(8))
    assert members["mode"] == In(unsigned(2)) and members["cnt"] == Out(unsigned(4))
    assert c.reset_mode == "domain" and c.domain == "sync"
    assert [v.name for v in c.enums["Mode"]] == ["Idle", "Run", "Stop"] and c.enums["Mode"].Stop.value == 2


def test_port_mode_keeps_the_reset_port_with_its_polarity():
    c = sa.from_text(MIXED, verify=False, reset="port")
    assert list(c.signature.members) == ["rst_n", "a", "mode", "en", "y", "busy", "cnt"]
    top, cd = with_domain(c)
    log = []

    async def testbench(ctx):
        ctx.set(c.rst_n, 1)
        ctx.set(c.en, 1)
        ctx.set(cd.rst, 1)  # the domain's own reset does not touch a "port" mode component
        await ctx.tick()
        log.append(ctx.get(c.cnt))
        ctx.set(cd.rst, 0)
        ctx.set(c.rst_n, 0)  # active low: this resets
        log.append(ctx.get(c.busy))
        await ctx.tick()
        log.append(ctx.get(c.cnt))

    run(top, testbench)
    assert log == [4, 1, 3]


def test_domain_mode_resets_with_the_users_domain_and_reads_an_active_low_reset_inverted():
    c = sa.from_text(MIXED, verify=False)
    top, cd = with_domain(c)
    log = []

    async def testbench(ctx):
        ctx.set(c.en, 1)
        ctx.set(c.mode, 0)
        await ctx.tick()
        await ctx.tick()
        log.append((ctx.get(c.cnt), ctx.get(c.busy)))  # counted from 3; rst_n reads as 1
        ctx.set(cd.rst, 1)
        log.append(ctx.get(c.busy))  # the domain's reset is active: rst_n reads as 0
        await ctx.tick()
        ctx.set(cd.rst, 0)
        log.append(ctx.get(c.cnt))

    run(top, testbench)
    assert log == [(5, 0), 1, 3]


def test_reset_inserter_and_domain_renamer_apply_as_to_any_component():
    c = sa.from_text(MIXED, verify=False, domain="fast")
    clear = Signal()
    m = Module()
    m.domains.fast = ClockDomain()
    m.submodules.dut = ResetInserter({"fast": clear})(c)
    log = []

    async def testbench(ctx):
        ctx.set(c.en, 1)
        await ctx.tick("fast")
        log.append(ctx.get(c.cnt))
        ctx.set(clear, 1)
        await ctx.tick("fast")
        log.append(ctx.get(c.cnt))

    sim = Simulator(m)
    sim.add_clock(1e-6, domain="fast")
    sim.add_testbench(testbench)
    sim.run()
    assert log == [4, 3]


def test_names_amaranth_cannot_take_get_a_suffix():
    c = elaborated(sa.from_text("module m(_x: in u2, class: in u2, signature: out u2, registers: out u2) {\n"
                                "  signature = _x + class;\n  registers = 0;\n}\n", verify=False))
    assert c.port_names == {"_x": "p_x", "class": "class_", "signature": "signature_",
                            "registers": "registers_"}
    assert c.port("class") is getattr(c, "class_")


def test_ghost_state_and_properties_are_not_part_of_the_component():
    fifo = elaborated(sa.load(FIFO, verify=False))
    assert set(fifo.registers) == {"wp", "rp", "n"} and set(fifo.memories) == {"mem"}
    assert fifo.memories["mem"].depth == 8


def test_a_combinational_design_needs_no_domain():
    c = sa.from_text("module m(a: in u8, b: in u8, y: out u8) { y = a * b; }", verify=False)
    log = []

    async def testbench(ctx):
        ctx.set(c.a, 200)
        ctx.set(c.b, 3)
        log.append(ctx.get(c.y))

    run(c, testbench, clock=False)
    assert log == [(200 * 3) & 0xff]


# ---- refusals and clear errors ------------------------------------------------------------

def test_a_rejected_design_is_refused_with_its_diagnostics(tmp_path):
    path = tmp_path / "bad.sysr"
    path.write_text("module m(a: in u8, y: out u16) {\n  y = a;\n}\n")
    with pytest.raises(sa.Rejected) as err:
        sa.load(path)
    assert [d.code for d in err.value.diagnostics] == ["T001"]
    assert err.value.diagnostics[0].span.line == 2
    assert f"{path}:2:" in str(err.value) and "error[T001]" in str(err.value)


def test_a_design_whose_property_fails_is_refused_unless_proofs_are_off():
    text = "module m(a: in u8, y: out u8) {\n  y = a + 1;\n  ensures y > a;\n}\n"
    with pytest.raises(sa.Rejected) as err:
        sa.from_text(text)
    assert [d.code for d in err.value.diagnostics] == ["V002"]
    assert elaborated(sa.from_text(text, verify=False)).port_names == {"a": "a", "y": "y"}


def test_an_unknown_operator_is_a_clear_error_not_a_circuit():
    from sysr.amaranth.exprs import ValueBuilder
    build = ValueBuilder(lambda v: Signal(8, name=v.name), lambda a: None, " (module `m`)")
    node = E.Bin("/", E.Var("a", uint(8)), E.Var("b", uint(8)), uint(8))
    with pytest.raises(sa.Unsupported, match=r"cannot build the operator `/` \(module `m`\)"):
        build.value(node)


def test_an_unknown_kind_of_state_is_a_clear_error(monkeypatch):
    real = E.elaborate

    def with_async_state(design):
        system = real(design)
        system.state[0].kind = "async_reg"
        return system

    monkeypatch.setattr(E, "elaborate", with_async_state)
    with pytest.raises(sa.Unsupported, match="cannot build state of kind `async_reg` \\(`cnt`\\)"):
        sa.from_text(MIXED, verify=False)


def test_a_design_with_holes_is_refused():
    stub = TASKS["fifo"].text("stub.sysr")
    with pytest.raises(sa.Rejected) as err:
        sa.from_text(stub, verify=False)
    assert {d.code for d in err.value.diagnostics} == {"H001"}
    with pytest.raises(ValueError, match=r"the design has a hole \(`\?\w+` at line \d+\)"):
        sa.from_design(analyze(stub).design)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="reset must be one of 'domain', 'port', not 'async'"):
        sa.from_text(MIXED, verify=False, reset="async")


# ---- every operator at its edges, against sysr.types ----------------------------------------

TYPES = [uint(1), uint(8), sint(8), uint(13), sint(13), uint(64), sint(64), uint(100)]
SHIFTS = [uint(3), uint(4), uint(7), uint(64)]


def edge_values(ty, rng, n=10) -> list[int]:
    w = ty.width
    edges = [0, 1, mask(w), 1 << (w - 1), mask(w) >> 1, (1 << (w - 1)) + 1]
    return [v & mask(w) for v in edges] + [rng.getrandbits(w) for _ in range(n - len(edges))]


def operator_design() -> tuple[str, list]:
    """One combinational design with an output per (operator, type) and its reference function."""
    ports, body, checks = [], [], []
    for k, ty in enumerate(TYPES):
        ports += [f"a{k}: in {ty}", f"b{k}: in {ty}"]
        for j, op in enumerate(["+", "-", "*", "&", "|", "^"]):
            ports.append(f"o{k}_{j}: out {ty}")
            body.append(f"o{k}_{j} = a{k} {op} b{k};")
            checks.append((f"o{k}_{j}", lambda v, k=k, op=op, ty=ty: op_binary(op, v[f"a{k}"], v[f"b{k}"], ty)))
        for j, op in enumerate(["==", "!=", "<", "<=", ">", ">="]):
            ports.append(f"c{k}_{j}: out bool")
            body.append(f"c{k}_{j} = a{k} {op} b{k};")
            checks.append((f"c{k}_{j}", lambda v, k=k, op=op, ty=ty: op_binary(op, v[f"a{k}"], v[f"b{k}"], ty)))
        ports += [f"n{k}: out {ty}", f"i{k}: out {ty}"]
        body += [f"n{k} = -a{k};", f"i{k} = ~a{k};"]
        checks += [(f"n{k}", lambda v, k=k, ty=ty: op_unary("-", v[f"a{k}"], ty)),
                   (f"i{k}", lambda v, k=k, ty=ty: op_unary("~", v[f"a{k}"], ty))]
        for j, sh in enumerate(SHIFTS):
            ports += [f"sl{k}_{j}: out {ty}", f"sr{k}_{j}: out {ty}"]
            body += [f"sl{k}_{j} = a{k} << s{j};", f"sr{k}_{j} = a{k} >> s{j};"]
            checks += [(f"sl{k}_{j}", lambda v, k=k, j=j, ty=ty, sh=sh: op_binary("<<", v[f"a{k}"], v[f"s{j}"], ty, sh)),
                       (f"sr{k}_{j}", lambda v, k=k, j=j, ty=ty, sh=sh: op_binary(">>", v[f"a{k}"], v[f"s{j}"], ty, sh))]
        for j, dst in enumerate(TYPES):
            ports.append(f"x{k}_{j}: out {dst}")
            body.append(f"x{k}_{j} = a{k} as {'u1' if dst == BOOL else dst};")
            checks.append((f"x{k}_{j}", lambda v, k=k, ty=ty, dst=dst: op_cast(v[f"a{k}"], ty, dst)))
    ports += [f"s{j}: in {sh}" for j, sh in enumerate(SHIFTS)]
    return "module ops(" + ", ".join(ports) + ") {\n  " + "\n  ".join(body) + "\n}\n", checks


def test_every_operator_matches_sysr_types_at_its_edge_values():
    text, checks = operator_design()
    c = sa.from_text(text, verify=False)
    rng = random.Random(7)
    d = c.design
    inputs = [(n, d.signals[n].ty) for n in c.port_names if d.signals[n].kind == "in"]
    vectors = []
    for t in range(12):
        row = {}
        for name, ty in inputs:
            vals = edge_values(ty, rng, 12) if not name.startswith("s") else \
                [0, 1, mask(ty.width), 7, 8, 12, 13, 63, 64, 99, 100, rng.getrandbits(ty.width)]
            row[name] = vals[t] & mask(ty.width)
        vectors.append(row)
    wrong = []

    async def testbench(ctx):
        for row in vectors:
            for name, v in row.items():
                ctx.set(c.port(name), v)
            for name, ref in checks:
                sig = c.port(name)
                got = ctx.get(sig) & mask(len(sig))
                if got != ref(row):
                    wrong.append(f"{name} with {row}: Amaranth {got:#x}, sysr {ref(row):#x}")

    run(c, testbench, clock=False)
    assert not wrong, "\n".join(wrong[:10])


def test_the_readme_example_runs():
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "amaranth_fifo.py")], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.startswith("popped: [0, 1, 2, 3, 4, 5")
