"""The sysr condition of an imported task: `stub.sysr` from the reference's ports, or why there is none.

The ports keep their names, directions, widths and order. A 1-bit input port is

- a clock (`clock`) when it clocks the reference's flip-flops and memories, at either edge;
- an asynchronous reset (`areset`, `areset_n` by its polarity) when Yosys finds it resetting
  flip-flops asynchronously (`always @(posedge clk or posedge areset)`); there may be several,
  one per clock domain (an asynchronous FIFO's `wrstn` and `rrstn`, §4.10), each of one polarity;
- else, in a clocked design, the synchronous reset (`reset`, `reset_n`) when it is named like
  one (`reset`, `rst`, `r`, `resetn`, `rst_n`...): active low when Yosys finds it resetting
  flip-flops when low (`if (!resetn) q <= 0;`), or, where Yosys finds it only in the logic of a
  reset (`if (reset || q == 9) q <= 0;`) or as data, when its name ends in `n` or `_b`. A
  sysr `reset` may still be read as data, and state it does not reset can be a memory, so this
  is never less than `in bool` would allow;
- else `in bool`. Other ports are `in uN`/`sN` and `out uN`/`sN` (`bool` for one bit).

The reference's integer parameters become the stub's, with the same defaults
(`module TopModule<WIDTH: int = 8, DEPTH: int = 16>`), and a port declared `[WIDTH-1:0]` is
`u[WIDTH]`; the stub is checked with the defaults, as a testbench that sets none uses them.

Every output is driven by one hole (`y = ?y;`). A stub is kept only if `sysr check`'s static
checks give it hole errors (H001) and nothing else, and its ports, holes filled, lower to exactly
iface.v's ports. Any number of clocks at either edge is written (with a comment naming the `seq`
blocks of a falling edge, of several clocks or of several resets, §4.10). What sysr cannot express
(a clock computed inside the design, a reset used at both polarities, a latch, an inout port, a
port wider than 4,096 bits, a name sysr cannot spell) is the reason there is no stub.
"""

from __future__ import annotations

import re

from sysr.front.syntax import written
from sysr.lower import VERILOG_KEYWORDS, lower_text
from sysr.pipeline import analyze
from sysr.types import MAX_WIDTH

from ..verilog.ports import PortInfo, compare_ports, sysr_ports
from .facts import Facts, Port

RESET_NAME = re.compile(r"(s?(reset|rst)|r)(_?n|_b)?", re.I)
_SYSR_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HOLE = re.compile(r"\?(r#)?[A-Za-z_]\w*|\?")


def stub(facts: Facts, title: str) -> tuple[str | None, str]:
    """(stub.sysr's text, "") or (None, why the task is not expressible in sysr)."""
    if facts.ports is None or not facts.elaborated:
        return None, f"Yosys could not elaborate the reference, so its clock and reset are unknown: {facts.error}"
    kinds, why = port_kinds(facts)
    if why:
        return None, why
    text = render(facts.ports, kinds, title, facts.params, facts.param_widths)
    head, rest = text.split("\n", 2)[:2], text.split("\n", 2)[2]
    text = "\n".join(head + clock_notes(facts) + [rest])
    why = check(text, facts.ports)
    return (None, why) if why else (text, "")


def port_kinds(facts: Facts) -> tuple[dict[str, str], str]:
    """Port name -> sysr port kind, or why the interface cannot be written in sysr."""
    for p in facts.ports or []:
        if p.direction == "inout":
            return {}, f"port `{p.name}` is inout; sysr ports are inputs and outputs"
        if p.width > MAX_WIDTH:
            return {}, f"port `{p.name}` is {p.width} bits wide; sysr types are at most {MAX_WIDTH} bits (T011)"
        if not _SYSR_NAME.fullmatch(p.name):
            return {}, f"port `{p.name}` has a name sysr cannot write"
    if facts.odd:
        return {}, f"the reference has {', '.join(sorted(facts.odd))}, which sysr cannot write"
    if facts.internal_clock:
        return {}, "the reference clocks logic with a signal it computes (a clock that is not an input port)"
    if facts.internal_async:
        return {}, "the reference resets logic asynchronously with a signal it computes"
    kinds: dict[str, str] = {}
    clocks = sorted(facts.clocks)
    for name, _ in clocks:  # any number, at either edge or both (reference §4.10)
        kinds[name] = "clock"
    for name, high in sorted(facts.async_resets):  # one per domain, each of one polarity (§4.10)
        if (name, not high) in facts.async_resets:
            return {}, f"the reference uses `{name}` as an asynchronous reset of both polarities"
        kinds[name] = "areset" if high else "areset_n"
    if not facts.async_resets and clocks:
        named = [p.name for p in facts.ports or [] if p.direction == "input" and p.width == 1
                 and RESET_NAME.fullmatch(p.name) and p.name not in kinds]
        if len(named) > 1:
            named = [n for n in named if n in facts.sync_resets] or named
        if len(named) == 1:
            name = named[0]
            known = {p for p in facts.sync_resets.get(name, ()) if p is not None}
            if len(known) > 1:
                return {}, f"the reference uses `{name}` as a synchronous reset of both polarities"
            high = known.pop() if known else not name.lower().endswith(("n", "_b"))
            kinds[name] = "reset" if high else "reset_n"
        elif len(named) > 1:  # several synchronous resets: each one Yosys finds, of one polarity
            known = {n: {p for p in facts.sync_resets.get(n, ()) if p is not None} for n in named}
            if not all(len(k) == 1 for k in known.values()):
                return {}, (f"the reference has several inputs named like resets ({', '.join(named)}), and Yosys "
                            "does not find each resetting flip-flops at one polarity: which are resets is unknown")
            for n, k in known.items():
                kinds[n] = "reset" if k.pop() else "reset_n"
    return kinds, ""


