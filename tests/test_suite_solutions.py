"""sysr solutions of the suite problems that several clocks, both edges and wide buses made
reachable (issue 26): lowered, and simulated by Icarus against testbenches of our own.

The solutions are tests/verify/suite_*.sysr, each named after its upstream problem (VerilogEval
v2's mux256to1v, dff8p, dualedge, rule90 and rule110; ChipBench's odd divider with a 50% duty
cycle, its pulse synchronizer, and with one reset per clock domain its asynchronous FIFO), with the problem's ports and module name; tests/test_verify.py
proves their properties and compares what `sysr check` prints with their .expected files. Here
each is lowered to Verilog and run in tests/fixtures/solutions/, a testbench written for this
project from the problem's behaviour (no upstream testbench is used or copied): it prints `PASS`
only when every check held. A wrong edge, a wrong rule or a missing flop in the lowered Verilog
makes its testbench fail, so the testbenches are seen to check something.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bench.judge.tools import find_tool
from icarus_harness import needs_icarus
from sysr.lower import lower_text
from sysr.pipeline import Options, check

HERE = Path(__file__).parent
VERIFY = HERE / "verify"
BENCHES = HERE / "fixtures" / "solutions"

# (solution, its testbench, the top's parameters, the testbench's parameters, the least number
# of checks the testbench makes when it runs to its end)
RUNS = [
    ("suite_mux256to1v", "mux256to1v_tb.v", {}, {}, 24 * 256),
    ("suite_dff8p", "dff8p_tb.v", {}, {}, 399),
    ("suite_dualedge", "dualedge_tb.v", {}, {}, 800),
    ("suite_rule90", "rule_tb.v", {}, {"RULE": 90}, 300),
    ("suite_rule110", "rule_tb.v", {}, {"RULE": 110}, 300),
    ("suite_odd_divider", "odd_divider_tb.v", {}, {"N": 7}, 150),
    ("suite_odd_divider", "odd_divider_tb.v", {"N": 5}, {"N": 5}, 150),
    ("suite_odd_divider", "odd_divider_tb.v", {"N": 11}, {"N": 11}, 150),
    ("suite_pulse_sync", "pulse_sync_tb.v", {}, {"FAST": 10, "SLOW": 100}, 40),
    ("suite_pulse_sync", "pulse_sync_tb.v", {}, {"FAST": 10, "SLOW": 37, "PHASE": 3}, 40),
    ("suite_pulse_sync", "pulse_sync_tb.v", {}, {"FAST": 26, "SLOW": 30, "PHASE": 1}, 40),
    ("suite_async_fifo", "async_fifo_tb.v", {}, {}, 30),
]


def run_id(run) -> str:
    name, _, params, tb_params, _ = run
    return "-".join([name.removeprefix("suite_"), *(f"{k}{v}" for k, v in {**tb_params, **params}.items())])


def lowered(name: str, params: dict[str, int]) -> str:
    verilog, diags = lower_text((VERIFY / f"{name}.sysr").read_text(), f"{name}.sysr", params=params or None)
    assert verilog is not None, [d.message for d in diags]
    return verilog


def simulate(verilog: str, bench: str, tb_params: dict[str, int], tmp_path: Path) -> str:
    """What the testbench prints, run on `verilog` by Icarus."""
    (tmp_path / "design.v").write_text(verilog)
    binary = tmp_path / "sim"
    params = [f"-Ptb.{k}={v}" for k, v in tb_params.items()]
    comp = subprocess.run([find_tool("iverilog"), "-g2012", "-o", str(binary), *params, str(BENCHES / bench),
                           str(tmp_path / "design.v")], capture_output=True, text=True, timeout=120)
    assert comp.returncode == 0, comp.stderr
    res = subprocess.run([find_tool("vvp"), "-n", str(binary)], capture_output=True, text=True, timeout=300,
                         cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    return res.stdout


def passed(out: str) -> int:
    """The checks (the pulses, for the pulse synchronizer) of a testbench that passed, else 0."""
    m = re.search(r"^PASS (\d+)", out, re.M)
    return int(m.group(1)) if m and "FAIL" not in out else 0


@needs_icarus
@pytest.mark.parametrize("run", RUNS, ids=[run_id(r) for r in RUNS])
def test_the_lowered_solution_passes_its_testbench(run, tmp_path: Path) -> None:
    name, bench, params, tb_params, least = run
    out = simulate(lowered(name, params), bench, tb_params, tmp_path)
    assert passed(out) >= least, out


def test_the_divider_is_proven_for_other_odd_ratios() -> None:
    """The divider is a module with a parameter: proven at N = 7 by tests/test_verify.py, and here
    at the other ratios simulated above."""
    text = (VERIFY / "suite_odd_divider.sysr").read_text()
    for n in (5, 11):
        out = check(text, Options(params={"N": n}))
        assert out.accepted and [p["status"] for p in out.properties] == ["proven"] * 4, out.diagnostics


# (solution, its testbench's parameters, the lowered Verilog made wrong)
CORRUPTIONS = {
    "suite_mux256to1v": ({}, lambda v: v.replace("* 10'd4", "* 10'd3")),
    "suite_dff8p": ({}, lambda v: v.replace("negedge clk", "posedge clk")),
    "suite_dualedge": ({}, lambda v: v.replace("negedge clk", "posedge clk")),
    "suite_rule90": ({"RULE": 90}, lambda v: v.replace("(q >> 1) ^ (q << 1)", "(q >> 1) ^ (q << 2)")),
    "suite_rule110": ({"RULE": 110}, lambda v: v.replace("(q ^ (q << 1)) | (q & ~(q >> 1))", "(q ^ (q << 1)) | (q & (q >> 1))")),
    "suite_odd_divider": ({"N": 7}, lambda v: v.replace("negedge clk_in", "posedge clk_in")),
    "suite_pulse_sync": ({"FAST": 10, "SLOW": 100}, lambda v: v.replace("seen <= sync2;", "seen <= sync1;")),
    # the write side reset by the read side's reset
    "suite_async_fifo": ({}, lambda v: v.replace("always @(posedge wclk or negedge wrstn) begin\n    if (!wrstn)",
                                                 "always @(posedge wclk or negedge rrstn) begin\n    if (!rrstn)")),
}


@needs_icarus
@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_the_testbench_fails_a_wrong_design(name: str, tmp_path: Path) -> None:
    bench = next(b for n, b, *_ in RUNS if n == name)
    tb_params, corrupt = CORRUPTIONS[name]
    good = lowered(name, {})
    bad = corrupt(good)
    assert bad != good, "the corruption did not apply"
    out = simulate(bad, bench, tb_params, tmp_path)
    assert not passed(out) and "FAIL" in out, out
