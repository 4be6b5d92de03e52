"""Failures first: a seeded bug comes back as V002 with its real trace, first, even when it shows
only after the default depth of 20 cycles, and the other failures of the same bug are grouped
under it (docs/reference.md, §6.1 item 4 and §6.2).

`tests/designs27/` holds eleven designs of the kinds engineers write (a FIFO, a UART transmitter
with a 9-bit frame, a round-robin arbiter, a serial CRC-16, a skid buffer, a pipelined MAC, I2C
framing, an asynchronous-reset counter, a Gray counter, a register block, a mod-60 counter),
each accepted; `tests/designs27/bugs/<design>-<bug>.sysr` are the same designs with one seeded
bug each, whose first line says the code and the cycle of the first failure (`V002@60`), and
next to it what `sysr check` prints (`.expected`; `SYSR_UPDATE=1` rewrites them).
`benchmarks/reject_times.py` times each pair.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sysr.diagnostics import render
from sysr.pipeline import Options, check
from sysr.report import summary

HERE = Path(__file__).parent / "designs27"
DESIGNS = sorted(HERE.glob("*.sysr"))
BUGS = sorted((HERE / "bugs").glob("*.sysr"))


@pytest.mark.parametrize("path", DESIGNS, ids=lambda p: p.stem)
def test_design_is_accepted(path: Path) -> None:
    out = check(path.read_text(), Options())
    assert out.accepted, [d.message for d in out.diagnostics]
    assert all(p["status"] == "proven" for p in out.properties)


@pytest.mark.parametrize("path", BUGS, ids=lambda p: p.stem)
def test_bug_is_a_real_failure_first(path: Path, update_expected: bool) -> None:
    text = path.read_text()
    m = re.match(r"// expect: V002@(\d+)\n", text)
    assert m, "first line: `// expect: V002@CYCLE`"
    out = check(text, Options())
    errors = [d for d in out.diagnostics if d.severity.name == "ERROR"]
    assert errors and errors[0].code == "V002" and errors[0].trace is not None, \
        [(d.code, d.message) for d in errors]
    assert errors[0].trace.failing_row == int(m.group(1))
    # one bug, one error: the rest are notes under it
    assert [d.code for d in errors] == ["V002"]
    refuted = [p for p in out.properties if p["status"] == "refuted"]
    assert refuted and all("trace" in p for p in refuted)
    name = f"designs27/bugs/{path.name}"
    shown = "\n\n".join([render(d, name, text) for d in out.diagnostics] + [f"{name}: {summary(out)}"]) + "\n"
    expected = path.with_suffix(".expected")
    if update_expected:
        expected.write_text(shown)
    assert expected.exists(), f"no {expected.name}: write it with SYSR_UPDATE=1 and review it"
    assert shown == expected.read_text()


def test_the_rejection_time_benchmark_prints_each_ratio_the_median_and_the_worst(capsys) -> None:
    """benchmarks/reject_times.py on two pairs, one round (its figures are ratios measured on a
    quiet machine, never asserted here): a row per pair with its ratio and first diagnostic, and
    a summary with the median and the worst."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("reject_times", HERE.parent.parent / "benchmarks" / "reject_times.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    pairs = {bad.name for _, bad in bench.pairs()}
    assert {p.name for p in BUGS} <= pairs and "uart-rx.sysr" in pairs
    assert bench.main(["--rounds", "1", "--only", "mod60-"]) == 0
    out = capsys.readouterr().out
    rows = re.findall(r"^tests/designs27/bugs/(mod60-\w+)\.sysr\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s+(\S+)$", out, re.M)
    assert sorted(r[0] for r in rows) == ["mod60-hold", "mod60-wrap60"], out
    assert {r[2] for r in rows} == {"V002@3", "V002@60"}
    ratios = sorted(float(r[1]) for r in rows)
    m = re.search(r"^2 pairs: median ratio ([\d.]+), worst ([\d.]+) \((\S+)\), \d+ over 2; 2 rejected with V002 "
                  r"first$", out, re.M)
    assert m, out
    assert abs(float(m.group(1)) - sum(ratios) / 2) < 0.02 and float(m.group(2)) == ratios[-1]
