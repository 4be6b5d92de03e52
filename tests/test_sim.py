"""`sysr sim`: random simulation within the `requires` on every example and task reference, the
seeded bugs caught with the cycle named, stimulus files, the printed trace and the VCD.

The printed runs are compared with `tests/sim/*.expected` (`SYSR_UPDATE=1` rewrites them).
`benchmarks/sim_random.py` runs the references for 10,000 cycles each.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sysr.cli import main
from sysr.sim import SimOptions, StimulusError, simulate

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).parent / "sim"
ALL_REFS = sorted(ROOT.glob("tasks/*/ref.sysr")) + sorted(ROOT.glob("tasks/*/split.sysr")) + \
    sorted((ROOT / "examples").glob("*.sysr")) + sorted((ROOT / "tests" / "designs27").glob("*.sysr"))
WITH_EXTERNS = [p for p in ALL_REFS if re.search(r"^\s*extern\s+module\b", p.read_text(), re.M)]
REFS = [p for p in ALL_REFS if p not in WITH_EXTERNS]
SEEDED = sorted((ROOT / "tests" / "seeded").glob("*.sysr")) + \
    sorted((ROOT / "tests" / "designs27" / "bugs").glob("*.sysr"))
CYCLES = 300  # (benchmarks/sim_random.py: 10,000)
# Bugs that random inputs do not reach within `SEEDED_CYCLES`: the stimulus that shows each.
SEEDED_CYCLES = 3000


def rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


@pytest.mark.parametrize("path", REFS, ids=rel)
def test_properties_hold_in_random_simulation(path: Path) -> None:
    r = simulate(path.read_text(), SimOptions(cycles=CYCLES, seed=7))
    assert not r.diagnostics
    assert r.failure is None, (r.failure.kind, r.failure.cycle, [p.text for p in r.failure.props])
    assert len(r.cycles) == CYCLES


def test_a_design_with_an_extern_module_is_not_simulated(capsys) -> None:
    """An extern module has no body: random outputs would break its contract and the properties
    that rest on it, so `sysr sim` names the module and says how to run the design instead."""
    assert [rel(p) for p in WITH_EXTERNS] == ["examples/delay_pair.sysr", "examples/echo_ram.sysr"]
    echo = WITH_EXTERNS[1]
    assert main(["sim", str(echo)]) == 1
    assert capsys.readouterr().out.strip() == (
        f"{echo}: error: not simulated: extern module spram has no body to run (a random output "
        "would not keep its contract); simulate the lowered Verilog with the module's own Verilog instead "
        "(`sysr lower`, then Icarus)")


@pytest.mark.parametrize("path", SEEDED, ids=rel)
def test_seeded_bug_fails_in_simulation_with_its_cycle(path: Path, capsys) -> None:
    assert main(["sim", str(path), "--cycles", str(SEEDED_CYCLES), "--reset-rate", "0.005"]) == 1
    out = capsys.readouterr().out
    m = re.search(r"^\S+:(\d+):\d+: error: .* fails in cycle (\d+)$", out, re.M)
    assert m, out[-2000:]
    cycle = int(m.group(2))
    assert f"`>` marks cycle {cycle}, where it fails" in out
    assert re.search(rf"^>\s+{cycle}\s", out, re.M)


CASES = [  # (name, design, arguments)
    ("skid_burst", "tests/designs27/skid.sysr", ["--stimulus", "tests/sim/skid_burst.stim"]),
    ("skid_breaks", "tests/designs27/skid.sysr", ["--stimulus", "tests/sim/skid_breaks.stim"]),
    ("skid_lost_beat", "tests/designs27/bugs/skid-lost_beat.sysr",
     ["--stimulus", "tests/sim/skid_burst.stim", "--radix", "dec"]),
    ("mod60_wrap60", "tests/designs27/bugs/mod60-wrap60.sysr", ["--cycles", "200", "--reset-rate", "0"]),
    ("uart_random", "tests/designs27/uart_tx.sysr", ["--cycles", "12", "--radix", "bin"]),
    ("covers", "tests/formal/covers.sysr", ["--cycles", "80", "--radix", "dec"]),
]


@pytest.mark.parametrize("name,design,args", CASES, ids=[c[0] for c in CASES])
def test_printed_run(name, design, args, capsys, monkeypatch, update_expected) -> None:
    monkeypatch.chdir(ROOT)
    status = main(["sim", design, *args])
    out = capsys.readouterr().out
    text = f"$ sysr sim {design} {' '.join(args)}\nexit {status}\n{out}"
    expected = HERE / f"{name}.expected"
    if update_expected:
        expected.write_text(text)
    assert expected.exists(), f"no {expected.name}: write it with SYSR_UPDATE=1 and review it"
    assert text == expected.read_text()


def test_same_seed_same_run_other_seed_other_run() -> None:
    text = (ROOT / "tests/designs27/fifo8.sysr").read_text()
    a = simulate(text, SimOptions(cycles=50, seed=3))
    b = simulate(text, SimOptions(cycles=50, seed=3))
    c = simulate(text, SimOptions(cycles=50, seed=4))
    assert a.trace.rows == b.trace.rows != c.trace.rows


def test_random_inputs_meet_narrow_requires_through_the_solver() -> None:
    # `k` must equal a hash of the state: random draws almost never meet it, z3 does.
    text = """module m(clk: clock, rst: reset, k: in u16, y: out reg u16 = 1) {
      requires k == (y * 40503) ^ 0x5a5a;
      seq { y <= y + k; }
      ensures y != 0 || true;
    }"""
    r = simulate(text, SimOptions(cycles=20, reset_rate=0))
    assert r.passed and r.solver_calls >= 1 and len(r.cycles) == 20
    assert all(all(c.requires) for c in r.cycles)


def test_dead_end_is_reported() -> None:
    text = """module m(clk: clock, rst: reset, a: in u4, y: out reg u4 = 0) {
      requires y < 3;
      seq { y <= a; }
    }"""
    r = simulate(text, SimOptions(cycles=200, seed=2, reset_rate=0))
    assert r.failure is not None and r.failure.kind == "dead-end"


def test_design_with_errors_is_not_simulated(tmp_path: Path, capsys) -> None:
    f = tmp_path / "bad.sysr"
    f.write_text("module m(a: in u8, y: out u16) { y = a; }\n")
    assert main(["sim", str(f)]) == 1
    out = capsys.readouterr().out
    assert "error[T001]" in out and "not simulated" in out


@pytest.mark.parametrize("stim,message", [
    ("", "no header"),
    ("nope\n0\n", "`nope` is not an input of `skid` (its inputs: rst, s_valid, s_data, m_ready)"),
    ("rst s_valid\n0\n", "line 2: 1 values for 2 inputs"),
    ("s_data\n256\n", "line 2: `256` does not fit u8"),
    ("s_data\nzz\n", "line 2: `zz` is not a value"),
    ("s_data s_data\n", "named twice"),
    ("s_valid\nrepeat 0: 1\n", "a repeat count of 1 to 1,000,000"),
])
def test_stimulus_errors(stim: str, message: str) -> None:
    with pytest.raises(StimulusError, match=re.escape(message)):
        simulate((ROOT / "tests/designs27/skid.sysr").read_text(), SimOptions(stimulus=stim))


def test_stimulus_values_enums_signed_and_bools() -> None:
    text = """enum Op { Add, Sub }
    module m(op: in Op, a: in s8, b: in bool, y: out s8) {
      y = if b && op == Op::Sub then -a else a;
    }"""
    stim = "op a b\nOp::Sub -5 true\nAdd 0x7f false\n"
    r = simulate(text, SimOptions(stimulus=stim, radix="dec"))
    assert r.passed
    assert [row for row in r.trace.rows] == [("Sub", "-5", "1", "5"), ("Add", "127", "0", "127")]


def test_bad_stimulus_exits_2(tmp_path: Path, capsys) -> None:
    stim = tmp_path / "s.stim"
    stim.write_text("nope\n")
    assert main(["sim", str(ROOT / "tests/designs27/skid.sysr"), "--stimulus", str(stim)]) == 2
    assert "is not an input" in capsys.readouterr().err


def test_vcd_has_the_whole_run(tmp_path: Path, capsys) -> None:
    vcd = tmp_path / "run.vcd"
    assert main(["sim", str(ROOT / "tests/designs27/mod60.sysr"), "--cycles", "90", "--vcd", str(vcd)]) == 0
    text = vcd.read_text()
    assert "$scope module mod60 $end" in text and "$var wire 6" in text
    assert "#890" in text  # cycle 89, ten time units apart


def test_covers_are_reported_with_their_first_cycle() -> None:
    text = (ROOT / "tests/formal/covers.sysr").read_text()
    r = simulate(text, SimOptions(cycles=200))
    assert r.passed
    got = {c.span.line: t for c, t in r.covers}
    assert set(got) == {10, 11, 12} and all(t is not None for t in got.values())
    assert got[11] > got[10]  # the step down from full comes after full


def test_an_unwritten_memory_word_keeps_its_power_up_value() -> None:
    """A memory's power-up words are random but each is one value: read in every cycle, an
    unwritten word reads the same (the trace shows the same contents until a write)."""
    text = """module m(clk: clock, rst: reset, a: in u1, y: out u8) {
      reg mem: u8[4];
      reg i: u2 = 0;
      seq { i <= i + 1; }
      y = mem[i];
    }"""
    r = simulate(text, SimOptions(cycles=40, seed=5, reset_rate=0))
    assert r.passed
    seen = {}
    for t, cyc in enumerate(r.cycles):
        assert seen.setdefault(t % 4, cyc.values["y"]) == cyc.values["y"]
    assert len(set(seen.values())) > 1  # (random words, not all zero)


def test_the_random_simulation_benchmark_prints_held_and_caught_with_the_cycle(capsys) -> None:
    """benchmarks/sim_random.py, on one reference and one seeded bug, few cycles: what it prints
    for the 10,000-cycle run of every reference and every bug."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("sim_random", ROOT / "benchmarks" / "sim_random.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert {p.name for p in bench.bugs()} >= {"counter.sysr", "mod60-wrap60.sysr"}
    assert ROOT / "examples" / "arbiter.sysr" in bench.references()
    status = bench.main(["--cycles", "200", str(ROOT / "examples/arbiter.sysr"),
                         "--bugs", str(ROOT / "tests/designs27/bugs/mod60-wrap60.sysr")])
    out = capsys.readouterr().out
    assert status == 0, out
    assert re.search(r"^examples/arbiter.sysr\s+held\s+200\s", out, re.M), out
    assert re.search(r"^tests/designs27/bugs/mod60-wrap60.sysr\s+caught\s+\d+\s.*property fails in cycle \d+: "
                     r"sec < 60", out, re.M), out
    assert out.rstrip().endswith("1 designs, 0 with a property that failed; 1 seeded bugs, 1 caught with the "
                                 "cycle named")
