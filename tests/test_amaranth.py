"""`sysr.amaranth`: sysr designs as Amaranth components, simulated and synthesized by Amaranth.

- The FIFO task's sysr reference, driven by an Amaranth testbench, agrees cycle for cycle with
  a Python model written from the task's prompt (tasks/fifo/task.json), in both reset modes.
- Task references go through Amaranth's flow (RTLIL, then Yosys), keep the task's ports, and
  the synthesized netlist passes the task's hidden testbench under Icarus; the RAM task's
  memory becomes an iCE40 block RAM.
- The signature, the reset mapping (the domain's reset, active-low resets, a user domain with
  its own reset, `reset="port"`), names Amaranth cannot take, refusal of rejected designs with
  their diagnostics, and a clear error for constructs the back end does not know.
- The README's example runs. (Every operator and `/`, `%` at their edge values:
  tests/test_amaranth_operators.py; the random designs: tests/test_differential_amaranth.py.)
- Asynchronous resets of either polarity in both reset mappings, simulated against the
  evaluator: a counter that reads its reset value in the cycle the reset becomes active, a
  memory that is not written and a register array that reads as reset; a synchronously reset
  domain shows why "domain" mode wants `async_reset=True`; and what Yosys makes of it.
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
from bench.judge.tasks import ROOT, load_tasks
from bench.judge.tools import find_tool
from bench.verilog.ports import compare_ports
from bench.judge.probe import read_ports, simulate
from sysr import elab as E
from sysr.pipeline import analyze
from sysr.types import uint

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
    as an Amaranth user would wire a component to a board: each clock (and, in "domain" mode,
    the reset) drives its domain (`component.domains`)."""
    d = component.design
    m = Module()
    m.submodules.dut = component
    ports = []
    rst = Signal(name=d.reset) if component.reset_mode == "domain" and d.reset is not None else None
    for clock, domain in component.domains.items():
        m.domains += (cd := ClockDomain(domain, async_reset=component.reset_async and rst is not None))
        clk = Signal(name=clock)
        m.d.comb += cd.clk.eq(clk)
        ports.append(clk)
        if rst is not None:  # one reset for every domain, as the design has
            m.d.comb += cd.rst.eq(~rst if d.reset_active_low else rst)
    ports += [rst] if rst is not None else []
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
    node = E.Bin("**", E.Var("a", uint(8)), E.Var("b", uint(8)), uint(8))  # an operator sysr may grow
    with pytest.raises(sa.Unsupported, match=r"cannot build the operator `\*\*` \(module `m`\)"):
        build.value(node)


def test_an_unknown_kind_of_state_is_a_clear_error(monkeypatch):
    real = E.elaborate

    def with_async_state(design, **opts):
        system = real(design, **opts)
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


def test_the_readme_example_runs():
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "amaranth_fifo.py")], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.startswith("popped: [0, 1, 2, 3, 4, 5")


# ---- asynchronous resets, in both mappings ---------------------------------------------------
#
# While an `areset`/`areset_n` is active every register reads as its reset value in that same
# cycle, before any clock edge, and holds it through the edges; memories keep their contents and
# are not written. "domain" mode: the domain's reset, with `async_reset=True`; "port" mode: the
# reset port, the registers read through `reset_active ? init : stored` and reset at the edge.

ASYNC_COUNTER = """module m(clk: clock, en: in bool, c: out reg u4 = 3, wrap: out bool, {rst}: {kind}) {{
  wrap = c == 15;
  seq {{ if en {{ c <= c + 1; }} }}
  ensures {active} ==> c == 3;
}}
"""
# cycle -> reset active: one cycle, held over two edges, right after a release, and one more
ASYNC_RESETS = {5, 9, 10, 11, 13, 20}


def async_counter(kind: str) -> str:
    rst = "arst_n" if kind == "areset_n" else "arst"
    return ASYNC_COUNTER.format(rst=rst, kind=kind, active="!arst_n" if kind == "areset_n" else "arst")


def run_async(component, reset: str, rows: list[dict], names: list[str], domain_async: bool = True) -> list[dict]:
    """Each cycle: the inputs (the reset last, after the previous edge), then every name in
    `names` sampled (a port, or `registers`/`visible` entries as `reg:x`/`vis:x`), then the edge."""
    d = component.design
    top = Module()
    top.domains.sync = cd = ClockDomain(async_reset=domain_async)
    top.submodules.dut = component
    out = []

    def value(name):
        kind, _, n = name.partition(":")
        return {"reg": component.registers, "vis": component.visible}[kind][n] if n else component.port(name)

    async def testbench(ctx):
        for row in rows:
            for name, v in sorted(row.items(), key=lambda item: item[0] == d.reset):
                if name == d.reset and reset == "domain":
                    ctx.set(cd.rst, int(v != d.reset_active_low))
                else:
                    ctx.set(component.port(name), v)
            out.append({n: ctx.get(value(n)) for n in names})
            await ctx.tick()

    run(top, testbench)
    return out


def evaluator_run(text: str, rows: list[dict]):
    from sysr.evaluate import Evaluator
    return Evaluator(E.elaborate(analyze(text).design)).run(rows)


