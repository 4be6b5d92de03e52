"""Reject candidate Verilog that could steer the judge, before any tool sees it.

A candidate may describe hardware and nothing else: no system tasks or functions beyond
`$signed`, `$unsigned` and `$clog2` (no printing a verdict, no file access, no `$finish`), no
hierarchical references (no reaching into the testbench), no `force`/`release`/`defparam`, no
`include. Comments and string literals are removed before the scan so they cannot hide or fake
anything. The simulation's verdict is also made unforgeable by a nonce (see `bench.score`).
"""

from __future__ import annotations

import re

ALLOWED_SYSTEM = {"$signed", "$unsigned", "$clog2"}
FORBIDDEN_WORDS = {"force", "release", "defparam", "deassign"}

_COMMENTS_STRINGS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.S)
_SYSTEM = re.compile(r"\$[A-Za-z_][\w$]*")
_HIER = re.compile(r"(?<![\w$.'])([A-Za-z_][\w$]*)\s*\.\s*([A-Za-z_][\w$]*)")
_WORD = re.compile(r"\b[A-Za-z_][\w$]*\b")
_DIRECTIVE = re.compile(r"`\s*(include)\b")


def strip(text: str) -> str:
    """The text with comments and string literals blanked (line structure kept)."""
    return _COMMENTS_STRINGS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def forbidden(text: str) -> str | None:
    """None when the candidate is acceptable; else a message naming the first offending construct."""
    code = strip(text)
    for m in _DIRECTIVE.finditer(code):
        return f"line {_line(code, m.start())}: `include is not allowed in a candidate"
    for m in _SYSTEM.finditer(code):
        if m.group(0) not in ALLOWED_SYSTEM:
            return (f"line {_line(code, m.start())}: the system task or function `{m.group(0)}` is not "
                    "allowed in a candidate (only $signed, $unsigned and $clog2)")
    for m in _HIER.finditer(code):
        return (f"line {_line(code, m.start())}: hierarchical reference `{m.group(1)}.{m.group(2)}` "
                "is not allowed in a candidate")
    for m in _WORD.finditer(code):
        if m.group(0) in FORBIDDEN_WORDS:
            return f"line {_line(code, m.start())}: `{m.group(0)}` is not allowed in a candidate"
    return None
