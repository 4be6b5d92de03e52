"""The lowering's statement IR, its generated names, pruning and printing.

Statements are lowered to a small tree of Verilog statements whose expressions are finished
text. Names the lowering invents (temporaries, hoisted wires, helper functions) appear in
that text as tokens and are named only at the end, in order of first appearance, so that a
temporary pruned away leaves no gap and the output stays deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .names import Names

INDENT = "  "
LINE = 100  # a ?: chain longer than this goes one arm a line
_TOKEN = re.compile("\x00([0-9]+)\x00")


# ---- statements ------------------------------------------------------------------------

@dataclass
class Assign:
    lhs: str
    rhs: str
    op: str  # "=" (blocking) or "<=" (non-blocking)
    kind: str  # "temp", "reg" (a register or combinational signal) or "mem" (a memory element)
    temp: str | None = None  # the token a "temp" assignment defines
    chain: tuple | None = None  # the rhs as a ?: chain, to break over lines when long
    signal: str | None = None  # the source signal a "reg" or "mem" assignment writes


@dataclass
class If:
    cond: str
    cond_atomic: bool
    then: list
    else_: list
    chain: bool = True  # print a lone `if` in the else branch as `else if`


@dataclass
class Arm:
    labels: list[str] | None  # None: the default arm
    body: list
    comment: str | None = None


@dataclass
class Case:
    subject: str
    arms: list[Arm]
    compact: bool = False  # an arm of one short assignment on one line (a decoded element write)


@dataclass
class Check:
    """An immediate `assert` or `assume` (the `--formal` output only), with a label and a comment."""
    cond: str
    kind: str = "assert"
    label: str | None = None
    comment: str | None = None


@dataclass
class Group:
    """Statements under a comment: an unrolled loop."""
    comment: str
    body: list


# ---- generated names -------------------------------------------------------------------

@dataclass
class Generated:
    kind: str  # "reg" (a temporary), "wire" (a hoisted wire with `init`), "fn" (a helper)
    base: str
    width: int
    init: str | None = None
    lines: list[str] = field(default_factory=list)  # a helper's definition


class Gen:
    """Names invented by the lowering, referred to by tokens until the end."""

    def __init__(self) -> None:
        self.items: list[Generated] = []
        self.keys: dict[tuple, str] = {}
        self.names: dict[int, str] = {}  # item index -> its name, once named

    def _add(self, item: Generated, key: tuple | None = None) -> str:
        if key is not None and key in self.keys:
            return self.keys[key]
        token = f"\x00{len(self.items)}\x00"
        self.items.append(item)
        if key is not None:
            self.keys[key] = token
        return token

    def temp(self, base: str, width: int) -> str:
        return self._add(Generated("reg", base, width))

    def wire(self, base: str, width: int, init: str) -> str:
        """A wire driven by `init`; the same (base, init) gives the same wire."""
        return self._add(Generated("wire", base, width, init), ("wire", base, init))

    def helper(self, key: tuple, base: str, width: int, make) -> str:
        """A helper function, made once per key; `make(token)` gives its definition lines."""
        if key in self.keys:
            return self.keys[key]
        token = self._add(Generated("fn", base, width), key)
        self.items[-1].lines = make(token)
        return token

    def item(self, token: str) -> Generated:
        return self.items[int(token.strip("\x00"))]

    def reads(self, text: str) -> set[str]:
        """The tokens `text` depends on, through hoisted wires' drivers."""
        out: set[str] = set()
        for m in _TOKEN.finditer(text):
            tok = m.group(0)
            if tok not in out:
                out.add(tok)
                init = self.item(tok).init
                if init:
                    out |= self.reads(init)
        return out

    def name_all(self, texts: list[str], names: Names) -> list[tuple[str, Generated]]:
        """Name every token used in `texts` in order of appearance, a wire after what it reads:
        (name, item) of each, in that order."""
        used: list[int] = []

        def visit(text: str) -> None:
            for m in _TOKEN.finditer(text):
                i = int(m.group(1))
                if i in seen:
                    continue
                seen.add(i)
                item = self.items[i]
                visit(item.init or "")  # what a wire reads is declared (and named) first
                for line in item.lines:
                    visit(line)
                used.append(i)
                names.claim(("gen", i), item.base)

        seen: set[int] = set()
        for t in texts:
            visit(t)
        self.names.update({i: names[("gen", i)] for i in used})
        return [(self.names[i], self.items[i]) for i in used]

    def subst(self, text: str) -> str:
        return _TOKEN.sub(lambda m: self.names[int(m.group(1))], text)


# ---- pruning ---------------------------------------------------------------------------

