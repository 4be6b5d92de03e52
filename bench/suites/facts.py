"""What Yosys says about an upstream reference: its ports, and the clocks and resets of its logic.

One sandboxed Yosys run per reference (`read_verilog -sv`, then `proc; flatten; opt_dff`):

- the ports of the top module as declared (name, direction, width, range, signedness), written
  before anything is elaborated, so that a reference Yosys cannot elaborate still has an interface;
- every flip-flop and clocked memory port with the port that clocks it and its edge, every
  asynchronous reset (`$adff`: the port and its polarity), the ports in the logic of each
  synchronous reset that `opt_dff` found (`$sdff`: the port itself with its polarity, or the
  ports the reset signal is computed from, as in `reset || count == 9`), and what a sysr design
  cannot have at all (latches, flip-flops with an asynchronous set or load).

The integer parameters the top declares in its header, with their defaults (`#(parameter WIDTH = 8)`, in the order the
header declares them; not those of its body, which name states and the like), and which ports are declared `[P-1:0]` with one of them, so that the stub
has them too (`module TopModule<WIDTH: int = 8>(wdata: in u[WIDTH], ...)`, §4.8 of the reference).

`bench.suites.stub` turns these facts into a sysr stub or the reason there is none.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..judge.run import DEFAULT_MEMORY_BYTES, RunResult
from ..judge.session import Session
from ..judge.tools import find_tool
from ..judge.detail import short, yosys_errors

TOP = "TopModule"
YOSYS_S = 120.0
FLOPS = {"$dff", "$dffe", "$adff", "$adffe", "$sdff", "$sdffe", "$sdffce", "$aldff", "$aldffe", "$dffsr",
         "$dffsre"}
ODD = {"$dlatch": "a latch", "$adlatch": "a latch", "$dlatchsr": "a latch", "$sr": "a set-reset latch",
       "$aldff": "a flip-flop with an asynchronous load", "$aldffe": "a flip-flop with an asynchronous load",
       "$dffsr": "a flip-flop with asynchronous set and reset", "$dffsre": "a flip-flop with asynchronous set and reset"}
CONE_CELLS = 64  # cells visited back from a synchronous reset signal


@dataclass(frozen=True)
class Port:
    name: str
    direction: str  # input, output, inout
    width: int
    offset: int = 0  # the low index of the declared range
    upto: bool = False  # declared [lo:hi]
    signed: bool = False

    @property
    def range(self) -> str:
        """The declared range, `[7:0]` ("" for a plain 1-bit port)."""
        if self.width == 1 and self.offset == 0:
            return ""
        hi = self.offset + self.width - 1
        return f"[{self.offset}:{hi}]" if self.upto else f"[{hi}:{self.offset}]"

    def declaration(self) -> str:
        parts = [self.direction, "logic", "signed" if self.signed else "", self.range, self.name]
        return " ".join(p for p in parts if p)


@dataclass
class Facts:
    ports: list[Port] | None = None  # None: Yosys could not read the reference
    elaborated: bool = False
    error: str = ""  # what Yosys said when it could not read or elaborate the reference
    clocks: set[tuple[str, bool]] = field(default_factory=set)  # (port, rising edge)
    internal_clock: bool = False  # something is clocked by a signal that is not a 1-bit input port
    async_resets: set[tuple[str, bool]] = field(default_factory=set)  # (port, active high)
    reset_clocks: set[tuple[str, str, bool]] = field(default_factory=set)  # (async reset, clock, rising)
    internal_async: bool = False
    sync_resets: dict[str, set[bool | None]] = field(default_factory=dict)  # port -> polarities (None: in logic)
    odd: set[str] = field(default_factory=set)  # what sysr cannot write (latches, async set or load)
    params: dict[str, int] = field(default_factory=dict)  # the top's integer parameters, declared order
    param_widths: dict[str, str] = field(default_factory=dict)  # port -> parameter P of its `[P-1:0]`

    @property
    def flops(self) -> bool:
        return bool(self.clocks) or self.internal_clock


def script(read: str = "read_verilog -sv") -> str:
    return (f"{read} design.v; design -save read; delete p:*; write_json ports.json; design -load read; "
            f"hierarchy -check -top {TOP}; proc; flatten; opt_clean; opt_dff; opt_clean; write_json logic.json")


def of_reference(verilog: str, timeout_s: float = YOSYS_S) -> Facts:
    """The facts of module TopModule in `verilog` (a reference with its module renamed)."""
    with tempfile.TemporaryDirectory(prefix="bench-facts-") as d:
        work = Path(d)
        (work / "design.v").write_text(verilog)
        res = _yosys(work, script(), timeout_s)
        facts = Facts()
        if not (work / "ports.json").is_file():
            facts.error = _why(res)
            return facts
        read = json.loads((work / "ports.json").read_text())
        facts.ports = ports_of(read, TOP)
        if facts.ports is None:
            facts.error = f"the reference has no module {TOP}"
            return facts
        facts.params, facts.param_widths = parameters_of(read["modules"][TOP], verilog)
        if not (work / "logic.json").is_file():
            facts.error = _why(res)
            return facts
        module = json.loads((work / "logic.json").read_text()).get("modules", {}).get(TOP)
        if module is not None:
            _read_logic(module, facts)
            facts.elaborated = True
        return facts


def header_ports(header: str, timeout_s: float = YOSYS_S) -> tuple[list[Port] | None, str]:
    """The ports of a module header with no body (VerilogEval's `_ifc.txt`), or why not."""
    with tempfile.TemporaryDirectory(prefix="bench-ifc-") as d:
        work = Path(d)
        (work / "design.v").write_text(header.rstrip() + "\nendmodule\n")
        res = _yosys(work, "read_verilog -sv design.v; delete p:*; write_json ports.json", timeout_s)
        if not (work / "ports.json").is_file():
            return None, _why(res)
        ports = ports_of(json.loads((work / "ports.json").read_text()), TOP)
        return ports, "" if ports is not None else f"no module {TOP}"


def _yosys(work: Path, commands: str, timeout_s: float) -> RunResult:
    yosys = find_tool("yosys")
    with Session(work, [yosys], yosys) as box:
        return box.run([yosys, "-q", "-p", commands], work, timeout_s, DEFAULT_MEMORY_BYTES, 64 * 1024**2,
                       1024 * 1024)


def _why(res: RunResult) -> str:
    if not res.started or res.limit:
        return f"Yosys did not run to completion ({res.error})"
    return short(yosys_errors(res.output), 5)


def ports_of(data: dict, top: str) -> list[Port] | None:
    mod = data.get("modules", {}).get(top)
    if mod is None:
        return None
    return [Port(name, p["direction"], len(p["bits"]), int(p.get("offset", 0)), bool(p.get("upto", 0)),
                 bool(p.get("signed", 0))) for name, p in mod["ports"].items()]


_HEADER = re.compile(rf"\bmodule\s+{TOP}\b(.*?)\)\s*;", re.S)
_PARAM = re.compile(r"\b(?:parameter|localparam)\b(?:\s+(?:integer|int|signed|unsigned))?\s+(\w+)\s*=")
_WIDE_PORT = re.compile(r"\b(?:input|output)\b(?:\s+(?:wire|reg|logic))?\s*\[\s*(\w+)\s*-\s*1\s*:\s*0\s*\]"
                        r"\s*(\w+(?:\s*,\s*(?!input\b|output\b|inout\b)\w+)*)")


def parameters_of(module: dict, verilog: str) -> tuple[dict[str, int], dict[str, str]]:
    """The integer parameters the top declares in its header, with their defaults (as `write_json`
    gives them before elaboration), in the header's order, and the ports whose range is `[P-1:0]`
    for one of them."""
    values = {}
    for name, value in module.get("parameter_default_values", {}).items():
        try:
            values[name] = int(value, 2) if isinstance(value, str) and set(value) <= {"0", "1"} else int(value)
        except (TypeError, ValueError):
            continue  # a string or real parameter: sysr has none
    m = _HEADER.search(verilog)
    header = m.group(1) if m else ""
    # Only the header's: a parameter declared in the body (`parameter A = 0, B = 1;` naming an FSM's
    # states) is no part of the interface the task gives, and as the stub's it only confused models.
    order = [n for n in dict.fromkeys(_PARAM.findall(header)) if n in values]
    params = {n: values[n] for n in order}
    widths = {}
    for p, names in _WIDE_PORT.findall(header):
        if p in params:
            widths.update({n.strip(): p for n in names.split(",")})
    return params, widths


def _param(cell: dict, name: str, default: int = 1) -> int:
    value = cell.get("parameters", {}).get(name)
    if value is None:
        return default
    try:
        return int(str(value), 2) if isinstance(value, str) else int(value)
    except ValueError:
        return default


def _read_logic(module: dict, facts: Facts) -> None:
    port_of = {}  # bit -> name of the 1-bit input port that is that bit
    for name, p in module["ports"].items():
        if p["direction"] == "input" and len(p["bits"]) == 1:
            port_of[p["bits"][0]] = name
    driver = {}  # bit -> cell driving it
    for cell in module["cells"].values():
        for pin, direction in cell.get("port_directions", {}).items():
            if direction == "output":
                for b in cell["connections"].get(pin, []):
                    driver[b] = cell
    for cell in module["cells"].values():
        kind = cell["type"]
        con = cell.get("connections", {})
        if kind in ODD:
            facts.odd.add(ODD[kind])
        clocked = kind in FLOPS or (kind.startswith(("$memwr", "$memrd")) and _param(cell, "CLK_ENABLE", 0))
        if clocked:
            clk = port_of.get((con.get("CLK") or [None])[0])
            if clk is None:
                facts.internal_clock = True
            else:
                facts.clocks.add((clk, bool(_param(cell, "CLK_POLARITY"))))
        if kind in ("$adff", "$adffe"):
            arst = port_of.get((con.get("ARST") or [None])[0])
            if arst is None:
                facts.internal_async = True
            else:
                facts.async_resets.add((arst, bool(_param(cell, "ARST_POLARITY"))))
                if clk is not None:
                    facts.reset_clocks.add((arst, clk, bool(_param(cell, "CLK_POLARITY"))))
        if kind in ("$sdff", "$sdffe", "$sdffce"):
            bit = (con.get("SRST") or [None])[0]
            if bit in port_of:
                facts.sync_resets.setdefault(port_of[bit], set()).add(bool(_param(cell, "SRST_POLARITY")))
            else:
                for name in _cone(bit, driver, port_of):
                    facts.sync_resets.setdefault(name, set()).add(None)


def _cone(bit, driver: dict, port_of: dict) -> set[str]:
    """The 1-bit input ports that the signal `bit` is computed from (a bounded walk back)."""
    found, seen, todo = set(), set(), [bit]
    while todo and len(seen) < CONE_CELLS:
        b = todo.pop()
        if b in port_of:
            found.add(port_of[b])
            continue
        cell = driver.get(b)
        if cell is None or id(cell) in seen or cell["type"] in FLOPS or cell["type"].startswith("$mem"):
            continue  # the reset's logic ends at state: a register's output is not its input
        seen.add(id(cell))
        for pin, direction in cell.get("port_directions", {}).items():
            if direction == "input":
                todo += cell["connections"].get(pin, [])
    return found
