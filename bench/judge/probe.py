"""Verilog facts from the tools outside a scoring run: a module's ports (via Yosys) and a plain
testbench run (via Icarus), each bounded by `bench.judge.run` and returned as data.

Used by the mutation score (the interface of a task) and by the tests; a candidate is judged by
`bench.judge.score`, never by these.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from ..verilog.ports import PORTS_SCRIPT, PortInfo, ports_from_json
from .run import RunResult, run_bounded
from .tools import find_tool


def read_ports(verilog: str, top: str, timeout_s: float = 60) -> tuple[list[PortInfo] | None, RunResult]:
    """The ports of module `top` in declaration order, as Yosys reads them; None if it could not."""
    with tempfile.TemporaryDirectory(prefix="bench-ports-") as d:
        Path(d, "design.v").write_text(verilog)
        res = run_bounded([find_tool("yosys"), "-q", "-p", PORTS_SCRIPT], d, timeout_s)
        if res.returncode != 0 or not Path(d, "ports.json").is_file():
            return None, res
        return ports_from_json(Path(d, "ports.json"), top), res


_VERDICT = re.compile(r"^(PASS|FAIL\b.*)$", re.M)


def simulate(tb: str, design: str, workdir: Path, timeout_s: float = 60,
             compile_timeout_s: float = 60) -> tuple[str, RunResult]:
    """Compile tb + design with iverilog and run vvp. Returns (verdict, result of the last tool):
    verdict is "PASS", the FAIL line, "compile", "timeout" or "no-verdict"."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "tb.v").write_text(tb)
    (workdir / "design.v").write_text(design)
    comp = run_bounded([find_tool("iverilog"), "-g2005", "-o", "sim", "tb.v", "design.v"], workdir,
                       compile_timeout_s)
    if comp.returncode != 0:
        return "compile", comp
    res = run_bounded([find_tool("vvp"), "-n", "sim"], workdir, timeout_s)
    if res.timed_out:
        return "timeout", res
    m = _VERDICT.search(res.stdout)
    if not m:
        return "no-verdict", res
    return m.group(1), res
