"""Signals named after reserved words: a sysr design naming its wires, registers and ports after
every word Icarus (-g2005 and -g2012) or Yosys (read_verilog, with and without -sv) reserves
lowers to Verilog that all of them accept.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.judge.run import run_bounded
from bench.judge.tools import find_tool
from sysr.lower import VERILOG_KEYWORDS, lower_text

# Words Icarus 11 reserves beyond Verilog-2005's list (found by trying each word of its keyword
# table as a signal name): they were once lowered unescaped.
ICARUS_EXTRA = ("bool", "wone", "wreal", "implements", "nettype")


def sysr_names() -> list[str]:
    """The reserved words that sysr itself accepts as a signal name (not its own keywords)."""
    ok = []
    for w in sorted(VERILOG_KEYWORDS):
        as_wire = f"module m(a: in u4, y: out u4) {{ wire {w}: u4; {w} = a; y = {w}; }}"
        as_reg = (f"module m(clk: clock, rst: reset, a: in u4, y: out u4) {{ reg {w}: u4 = 0; "
                  f"seq {{ {w} <= a; }} y = {w}; }}")
        if all(lower_text(text, "m.sysr")[0] is not None for text in (as_wire, as_reg)):
            ok.append(w)
    return ok


def keyword_design(names: list[str]) -> str:
    """Wires and registers named after `names` in a chain from input `a` to output `y`, and ports
    named after the words Icarus added."""
    inner = [n for n in names if n not in ICARUS_EXTRA]
    wires, regs = inner[::2], inner[1::2]
    ports = ", ".join(f"{p}: in u4" for p in ICARUS_EXTRA)
    lines = [f"module kw(clk: clock, rst: reset, a: in u4, {ports}, y: out u4) {{"]
    lines += [f"  wire {w}: u4;" for w in wires] + [f"  reg {r}: u4 = 0;" for r in regs]
    prev = "a"
    for w in wires:
        lines.append(f"  {w} = {prev} ^ {ICARUS_EXTRA[len(lines) % len(ICARUS_EXTRA)]};")
        prev = w
    lines.append("  seq {")
    for r in regs:
        lines.append(f"    {r} <= {prev};")
        prev = r
    lines += ["  }", f"  y = {prev};", "}", ""]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def lowered() -> tuple[list[str], str]:
    names = sysr_names()
    verilog, diags = lower_text(keyword_design(names), "kw.sysr")
    assert verilog is not None, [str(d) for d in diags]
    return names, verilog


def test_every_reserved_word_sysr_allows_is_a_signal_name(lowered) -> None:
    names, _ = lowered
    assert set(ICARUS_EXTRA) <= set(names) and len(names) > 200


@pytest.mark.parametrize("argv", [
    ("iverilog", "-g2005", "-o", "sim", "kw.v"),
    ("iverilog", "-g2012", "-o", "sim", "kw.v"),
    ("yosys", "-q", "-p", "read_verilog kw.v; hierarchy -check -top kw; proc"),
    ("yosys", "-q", "-p", "read_verilog -sv kw.v; hierarchy -check -top kw; proc"),
], ids=["iverilog-2005", "iverilog-2012", "yosys", "yosys-sv"])
def test_lowered_keywords_are_accepted(lowered, argv, tmp_path: Path) -> None:
    _, verilog = lowered
    (tmp_path / "kw.v").write_text(verilog)
    res = run_bounded([find_tool(argv[0]), *argv[1:]], tmp_path, 120)
    assert res.returncode == 0, res.output[:3000]
    assert "wreal_" in verilog and "wone_" in verilog and "bool_" in verilog
