"""Judge candidate Verilog as the compilers will see it, and give every tool that same text.

A candidate may describe hardware and nothing else. The scorer preprocesses it once (Icarus's
own preprocessor, `iverilog -E`, in the sandbox, with no define that tells the tools apart) and
this module judges the preprocessed text token by token (`bench.verilog.lex`: one linear pass), so
macros (`` `define M(a) a`` then `` `M($)fopen``), token pasting (`` $``name``), `` `ifdef ``
and `` `ifndef YOSYS `` are seen as expanded, and escaped identifiers (`\\hide/*`) are read as
the compilers read them. Rejected, with the line of the original when preprocessing kept the
lines where they were, else of the preprocessed text (and the message says which):

- system tasks and functions other than `$signed`, `$unsigned` and `$clog2` (no printing a
  verdict, no file access, no `$finish`, no `$value$plusargs`); a SystemVerilog task allows a
  few more pure functions (`bench.judge.dialect`), passed as `system`;
- hierarchical names however spelled (`tb.step`, `tb.\\step `, `blk[0].x`): a candidate cannot
  reach into the testbench;
- `disable`, `force`, `release`, `deassign`, `defparam`; `` `include `` (the text `include
  anywhere in the candidate, even in a comment, and whatever file the preprocessor read besides
  the candidate, so a macro cannot build one: see `bench.judge.score`);
- any compiler directive left after preprocessing but `` `timescale `` and `` `default_nettype ``,
  each alone on its line in its plain form (which no define affects and both tools read
  alike), so the text Yosys reads has nothing left for its own preprocessor, whatever it
  defines (`YOSYS`, `SYNTHESIS`);
- what the tools disagree on, so that no stage can be shown a different design: attributes
  other than memory-mapping hints and `keep` (Yosys acts on `full_case`, `parallel_case`,
  `blackbox`...; Icarus ignores them), escaped identifiers holding `/`, `*`, `"`, `` ` ``, `\\`
  (Icarus's preprocessor reads `\\hide/*` as the start of a comment) or `$` (Icarus runs
  `\\$finish ` and `\\$fopen ` as the system tasks, which Yosys cannot resolve), strings that do not end on
  their line or hold a backtick, and characters outside printable ASCII, tab and newline.

What the tools would elaborate differently (delays, constant conditions they evaluate apart) is
refused after this, on a real parse of the same text (`bench.judge.agree`).

The text given to Yosys and Icarus is the preprocessed text with every comment blanked (so
`// synopsys translate_off` and similar comments that Yosys obeys are gone), line structure
kept. The simulation's verdict is also made unforgeable by a nonce (see `bench.judge.simulate`), and
the tools run in a sandbox (`bench.judge.sandbox`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..verilog.lex import Lines, scan, tokens

CANDIDATE_LIMIT = 1024 * 1024  # bytes of a candidate as written (either language): `too-large` above
PREPROCESSED_LIMIT = 2 * 1024 * 1024  # bytes of preprocessed text: `resource-limit` above

ALLOWED_SYSTEM = {"$signed", "$unsigned", "$clog2"}
FORBIDDEN_WORDS = {"disable", "force", "release", "deassign", "defparam"}
# The directives a candidate may keep, each alone on its line in exactly this form (Yosys reads
# `celldefine and the rest of its line as one directive, Icarus does not: such splits are out).
ALLOWED_DIRECTIVES = {
    "timescale": re.compile(r"[ \t]*`timescale[ \t]+\d+[ \t]*[munpf]?s[ \t]*/[ \t]*\d+[ \t]*[munpf]?s[ \t]*"),
    "default_nettype": re.compile(r"[ \t]*`default_nettype[ \t]+(none|wire)[ \t]*"),
}
ALLOWED_ATTRIBUTES = {"keep", "syn_keep", "ram_style", "ramstyle", "syn_ramstyle", "rom_style", "romstyle",
                      "syn_romstyle", "ram_block", "rom_block", "logic_block"}
_ESCAPED_BAD = set('/*"`\\$')


@dataclass(frozen=True)
class Judged:
    problem: str | None  # why the candidate is forbidden, or None
    text: str  # what the tools are given: the preprocessed text, comments blanked


def raw_problem(source: str) -> str | None:
    """What is visible before preprocessing: an `include (lines of the original)."""
    at = source.find("`include")
    if at >= 0:
        return f"line {source.count(chr(10), 0, at) + 1}: `include is not allowed in a candidate"
    return None