def prune(stmts: list, keep, gen: Gen, live: set[str] | None = None) -> tuple[list, set[str]]:
    """Drop assignments `keep` rejects, temporaries nobody reads, and statements left empty.

    A backward liveness pass: `live` is the set of temporaries read after `stmts`.
    """
    live = set(live or ())
    out: list = []
    for st in reversed(stmts):
        if isinstance(st, Assign):
            if st.kind == "temp":
                if st.temp not in live:
                    continue
                live = (live - {st.temp}) | gen.reads(st.rhs)
            elif keep(st):
                live |= gen.reads(st.lhs) | gen.reads(st.rhs)
            else:
                continue
            out.append(st)
        elif isinstance(st, If):
            then, lt = prune(st.then, keep, gen, live)
            else_, le = prune(st.else_, keep, gen, live)
            if then or else_:
                live = lt | le | gen.reads(st.cond)
                out.append(If(st.cond, st.cond_atomic, then, else_, st.chain))
        elif isinstance(st, Case):
            arms, lives = [], []
            for arm in st.arms:
                body, la = prune(arm.body, keep, gen, live)
                arms.append(Arm(arm.labels, body, arm.comment))
                lives.append(la)
            if any(a.body for a in arms):
                live = set().union(*lives) | gen.reads(st.subject)
                out.append(Case(st.subject, arms, st.compact))
        elif isinstance(st, Group):
            body, live = prune(st.body, keep, gen, live)
            if body:
                out.append(Group(st.comment, body))
        elif isinstance(st, Check):
            live |= gen.reads(st.cond)
            out.append(st)
    out.reverse()
    return out, live


def leaves(stmts: list):
    """Every assignment and check in `stmts`, in order."""
    for st in stmts:
        if isinstance(st, (Assign, Check)):
            yield st
        elif isinstance(st, If):
            yield from leaves(st.then)
            yield from leaves(st.else_)
        elif isinstance(st, Case):
            for arm in st.arms:
                yield from leaves(arm.body)
        elif isinstance(st, Group):
            yield from leaves(st.body)


def assignments(stmts: list):
    """Every assignment in `stmts`, in order."""
    return (st for st in leaves(stmts) if isinstance(st, Assign))


def nested_temps(stmts: list, depth: int = 0, out: list | None = None) -> list[str]:
    """Temporaries assigned inside an `if` or `case`: a comb block gives them a default."""
    out = [] if out is None else out
    for st in stmts:
        if isinstance(st, Assign) and st.kind == "temp" and depth > 0 and st.temp not in out:
            out.append(st.temp)
        elif isinstance(st, If):
            nested_temps(st.then, depth + 1, out)
            nested_temps(st.else_, depth + 1, out)
        elif isinstance(st, Case):
            for arm in st.arms:
                nested_temps(arm.body, depth + 1, out)
        elif isinstance(st, Group):
            nested_temps(st.body, depth, out)
    return out


# ---- printing --------------------------------------------------------------------------

def render(stmts: list, depth: int) -> list[str]:
    lines: list[str] = []
    pad = INDENT * depth
    for st in stmts:
        if isinstance(st, Assign):
            lines += assignment(f"{pad}{st.lhs} {st.op} ", st.rhs, st.chain)
        elif isinstance(st, If):
            lines += _render_if(st, depth, pad)
            lines.append(f"{pad}end")
        elif isinstance(st, Case):
            lines.append(f"{pad}case ({st.subject})")
            for arm in st.arms:
                label = "default" if arm.labels is None else ", ".join(arm.labels)
                note = f"  // {arm.comment}" if arm.comment else ""
                if not arm.body:
                    lines.append(f"{pad}{INDENT}{label}: ;{note}")
                    continue
                if st.compact and len(arm.body) == 1 and isinstance(arm.body[0], Assign):
                    one = render(arm.body, 0)
                    if len(one) == 1:
                        lines.append(f"{pad}{INDENT}{label}: {one[0]}{note}")
                        continue
                lines.append(f"{pad}{INDENT}{label}: begin{note}")
                lines += render(arm.body, depth + 2)
                lines.append(f"{pad}{INDENT}end")
            lines.append(f"{pad}endcase")
        elif isinstance(st, Group):
            lines.append(f"{pad}// {st.comment}")
            lines += render(st.body, depth)
        elif isinstance(st, Check):
            if st.comment:
                lines.append(f"{pad}// {st.comment}")
            label = f"{st.label}: " if st.label else ""
            lines.append(f"{pad}{label}{st.kind} ({st.cond});")
    return lines


def assignment(prefix: str, rhs: str, chain: tuple | None) -> list[str]:
    """`prefix rhs;`, with a long `c1 ? a : c2 ? b : d` chain one condition a line."""
    line = f"{prefix}{rhs};"
    if chain is None or len(line) <= LINE:
        return [line]
    arms, last = chain
    pad = " " * (len(prefix) - 2)
    lines = [f"{prefix}{arms[0][0]} ? {arms[0][1]}"]
    lines += [f"{pad}: {c} ? {v}" for c, v in arms[1:]]
    return lines + [f"{pad}: {last};"]


def _render_if(st: If, depth: int, pad: str, prefix: str = "") -> list[str]:
    """`if (c) begin ... end else ...` without the final `end`; `else if` chains stay flat."""
    then, else_, cond = st.then, st.else_, st.cond
    if not then:
        then, else_ = else_, []
        cond = f"!{cond}" if st.cond_atomic else f"!({cond})"
    lines = [f"{pad}{prefix}if ({cond}) begin"] + render(then, depth + 1)
    if st.chain and len(else_) == 1 and isinstance(else_[0], If):
        return lines + _render_if(else_[0], depth, pad, "end else ")
    if else_:
        lines += [f"{pad}end else begin"] + render(else_, depth + 1)
    return lines