@pytest.mark.parametrize("reset", ["domain", "port"])
@pytest.mark.parametrize("kind", ["areset", "areset_n"])
def test_an_asynchronous_reset_counter_agrees_with_the_evaluator(kind, reset):
    text = async_counter(kind)
    c = sa.from_text(text, reset=reset)  # proven: `arst ==> c == 3` holds in the cycle itself
    assert c.reset_async
    rst = c.design.reset
    assert (rst in c.port_names) == (reset == "port")
    rng = random.Random(5)
    rows = [{"en": int(t < 16 or rng.random() < 0.7), rst: int((t in ASYNC_RESETS) != (kind == "areset_n"))}
            for t in range(24)]
    cycles = evaluator_run(text, rows)
    got = run_async(c, reset, rows, ["c", "wrap", "vis:c", "reg:c"])
    for t, (cyc, g) in enumerate(zip(cycles, got)):
        assert (g["c"], g["vis:c"], g["wrap"]) == (cyc.shown["c"],) * 2 + (cyc.values["wrap"],), t
        # the flip-flop: in "domain" mode the domain clears it at once; in "port" mode it keeps
        # what it stored at the last edge, and the port shows the reset value through the mux
        assert g["reg:c"] == (cyc.shown["c"] if reset == "domain" else cyc.state["c"]), t
    # the reset acted before the edge: the count stored at the last edge was not the reset value
    assert {t for t in ASYNC_RESETS if cycles[t].state["c"] != 3} >= {5, 9, 13, 20}
    assert all(got[t]["c"] == 3 for t in ASYNC_RESETS)


def test_an_asynchronous_design_in_a_synchronously_reset_domain_waits_for_the_edge():
    """Why "domain" mode wants `async_reset=True`: with a synchronous domain reset the count is
    cleared only at the next edge, which is not sysr's meaning (and the test above would see it)."""
    text = async_counter("areset")
    rows = [{"en": 1, "arst": int(t == 5)} for t in range(8)]
    cycles = evaluator_run(text, rows)
    got = run_async(sa.from_text(text, verify=False), "domain", rows, ["c"], domain_async=False)
    assert cycles[5].shown["c"] == 3 and got[5]["c"] == cycles[5].state["c"] != 3


ASYNC_STORAGE = """module m(clk: clock, we: in bool, a: in u2, d: in u8, q: out u8, h: out u8, r: out reg u8 = 1,
         arst{n}: areset{n}) {{
  reg mem: u8[4];
  reg hist: u8[4] = 0x5a;
  q = mem[a];
  h = hist[a];
  seq {{ if we {{ mem[a] <= d; hist[a] <= d; }} r <= mem[a] ^ hist[a]; }}
}}
"""


@pytest.mark.parametrize("reset", ["domain", "port"])
@pytest.mark.parametrize("n", ["", "_n"])
def test_memories_are_not_written_and_register_arrays_read_as_reset_under_an_asynchronous_reset(n, reset):
    """The write enable is set before the reset in each cycle: Amaranth's simulator writes a
    memory whose write port is in an asynchronously reset domain at the reset's rising edge,
    so the back end keeps memory writes out of that reset."""
    import amaranth_sim
    from gen_designs import Generated
    from diff_prepare import Prepared, prepare
    text = ASYNC_STORAGE.format(n=n)
    rows = [{"we": 1, "a": t % 4, "d": 16 * t + 1, f"arst{n}": int((t % 5 == 3) != bool(n))} for t in range(30)]
    prep = prepare(Generated(text, "m"), 3, 30)
    prep = Prepared(prep.gen, prep.system, rows, evaluator_run(text, rows))
    case = amaranth_sim.make_case(prep, 0, reset)
    assert amaranth_sim.disagreements(case, amaranth_sim.simulate([case], 30)) == []
    reset_cycles = [t for t in range(30) if t % 5 == 3]
    cyc = prep.cycles
    assert all(cyc[t + 1].state["mem"].get(t % 4) == cyc[t].state["mem"].get(t % 4) for t in reset_cycles)
    assert all(cyc[t].values["h"] == 0x5a and cyc[t].shown["r"] == 1 for t in reset_cycles)
    assert any(cyc[t].state["hist"].get(t % 4) != 0x5a for t in reset_cycles)  # the array was not reset yet


def test_an_asynchronously_reset_design_synthesizes_to_flip_flops_with_an_asynchronous_reset(tmp_path):
    """Through RTLIL and Yosys: in "domain" mode `$adff` cells and a memory on the clock (the
    memory's reset-less write domain is the same clock); in "port" mode plain flip-flops."""
    text = ASYNC_STORAGE.format(n="_n")
    for reset in ("domain", "port"):
        top, ports = verilog_top(sa.from_text(text, verify=False, reset=reset))
        (tmp_path / f"{reset}.il").write_text(rtlil.convert(top, name="m", ports=ports))
        yosys(f"read_rtlil {reset}.il; hierarchy -top m; proc; flatten; opt; memory -nomap; opt_clean; "
              f"tee -q -o {reset}.txt stat; write_verilog -noattr {reset}.v", tmp_path)
        stat, netlist = (tmp_path / f"{reset}.txt").read_text(), (tmp_path / f"{reset}.v").read_text()
        assert "$mem_v2" in stat and ("$adff" in stat) == (reset == "domain"), stat
        assert "memw" not in " ".join(line for line in netlist.splitlines() if "always" in line), netlist
