"""A module's ports as data: read from Yosys's JSON, taken from a sysr design, compared.

Pure functions over text and data: running Yosys to get the JSON is the judge's
(`bench.judge.score`, `bench.judge.probe`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class PortInfo:
    name: str
    direction: str  # "input", "output", "inout"
    width: int

    def __str__(self) -> str:
        w = f"[{self.width - 1}:0] " if self.width > 1 else ""
        return f"{self.direction} {w}{self.name}"


# Yosys reads design.v in the current folder and writes its modules' ports to ports.json.
PORTS_SCRIPT = "read_verilog design.v; proc; write_json ports.json"


def ports_script(read: str = "read_verilog") -> str:
    """PORTS_SCRIPT with another read command (`read_verilog -sv` for SystemVerilog)."""
    return PORTS_SCRIPT.replace("read_verilog", read, 1)


def ports_from_json(path: Path, top: str) -> list[PortInfo] | None:
    """The ports of module `top` in declaration order from Yosys's JSON; None if there is no such module."""
    mod = json.loads(path.read_text()).get("modules", {}).get(top)
    if mod is None:
        return None
    return [PortInfo(n, p["direction"], len(p["bits"])) for n, p in mod["ports"].items()]


def sysr_ports(design) -> list[PortInfo]:
    """The ports a sysr design lowers to (clock and reset are 1-bit inputs)."""
    out = []
    for p in design.module.ports:
        sig = design.signals[p.name]
        direction = "output" if p.kind in ("out", "out_reg") else "input"
        out.append(PortInfo(p.name, direction, sig.ty.width if sig.ty is not None else 1))
    return out


def compare_ports(got: list[PortInfo], want: list[PortInfo], ordered: bool = True) -> str | None:
    """None when the port lists agree (names, directions, widths, and order when `ordered`); else
    what differs."""
    if not ordered:
        order = {p.name: i for i, p in enumerate(want)}
        got = sorted(got, key=lambda p: order.get(p.name, len(order)))
    if [p.name for p in got] != [p.name for p in want]:
        missing = [p.name for p in want if p.name not in {g.name for g in got}]
        extra = [p.name for p in got if p.name not in {w.name for w in want}]
        if missing or extra:
            parts = []
            if missing:
                parts.append("missing port(s) " + ", ".join(missing))
            if extra:
                parts.append("unexpected port(s) " + ", ".join(extra))
            return "; ".join(parts)
        return ("ports are in the wrong order: expected " + ", ".join(p.name for p in want)
                + "; got " + ", ".join(p.name for p in got))
    for g, w in zip(got, want):
        if g != w:
            return f"port `{w.name}` should be `{w}`, got `{g}`"
    return None
