"""Interface fixtures: every clock, reset and port-name shape of VerilogEval v2 as a sysr stub.

Each tests/fixtures/ifaces/*.sysr (see its README) names the Verilog interface it stands for
(`// iface: input clk; input areset; ...`) and the sensitivity of its clocked blocks
(`// edges: posedge clk or posedge areset`). A stub must pass the static checks with hole
errors only, and with every hole filled by `0` it must lower to exactly that interface (names,
directions and widths, in order) and those edges. Together the fixtures must cover every reset
kind, a clock without a reset, a combinational module, and the port names that are sysr
keywords.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sysr.front.syntax import RESET_KINDS
from sysr.lower import lower_text
from sysr.pipeline import analyze

HERE = Path(__file__).parent / "fixtures" / "ifaces"
STUBS = sorted(HERE.glob("*.sysr"))
_PORT = re.compile(r"(input|output)\s+(?:wire\s+|reg\s+)?(?:\[(\d+):(\d+)\]\s*)?([A-Za-z_]\w*)$")


def header(text: str, key: str) -> str:
    m = re.search(rf"^// {key}:(.*)$", text, re.M)
    assert m, f"no `// {key}:` line"
    return m.group(1).strip()


def ports_of(decls: list[str]) -> list[tuple[str, int, str]]:
    """(direction, width, name) of Verilog port declarations."""
    out = []
    for decl in decls:
        m = _PORT.match(decl.strip().rstrip(","))
        assert m, decl
        width = abs(int(m.group(2)) - int(m.group(3))) + 1 if m.group(2) else 1
        out.append((m.group(1), width, m.group(4)))
    return out


def fill_holes(text: str) -> str:
    return re.sub(r"\?(r#)?[A-Za-z_]\w*|\?", "0", text)


@pytest.mark.parametrize("stub", STUBS, ids=[p.stem for p in STUBS])
def test_stub_has_only_hole_errors(stub: Path):
    outcome = analyze(stub.read_text())
    codes = [d.code for d in outcome.diagnostics if d.severity.name == "ERROR"]
    assert codes and set(codes) == {"H001"}, [f"{d.code} {d.message}" for d in outcome.diagnostics]


@pytest.mark.parametrize("stub", STUBS, ids=[p.stem for p in STUBS])
def test_stub_lowers_to_its_verilog_interface(stub: Path):
    text = stub.read_text()
    verilog, diags = lower_text(fill_holes(text), stub.name)
    assert verilog is not None, [f"{d.code} {d.message}" for d in diags]
    head = verilog.split(");", 1)[0].split("(", 1)[1]
    got = ports_of([line for line in head.splitlines() if line.strip()])
    assert got == ports_of(header(text, "iface").split(";"))
    edges = {m.group(1) for m in re.finditer(r"always @\((posedge[^)]*)\)", verilog)}
    want = header(text, "edges")
    assert edges == ({want} if want else set())


def test_fixtures_cover_every_shape():
    kinds, names = set(), set()
    for stub in STUBS:
        design = analyze(stub.read_text()).design
        kinds |= {p.kind for p in design.ports}
        names |= {p.name for p in design.ports}
        if not any(p.kind == "clock" for p in design.ports):
            kinds.add("combinational")
        elif not any(p.kind in RESET_KINDS for p in design.ports):
            kinds.add("clock without reset")
    assert set(RESET_KINDS) | {"combinational", "clock without reset"} <= kinds
    assert {"in", "out", "reset", "areset", "clock", "match"} <= names