def clock_notes(facts: Facts) -> list[str]:
    """Comment lines for a reference with several clocks or a falling edge: how sysr writes its
    clocked blocks (§4.10)."""
    edges: dict[str, set[bool]] = {}
    for name, rising in facts.clocks:
        edges.setdefault(name, set()).add(rising)
    resets = {n for n, _ in facts.async_resets}
    if len(edges) < 2 and all(e == {True} for e in edges.values()) and len(resets) < 2:
        return []
    out = []
    for name in sorted(edges):
        w = written(name)
        blocks = [f"`seq({'' if rising else 'falling '}{w}{_reset_of(facts, name, rising)}) {{ ... }}`"
                  for rising in sorted(edges[name], reverse=True)]
        out.append(f"// `{name}` clocks the reference at its {' and '.join('rising' if r else 'falling' for r in sorted(edges[name], reverse=True))} "
                   f"edge: {' and '.join(blocks)}")
    return out


def _reset_of(facts: Facts, clock: str, rising: bool) -> str:
    """`, rst` when the reference has several asynchronous resets and one of them resets the
    flip-flops of this clock and edge (a `seq` block names its reset, §4.10), else ""."""
    if len({n for n, _ in facts.async_resets}) < 2:
        return ""
    own = sorted({r for r, c, e in facts.reset_clocks if c == clock and e == rising})
    return f", {written(own[0])}" if len(own) == 1 else ""


def render(ports: list[Port], kinds: dict[str, str], title: str, params: dict[str, int] | None = None,
           param_widths: dict[str, str] | None = None) -> str:
    decls, holes, notes = [], [], []
    params, param_widths = params or {}, param_widths or {}
    for p in ports:
        name = written(p.name)
        if p.name in kinds:
            decls.append(f"{name}: {kinds[p.name]}")
            continue
        ty = "bool" if p.width == 1 and not p.signed else f"{'s' if p.signed else 'u'}{p.width}"
        wide = param_widths.get(p.name)
        if wide is not None and params.get(wide) == p.width and not (p.offset or p.upto):
            ty = f"{'s' if p.signed else 'u'}[{written(wide)}]"  # `[WIDTH-1:0]` in the reference
        if p.direction == "input":
            decls.append(f"{name}: in {ty}")
        else:
            decls.append(f"{name}: out {ty}")
            holes.append(f"  {name} = ?{name};")
        if p.offset or p.upto:
            lsb = p.offset if not p.upto else p.offset + p.width - 1
            notes.append(f"// `{p.name}` is declared {p.range} in the Verilog: its bit 0 here is {p.name}[{lsb}]")
    generic = f"<{', '.join(f'{written(n)}: int = {v}' for n, v in params.items())}>" if params else ""
    head = f"module TopModule{generic}(" + ",\n                 ".join(_lines(decls)) + ") {"
    return "\n".join([f"// {title}", "// One hole per output: replace each, keep the ports as they are.", *notes,
                      head, *holes, "}", ""])


def _lines(decls: list[str], width: int = 80) -> list[str]:
    """The declarations joined a few to a line."""
    out, line = [], ""
    for d in decls:
        if line and len(line) + len(d) + 2 > width:
            out.append(line)
            line = d
        else:
            line = f"{line}, {d}" if line else d
    return out + [line] if line else out


def check(text: str, ports: list[Port]) -> str:
    """"" when the stub has only hole errors and lowers to `ports`; else what is wrong."""
    outcome = analyze(text)
    errors = [d for d in outcome.diagnostics if d.severity.name == "ERROR"]
    others = [d for d in errors if not d.code.startswith("H")]
    if others:
        d = others[0]
        return f"the generated stub is rejected by sysr check: {d.code} {d.message}"
    verilog, _ = lower_text(_HOLE.sub("0", text), "stub.sysr")
    if outcome.design is None or verilog is None:
        return "the generated stub does not lower to Verilog with its holes filled"
    got = sysr_ports(outcome.design)
    want = [PortInfo(p.name, p.direction, p.width) for p in ports]
    escaped = [p.name for p in got if p.name in VERILOG_KEYWORDS]
    if escaped:
        return f"port `{escaped[0]}` is a Verilog keyword, which the lowering would rename"
    differs = compare_ports(got, want)
    return f"the stub's ports differ from the reference's: {differs}" if differs else ""