def judge(pre: str, original: str, system: frozenset[str] | set[str] = ALLOWED_SYSTEM) -> Judged:
    """Judge the preprocessed text `pre` of the candidate `original`: its first problem, and the
    text for the tools. `system`: the system functions allowed."""
    lines = Lines(pre)
    same = len(lines) == original.count("\n") + 1  # the preprocessor only ever adds lines
    pieces: list[str] = []
    problem = None
    last = ""  # the last significant character before the current token
    dot = None  # where a `.` after a name is, waiting to see whether a name follows
    for kind, text, pos in scan(pre, _WORDS):
        if kind == "comment":
            pieces.append(_blank(text))
            continue
        pieces.append(text)
        body = text.lstrip() if kind == "code" else text
        if not body:
            continue
        if dot is not None:
            after = _NAME.match(body)
            if kind in ("code", "word", "escaped") and after:
                problem = (f"{_where(lines, same, dot)}: hierarchical reference `{_show(_name_before(pre, dot))}."
                           f"{_show(after.group())}` is not allowed in a candidate")
            dot = None
        if problem is None:
            why = _problem(kind, text, last, pre, pos, system)
            if why == _DOT:
                dot = pos
            elif why:
                problem = f"{_where(lines, same, pos)}: {why}"
        if problem is not None:
            return Judged(problem, "")
        tail = body.rstrip()
        if tail:
            last = "a" if kind in ("escaped", "system", "word") else tail[-1]
    return Judged(None, "".join(pieces))


_WORDS = frozenset(FORBIDDEN_WORDS)
_DOT = "dot"
_NAME = re.compile(r"\\\S+|[A-Za-z_][A-Za-z0-9_$]*")
_BEFORE_DOT = re.compile(r"([A-Za-z_][\w$]*\s*\[[^\[\]\n]*\]|\\\S+|[A-Za-z0-9_$']+|\])\s*$")
_NAME_END = re.compile(r"[A-Za-z0-9_$\]]")  # a name, or an index (`blk[0].x`), can start a path


def _where(lines: Lines, same: bool, pos: int) -> str:
    n = lines.line(pos)
    return f"line {n}" if same else f"line {n} of the preprocessed candidate"


def _blank(comment: str) -> str:
    return re.sub(r"[^\n]", " ", comment)


def _problem(kind: str, text: str, last: str, pre: str, pos: int, system) -> str | None:
    if kind == "system" and text not in system:
        return (f"the system task or function `{text}` is not allowed in a candidate "
                f"(only {_listed(system)})")
    if kind == "word":
        return f"`{text}` is not allowed in a candidate"
    if kind == "directive":
        name = text[1:]
        if name == "include":
            return "`include is not allowed in a candidate"
        if name not in ALLOWED_DIRECTIVES:
            return (f"the compiler directive {text} is left after preprocessing; only `timescale and "
                    "`default_nettype may remain in a candidate")
        if not ALLOWED_DIRECTIVES[name].fullmatch(_line_without_comments(pre, pos)):
            return (f"{text} must stand alone on its line, as `timescale 1ns/1ps or "
                    "`default_nettype none (or wire)")
    if kind == "escaped":
        body = text[1:]
        if not body or not all(c.isascii() and c.isprintable() and c not in _ESCAPED_BAD for c in body):
            return (f"the escaped identifier `{_show(text)}` is not allowed: an escaped identifier may not "
                    "be empty or hold `/`, `*`, `\"`, `` ` ``, `\\` or `$`, on which the tools disagree "
                    "(Icarus runs `\\$finish ` as the system task)")
    if kind == "string":
        if len(text) < 2 or not text.endswith('"') or "\n" in text:
            return "a string literal does not end on its line"
        if "`" in text or not all(c.isascii() and c.isprintable() for c in text):
            return "a string literal holds a backtick or a character outside printable ASCII"
    if kind == "char":
        if text == "`":
            return "a stray backtick is not allowed in a candidate"
        if text == "." and _NAME_END.match(last):
            return _DOT
        if not (text.isascii() and (text.isprintable() or text == "\t")):
            return f"the character U+{ord(text):04X} is not allowed outside comments"
    if kind == "attr" and not (text == "(*" and last == "@"):
        return _attribute_problem(pre, pos)
    return None


def _listed(names) -> str:
    order = sorted(names, key=lambda n: (n not in ALLOWED_SYSTEM, n != "$signed", n != "$unsigned", n))
    return ", ".join(order[:-1]) + " and " + order[-1]


def _line_without_comments(pre: str, pos: int) -> str:
    start = pre.rfind("\n", 0, pos) + 1
    end = pre.find("\n", pos)
    line = pre[start:end if end >= 0 else len(pre)]
    return re.sub(r"/\*.*?\*/|/\*.*$|//.*$", " ", line)


def _attribute_problem(pre: str, pos: int) -> str | None:
    """The names in the attribute opened at `pos`, token by token up to its end."""
    close = "*)" if pre.startswith("(*", pos) else "*}"
    prev = ""
    for t in tokens(pre, pos + 2):
        if t.kind in ("space", "comment"):
            continue
        if t.text == close:
            return None
        if t.kind == "ident" and prev in ("", ","):
            if t.text not in ALLOWED_ATTRIBUTES:
                return (f"the attribute `{t.text}` is not allowed in a candidate (Yosys acts on some "
                        "attributes that Icarus ignores); allowed: " + ", ".join(sorted(ALLOWED_ATTRIBUTES)))
        elif t.kind in ("attr", "directive"):
            break
        prev = t.text
    return "an attribute `(* ... *)` that does not end"


def _name_before(pre: str, pos: int) -> str:
    """The name (or bracket) just before the `.` at pos, for the message."""
    m = _BEFORE_DOT.search(pre, max(0, pos - 200), pos)
    return m.group(1) if m else ""


def _show(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."
