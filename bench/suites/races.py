"""The race between an upstream stimulus's blocking assignments and the designs' clocked blocks.

VerilogEval's and ChipBench's testbenches drive the designs' inputs from a `stimulus_gen` module,
and many write them with BLOCKING assignments right after an edge wait (`@(posedge clk); a = 1;`).
The reference and the candidate are triggered by that same edge, so a clocked block that reads
the input directly may run after the assignment and see the new value, while a design that reads
it a scheduling step later (through a continuous assignment, as lowered or hand-structured
Verilog often does) sees the old one: whether a correct candidate passes then depends on how the
reference happens to be written.

Two things are here, both on the upstream testbench read as untrusted text (comments and strings
blanked before any matching, the stimulus found by its module name, nothing evaluated):

- `stimulus`: the stimulus module's output ports (the signals that feed both designs) and the
  blocking assignments to them in its body. `fix` rewrites exactly those to nonblocking (`<=`),
  so every design samples the values from before the edge, the standard synchronous semantics,
  the same whichever order the simulator runs the blocks in. Assignments inside parentheses
  (a `for` header), declarations, `assign`/`force` and assignments to any other signal (loop
  variables, locals) are left alone; assignments that are already `<=` are not touched.
- `delayed`: the reference with every input read through a continuous assignment (`assign
  race__d = d;`), the way lowered or hand-structured Verilog reads it. Icarus updates such a wire
  in an event of its own, after the clocked blocks the same edge woke, so this reference sees the
  values from before a blocking write at that edge. Scored against the testbench as a candidate
  (`bench.suites.build.check_races`), it fails when a correct design written that way is judged
  wrong because the reference reads an input at the edge it is written. A plain wire and not an
  `assign #0`: the late reference is judged as any candidate is, and the scorer refuses delays in
  a candidate. The check sees one direction only: a reference that itself reads every input
  late passes it, yet would fail a correct design that reads them directly; `fix` removes both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..verilog.lex import blank
from .facts import Port
from .text import rename

MODULE = "stimulus_gen"
WRAPPED = "race__Ref"
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_LHS = re.compile(r"(\{[^{};()=]*\}|[A-Za-z_][A-Za-z0-9_$]*(?:\s*\[[^\]\n;=]*\])*)\s*=(?!=)")
_STARTS = ("begin", "else", "fork", "default", "initial", "always")  # words a statement may follow
_DELAY = re.compile(r"#\s*[0-9A-Za-z_.']+\s*$")


@dataclass(frozen=True)
class Stimulus:
    outputs: tuple[str, ...]  # the stimulus module's output ports
    blocking: tuple[int, ...]  # offsets in the testbench of the `=` of each blocking assignment to one


def _matching(text: str, at: int) -> int | None:
    """The offset of the `)` closing the `(` at `at`."""
    depth = 0
    for i in range(at, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


def _split(text: str) -> list[str]:
    """`text` cut at the commas outside brackets and parentheses."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def _outputs(header: str, body: str) -> list[str]:
    names, direction = [], None
    for part in _split(header):  # ANSI style: `output logic [3:0] a, b`
        part = re.sub(r"\[[^\]]*\]|=.*", " ", part, flags=re.S)
        words = _IDENT.findall(part)
        if words and words[0] in ("input", "output", "inout"):
            direction = words[0]
        if words and direction == "output":
            names.append(words[-1])
    for decl in re.finditer(r"\boutput\b([^;]*);", body):  # old style: `output [3:0] a, b;` in the body
        for part in _split(decl.group(1)):
            words = _IDENT.findall(re.sub(r"\[[^\]]*\]|=.*", " ", part, flags=re.S))
            if words:
                names.append(words[-1])
    return list(dict.fromkeys(names))


def _statement_start(text: str, at: int) -> bool:
    """Whether a statement may begin at `at` (what precedes it ends a statement or opens one)."""
    before = text[max(0, at - 256):at].rstrip()  # a bounded look back: the text may be megabytes long
    if not before:
        return False
    if before[-1] in ";)":
        return True
    if before[-1] == ":" and not before.endswith("::"):
        return True  # a case item or a label
    if _DELAY.search(before):
        return True
    word = re.search(r"[A-Za-z_][A-Za-z0-9_$]*$", before)
    return bool(word) and word.group(0) in _STARTS


def stimulus(test: str) -> Stimulus | None:
    """The stimulus module of a testbench and its blocking assignments to its outputs (None: no such module)."""
    clean = blank(test, frozenset({"comment", "string"}))  # offsets kept
    m = re.search(rf"\bmodule\s+{MODULE}\b", clean)
    if not m:
        return None
    end = re.compile(r"\bendmodule\b").search(clean, m.end())
    open_ = clean.find("(", m.end())
    if end is None or open_ < 0 or open_ > end.start():
        return None
    if re.match(r"\s*#", clean[m.end():open_]):  # a parameter list comes first
        close = _matching(clean, open_)
        open_ = clean.find("(", close) if close is not None else -1
        if open_ < 0 or open_ > end.start():
            return None
    close = _matching(clean, open_)
    if close is None or close > end.start():
        return None
    body_start = clean.find(";", close) + 1
    body = clean[body_start:end.start()]
    outputs = _outputs(clean[open_ + 1:close], body)
    depth, seen, found = 0, 0, []
    for lhs in _LHS.finditer(body):
        depth += body.count("(", seen, lhs.start()) - body.count(")", seen, lhs.start())
        seen = lhs.start()
        if depth > 0 or not _statement_start(body, lhs.start()):
            continue
        roots = _roots(lhs.group(1))
        if roots and all(r in outputs for r in roots):
            found.append(body_start + lhs.end() - 1)
    return Stimulus(tuple(outputs), tuple(found))


def _roots(lhs: str) -> list[str]:
    """The signals an assignment's target names (`{a, b[1]}` names a and b)."""
    inner = lhs[1:-1] if lhs.startswith("{") else lhs
    return [_IDENT.match(p.strip()).group(0) for p in _split(inner)
            if _IDENT.match(p.strip())] if inner.strip() else []


def fix(test: str, found: Stimulus | None = None) -> tuple[str, int]:
    """The testbench with the stimulus's blocking assignments to its outputs made nonblocking, and
    how many; `found`: `stimulus(test)`, when the caller has it already."""
    found = found or stimulus(test)
    if found is None or not found.blocking:
        return test, 0
    cuts = [0, *sorted(found.blocking)]
    pieces = [test[start:end] for start, end in zip(cuts, cuts[1:])] + [test[cuts[-1]:]]
    return "<".join(pieces), len(found.blocking)


def delayed(ref_v: str, ports: list[Port], top: str) -> str:
    """The reference (module `top` in `ref_v`) wrapped so that it reads every input through a continuous assignment."""

    header = ",\n".join(f"  {p.declaration()}" for p in ports)
    wires = [" ".join(w for w in ("  wire", "signed" if p.signed else "", p.range, f"race__{p.name};") if w) +
             f"\n  assign race__{p.name} = {p.name};" for p in ports if p.direction == "input"]
    conns = ", ".join(f".{p.name}({'race__' if p.direction == 'input' else ''}{p.name})" for p in ports)
    return (rename(ref_v, {top: WRAPPED}) +
            f"\n// The reference reading its inputs one scheduling step late (bench.suites.races).\n"
            f"module {top} (\n{header}\n);\n" + "\n".join(wires) + f"\n  {WRAPPED} race__ref ({conns});\nendmodule\n")
