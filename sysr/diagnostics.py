"""Diagnostics as data: the code table, `Diagnostic`, traces, and their text and JSON renderings.

Every check in sysr reports through `Diagnostic`; nothing user-facing is raised as an exception.
The code table is the single source of the stable codes, their titles and the documentation.
Renderings are bounded (`sysr.limits`): long messages, source lines, lists of notes and related
locations, and traces are cut where they are shown, with what was left out said; the data
itself stays whole.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from . import limits
from .front.syntax import Span


def clip(text: str, limit: int | None = None) -> str:
    """`text`, or its start with a note of how much was cut (at `limits.MAX_MESSAGE_CHARS`)."""
    limit = limits.MAX_MESSAGE_CHARS if limit is None else limit
    if len(text) <= limit:
        return text
    return text[:limit] + f" [... {len(text) - limit:,} more characters]"


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
    "P005": "no module, or no single top module",
    "P006": "a Verilog or SystemVerilog construct",
    "N001": "unknown name",
    "N002": "duplicate definition",
    "N003": "unknown type",
    "N004": "unknown enum or variant",
    "N005": "unknown function",
    "N006": "unknown module",
    "N007": "unknown port of an instance",
    "N008": "unknown parameter",
    "N009": "unknown field of a struct",
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
    "T013": "cycle count out of range",
    "T020": "divisor is the constant zero",
    "T021": "struct literal does not set every field",
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
    "A011": "instance input not bound exactly once",
    "A012": "module contains itself",
    "A013": "parameter not set exactly once",
    "A021": "the reset is never active in a `seq` block",
    "A022": "misplaced power-up value",
    "A023": "an extern module has a body",
    "A024": "not assignable in a fn, or `let mut` outside one",
    "S001": "contract names design state",
    "S002": "design logic reads ghost state",
    "S003": "invariant names an input",
    "S004": "`prev` outside a specification",
    "S005": "ghost logic drives design state",
    "S006": "quantifier outside a property",
    "S007": "property is never checked",
    "S008": "`next` or `within` outside a property's consequent",
    "H001": "hole",
    "V001": "requirements cannot be met",
    "V002": "property may not hold",
    "V003": "not proven",
    "V007": "property is not inductive",
    "V008": "cover is not reachable",
    "V009": "property holds vacuously",
    "V010": "cover reached",
    "L001": "file too large",
    "L002": "not a text file",
    "L003": "nesting too deep",
    "L004": "name or literal too long",
    "L005": "quantifiers expand too far",
    "L006": "too many signals",
    "L007": "design too large",
    "L008": "out of memory",
    "L009": "too many instances",
    "L010": "hierarchy too deep",
    "L011": "fn body unrolls too far",
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

    def window(self) -> tuple[int, int, int]:
        """(first row, end row, columns) shown: at most limits.MAX_TRACE_ROWS rows, as late as can be
        while keeping the failing one, and the first limits.MAX_TRACE_COLUMNS columns."""
        end = max(len(self.rows), self.failing_row + 1)
        start = max(0, end - limits.MAX_TRACE_ROWS)
        if self.failing_row < start:
            start, end = self.failing_row, self.failing_row + limits.MAX_TRACE_ROWS
        return start, min(end, len(self.rows)), min(len(self.columns), limits.MAX_TRACE_COLUMNS)

    def shown_rows(self) -> list[list[str]]:
        start, end, ncols = self.window()
        return [[clip(v, limits.MAX_CELL_CHARS) for v in row[:ncols]] for row in self.rows[start:end]]

    def omitted(self) -> list[str]:
        """What the shown part leaves out, in words."""
        start, end, ncols = self.window()
        out = []
        if start:
            out.append(f"cycles 0 to {start - 1} are not shown")
        if end < len(self.rows):
            out.append(f"cycles {end} to {len(self.rows) - 1} are not shown")
        if ncols < len(self.columns):
            out.append(f"{len(self.columns) - ncols} more columns are not shown")
        return out

    def render(self) -> str:
        start, _, ncols = self.window()
        head = ["cycle"] + [clip(c, limits.MAX_CELL_CHARS) for c in self.columns[:ncols]]
        body = [[str(start + i)] + row for i, row in enumerate(self.shown_rows())]
        widths = [max(len(r[c]) for r in [head] + body) for c in range(len(head))]
        lines = [self.title]
        for i, r in enumerate([head] + body):
            mark = "> " if i - 1 + start == self.failing_row else "  "
            lines.append(mark + "  ".join(v.rjust(w) for v, w in zip(r, widths)).rstrip())
        lines += [f"  ({note})" for note in self.omitted()]
        return "\n".join(lines)

    def to_json(self) -> dict:
        start, _, ncols = self.window()
        out = {
            "title": self.title,
            "columns": [clip(c, limits.MAX_CELL_CHARS) for c in self.columns[:ncols]],
            "kinds": list(self.kinds[:ncols]),
            "rows": self.shown_rows(),
            "failing_cycle": self.failing_row,
        }
        if start:
            out["first_cycle"] = start
        if self.omitted():
            out["omitted"] = self.omitted()
        return out


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
        notes, related = shown_notes(self), self.related[:limits.MAX_RELATED]
        out = {
            "code": self.code,
            "severity": str(self.severity),
            "message": clip(self.message),
            "span": span_json(self.span),
            "notes": notes,
            "related": [{"span": span_json(r.span), "message": clip(r.message)} for r in related],
        }
        if self.trace is not None:
            out["trace"] = self.trace.to_json()
        return out


def shown_notes(d: Diagnostic) -> list[str]:
    """The notes as shown: at most limits.MAX_NOTES, each clipped, then what was left out."""
    notes = [clip(n) for n in d.notes[:limits.MAX_NOTES]]
    if len(d.notes) > limits.MAX_NOTES:
        notes.append(f"{len(d.notes) - limits.MAX_NOTES} more notes are not shown")
    if len(d.related) > limits.MAX_RELATED:
        notes.append(f"{len(d.related) - limits.MAX_RELATED} more related locations are not shown")
    return notes


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
    first = 0  # a long line is shown from a little before the span's start
    if len(raw) > limits.MAX_EXCERPT_CHARS:
        first = max(0, min(span.column - 1 - limits.MAX_EXCERPT_CHARS // 4, len(raw) - limits.MAX_EXCERPT_CHARS))
        raw = raw[first:first + limits.MAX_EXCERPT_CHARS]
    text = raw.expandtabs(4)
    gutter = str(span.line).rjust(4)

    windowed = len(raw) < len(source_lines[span.line - 1].rstrip("\n"))

    def shown(col: int) -> int:  # a column in the raw line -> the column once tabs are expanded
        col -= first
        if windowed:
            col = min(max(col, 1), len(raw) + 1)
        return len(raw[:max(col, 1) - 1].expandtabs(4)) + 1 + max(col - 1 - len(raw), 0)

    start = shown(span.column)
    end = shown(span.end_column) if span.end_line == span.line else len(text) + 1
    end = max(end, start + 1)
    marker = " " * (start - 1) + "^" + "~" * (end - start - 1)
    if first:
        text, marker = "..." + text, "   " + marker
    if first + limits.MAX_EXCERPT_CHARS < len(source_lines[span.line - 1].rstrip("\n")):
        text += "..."
    return [f"{gutter} | {text}", f"{' ' * 4} | {marker}" + (f" {label}" if label else "")]


def render(diag: Diagnostic, filename: str, source: str) -> str:
    """Render one diagnostic the way a compiler does: location, message, excerpt, notes, trace."""
    lines_src = source.splitlines()
    s = diag.span
    out = [f"{filename}:{s.line}:{s.column}: {diag.severity}[{diag.code}]: {clip(diag.message)}"]
    out += _excerpt(lines_src, s)
    for rel in diag.related[:limits.MAX_RELATED]:
        out.append(f"{filename}:{rel.span.line}:{rel.span.column}: note: {clip(rel.message)}")
        out += _excerpt(lines_src, rel.span)
    for note in shown_notes(diag):
        first, *rest = note.splitlines() or [""]
        out.append(f"     = note: {first}")
        out += [f"       {r}" for r in rest]
    if diag.trace is not None:
        out += ["     " + l for l in diag.trace.render().splitlines()]
    return "\n".join(out)
