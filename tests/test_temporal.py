"""Properties over time (reference §5.2): `prev(e, n)`, `a ==> next(b, n)`, `a ==> within(b, n)`.

The bounded forms are expanded into `prev` once by the checker (`sysr.front.check.temporal`),
so the proof, `sysr sim` and `--formal` read the same history; these tests pin what that
history means: yosys-smtbmc, through `--formal`'s Verilog history registers, proves and refutes
random designs over time (tests/gen_temporal.py) exactly as the checker does; a reset between a
trigger and its deadline cancels the obligation, in the proof and in simulation; a broken
`within` in the Verilog is caught; the induction looks back as far as the properties do. The
expected outputs of the designs are in tests/verify (latency_*, within_*, bounded_vacuous),
tests/cases/bad (S008, T013, P006) and tests/formal/bounded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.checker.crosscheck import cross_check
from bench.checker.smtbmc import formal_flow
from gen_temporal import temporal_design
from sysr import elab as E
from sysr.cli import main
from sysr.front import printer
from sysr.lower import lower_text
from sysr.pipeline import Options, analyze, check
from sysr.sim import SimOptions, simulate

ROOT = Path(__file__).resolve().parent.parent
SEEDS = range(16)


@pytest.mark.parametrize("seed", SEEDS)
def test_smtbmc_agrees_on_random_designs_over_time(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "tp.sysr"
    path.write_text(temporal_design(seed))
    r = cross_check(path, tmp_path)
    assert r.codes in ((), ("V002",)), (r.codes, path.read_text())
    assert r.flow is not None and r.flow.verdict == ("proven" if not r.codes else "refuted"), path.read_text()
    assert r.disagreements == (), path.read_text()


def test_the_random_designs_hold_and_fail() -> None:
    """The generator is not one-sided: among the seeds both verdicts occur."""
    verdicts = {check(temporal_design(s), Options()).accepted for s in SEEDS}
    assert verdicts == {True, False}


def test_the_bounded_forms_are_prev_after_the_checks() -> None:
    d = analyze("module m(clk: clock, rst: reset, a: in bool, b: in bool, q: out reg bool = false) {\n"
                "  seq { q <= a; }\n  assert a ==> within(b, 2);\n  assert prev(a) ==> next(q, 3);\n}\n").design
    assert [printer.expr(s.expr) for s in d.specs()] == [
        "prev(a, 2) ==> b || prev(b, 1) || prev(b, 2)",
        "prev(prev(a), 3) ==> q"]
    assert E.history_depth(E.elaborate(d, "contract")) == 4  # `a` four cycles back


def test_a_reset_before_the_deadline_cancels_the_obligation() -> None:
    """`in_valid` in cycle 1, a reset in cycle 2: the result never comes (the reset cleared the
    pipeline), and `in_valid ==> next(out_valid, 2)` is not checked in cycle 3."""
    stim = ("rst in_valid a b c\n" "0 0 0 0 0\n" "0 1 3 4 5\n" "1 0 0 0 0\n" "0 0 0 0 0\n" "0 0 0 0 0\n")
    r = simulate((ROOT / "examples/muladd_latency.sysr").read_text(), SimOptions(stimulus=stim))
    assert r.failure is None and [c.shown["out_valid"] for c in r.cycles] == [0, 0, 0, 0, 0]
    stim = stim.replace("1 0 0 0 0\n", "0 0 0 0 0\n")  # without the reset: the result, on time
    r = simulate((ROOT / "examples/muladd_latency.sysr").read_text(), SimOptions(stimulus=stim))
    assert r.failure is None and [c.shown["out_valid"] for c in r.cycles] == [0, 0, 0, 1, 0]
    assert r.cycles[3].shown["y"] == 3 * 4 + 5


def test_the_late_pipeline_fails_in_simulation_with_its_cycle(tmp_path: Path, capsys) -> None:
    stim = "in_valid\n1\n0\n0\n0\n"
    r = simulate((ROOT / "tests/verify/latency_mac_late.sysr").read_text(), SimOptions(stimulus=stim))
    assert r.failure is not None and (r.failure.kind, r.failure.cycle) == ("property", 2)
    assert [p.text for p in r.failure.props] == ["in_valid ==> next(out_valid, 2)"]
    (tmp_path / "late.stim").write_text(stim)
    assert main(["sim", str(ROOT / "tests/verify/latency_mac_late.sysr"), "--stimulus", str(tmp_path / "late.stim")]) == 1
    out = capsys.readouterr().out
    assert ":20:3: error: `ensures in_valid ==> next(out_valid, 2)` fails in cycle 2\n" \
           "  note: `in_valid` held in cycle 0, so `out_valid` had to hold 2 cycles later, in cycle 2\n" in out


def test_a_within_lowered_one_cycle_short_is_refuted_by_smtbmc(tmp_path: Path) -> None:
    """The cross-check can fail: `--formal`'s `within(ack || !busy, 2)` without its oldest cycle
    is false, and smtbmc says so, where the checker proves the property."""
    src = ROOT / "tests/formal/bounded.sysr"
    code, _ = lower_text(src.read_text(), src.name, formal=True)
    broken = code.replace("(ack || !busy || prev_value_1 || prev_value_2_1)", "(ack || !busy || prev_value_1)")
    assert broken != code
    flow = formal_flow(broken, 20, 4, tmp_path)
    assert flow.verdict == "refuted" and flow.bmc.failed == ("ensures_l16",)
    assert check(src.read_text(), Options()).accepted


def test_the_induction_looks_back_as_far_as_the_properties() -> None:
    """k-induction sees at least one cycle more than the properties look back (`--induction` is a
    minimum), so that a delay line is proven without an invariant relating its stages to history."""
    for name, depth, k in (("examples/muladd_latency.sysr", 2, 3), ("tests/verify/latency_delay_line.sysr", 6, 7)):
        text = (ROOT / name).read_text()
        system = E.elaborate(analyze(text).design, "contract")
        assert (E.history_depth(system), E.induction_depth(system, 2)) == (depth, k)
        assert check(text, Options()).accepted
    system = E.elaborate(analyze("module m(clk: clock, a: in bool, q: out reg bool) {\n  seq { q <= a; }\n"
                                 "  ensures q == prev(a);\n}\n").design, "contract")
    assert (E.history_depth(system), E.induction_depth(system, 1)) == (1, 1)  # one cycle back: as asked
