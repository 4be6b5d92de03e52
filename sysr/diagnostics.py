"""Diagnostics as data: the code table, `Diagnostic`, traces, and their text and JSON renderings.

Every check in sysr reports through `Diagnostic`; nothing user-facing is raised as an exception.
The code table is the single source of the stable codes, their titles and the documentation.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .front.syntax import Span


class Severity(enum.IntEnum):
    NOTE = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()


# code -> title. Stable: never renumber; retire a code by leaving it here unused.
CODES: dict[str, str] = {
    "P001": "unexpected token",
    "P002": "unexpected character",
    "P003": "unexpected end of file",
    "P004": "malformed literal or type name",
    "P005": "a file holds exactly one module",
    "N001": "unknown name",
    "N002": "duplicate definition",
    "N003": "unknown type",
    "N004": "unknown enum or variant",
    "N005": "unknown function",
    "T001": "type mismatch",
    "T002": "literal does not fit its type",
    "T003": "literal needs a type",
    "T004": "condition is not bool",
    "T005": "index or slice out of range",
    "T006": "invalid cast",
    "T007": "match is not exhaustive",
    "T008": "operator not defined for this type",
    "T009": "wrong number of arguments",
    "T010": "not a constant",
    "T011": "width out of range",
    "T012": "not a value",
    "A001": "not assigned on every path (would be a latch)",
    "A002": "more than one driver",
    "A003": "combinational cycle",
    "A004": "`=` to something that is not a wire or output",
    "A005": "`<=` to something that is not a register",
    "A006": "never driven",
    "A007": "read before it is assigned",
    "A008": "clock or reset missing or misused",
    "A009": "register without a reset value",
    "A010": "recursive function",
    "S001": "contract names design state",
    "S002": "design logic reads ghost state",
    "S003": "invariant names an input",
    "S004": "`prev` outside a specification",
    "S005": "ghost logic drives design state",
    "S006": "quantifier outside a property",
    "H001": "hole",
    "V001": "requirements cannot be met",
    "V002": "property may not hold",
    "V003": "not proven",
    "V007": "property is not inductive",
}


@dataclass(frozen=True)
class Related:
    span: Span
    message: str


@dataclass(frozen=True)
class Trace:
    """A table of values per cycle: what a failed proof shows. Values are already formatted."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]  # one per cycle, values in column order
    failing_row: int  # index into rows
    kinds: tuple[str, ...] = ()  # per column: "in", "out", "reg", "ghost", "wire", ...
    raw: tuple[tuple[int | None, ...], ...] = ()  # integer values, for VCD and JSON
    widths: tuple[int, ...] = ()

    def render(self) -> str:
        head = ("cycle",) + self.columns
        body = [(str(i),) + row for i, row in enumerate(self.rows)]
        widths = [max(len(r[c]) for r in [head] + body) for c in range(len(head))]
        lines = [self.title]
        for i, r in enumerate([head] + body):
            mark = "> " if i - 1 == self.failing_row else "  "
            lines.append(mark + "  ".join(v.rjust(w) for v, w in zip(r, widths)).rstrip())
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {
            "title": self.title,
            "columns": list(self.columns),
            "kinds": list(self.kinds),
            "rows": [list(r) for r in self.rows],
            "failing_cycle": self.failing_row,
        }


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    severity: Severity = Severity.ERROR
    notes: tuple[str, ...] = ()
    related: tuple[Related, ...] = ()
    trace: Trace | None = None

    def __post_init__(self) -> None:
        assert self.code in CODES, f"unknown diagnostic code {self.code}"

    def to_json(self) -> dict:
        out = {
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "span": span_json(self.span),
            "notes": list(self.notes),
            "related": [{"span": span_json(r.span), "message": r.message} for r in self.related],
        }
        if self.trace is not None:
            out["trace"] = self.trace.to_json()
        return out


def span_json(span: Span) -> dict:
    return {"line": span.line, "column": span.column,
            "end_line": span.end_line, "end_column": span.end_column}


def error(code: str, message: str, span: Span, *notes: str, related: tuple[Related, ...] = ()) -> Diagnostic:
    return Diagnostic(code, message, span, Severity.ERROR, tuple(notes), related)


def sort_key(d: Diagnostic) -> tuple:
    return (d.span.line, d.span.column, d.code, d.message)


def _excerpt(source_lines: list[str], span: Span, label: str = "") -> list[str]:
    if not (1 <= span.line <= len(source_lines)):
        return []
    raw = source_lines[span.line - 1].rstrip("\n")
    text = raw.expandtabs(4)
    gutter = str(span.line).rjust(4)

    def shown(col: int) -> int:  # a column in the raw line -> the column once tabs are expanded
        return len(raw[:max(col, 1) - 1].expandtabs(4)) + 1 + max(col - 1 - len(raw), 0)

    start = shown(span.column)
    end = shown(span.end_column) if span.end_line == span.line else len(text) + 1
    end = max(end, start + 1)
    marker = " " * (start - 1) + "^" + "~" * (end - start - 1)
    return [f"{gutter} | {text}", f"{' ' * 4} | {marker}" + (f" {label}" if label else "")]


def render(diag: Diagnostic, filename: str, source: str) -> str:
    """Render one diagnostic the way a compiler does: location, message, excerpt, notes, trace."""
    lines_src = source.splitlines()
    s = diag.span
    out = [f"{filename}:{s.line}:{s.column}: {diag.severity}[{diag.code}]: {diag.message}"]
    out += _excerpt(lines_src, s)
    for rel in diag.related:
        out.append(f"{filename}:{rel.span.line}:{rel.span.column}: note: {rel.message}")
        out += _excerpt(lines_src, rel.span)
    for note in diag.notes:
        first, *rest = note.splitlines() or [""]
        out.append(f"     = note: {first}")
        out += [f"       {r}" for r in rest]
    if diag.trace is not None:
        out += ["     " + l for l in diag.trace.render().splitlines()]
    return "\n".join(out)
