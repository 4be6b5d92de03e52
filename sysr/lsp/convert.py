"""sysr diagnostics and spans in the Language Server Protocol's terms.

sysr spans are 1-based (line, column) with an exclusive end column, in characters; LSP ranges
are 0-based, also with an exclusive end, in the client's code units (UTF-16 unless the client
and server agreed otherwise). `span_range` makes the 0-based range in characters (pygls's
"server units"); `to_client` converts it for the document with pygls's position codec.

Diagnostics travel as the JSON of `Diagnostic.to_json()` with the rendered trace added
(`diagnostic_json`), because the proofs run in a separate process (`sysr.lsp.prove`) and send
them that way; `lsp_diagnostic` turns one into an LSP diagnostic with its code, severity,
range, notes, counterexample trace and related locations.
"""

from __future__ import annotations

from lsprotocol import types as lsp
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from ..diagnostics import Diagnostic
from ..front.syntax import Span

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
            "note": lsp.DiagnosticSeverity.Information}


def span_range(line: int, column: int, end_line: int, end_column: int) -> ServerTextRange:
    """A 1-based sysr span as a 0-based range in characters; an empty span covers one character."""
    start = ServerTextPosition(max(line - 1, 0), max(column - 1, 0))
    end = ServerTextPosition(max(end_line - 1, 0), max(end_column - 1, 0))
    if end <= start:
        end = ServerTextPosition(start.line, start.character + 1)
    return ServerTextRange(start, end)


def of_span(span: Span) -> ServerTextRange:
    return span_range(span.line, span.column, span.end_line, span.end_column)


def to_client(doc, r: ServerTextRange) -> lsp.Range:
    """A range in characters to the client's units, clamped to the document's lines."""
    lines = doc.lines
    last = max(len(lines) - 1, 0)

    def clamp(p: ServerTextPosition) -> ServerTextPosition:
        if p.line > last:
            return ServerTextPosition(last, len(lines[last].rstrip("\r\n")) if lines else 0)
        text = lines[p.line].rstrip("\r\n") if lines else ""
        return ServerTextPosition(p.line, min(p.character, len(text)))

    return doc.range_to_client_units(ServerTextRange(clamp(r.start), clamp(r.end)))


def diagnostic_json(d: Diagnostic) -> dict:
    out = d.to_json()
    if d.trace is not None:
        out["trace_text"] = d.trace.render()
    return out


def lsp_diagnostic(doc, uri: str, j: dict) -> lsp.Diagnostic:
    s = j["span"]
    message = j["message"]
    for note in j.get("notes", []):
        message += "\nnote: " + note
    if j.get("trace_text"):
        message += "\n" + j["trace_text"]
    related = [lsp.DiagnosticRelatedInformation(
        lsp.Location(uri, to_client(doc, span_range(r["span"]["line"], r["span"]["column"],
                                                    r["span"]["end_line"], r["span"]["end_column"]))),
        r["message"]) for r in j.get("related", [])]
    return lsp.Diagnostic(
        range=to_client(doc, span_range(s["line"], s["column"], s["end_line"], s["end_column"])),
        message=message, severity=SEVERITY[j["severity"]], code=j["code"], source="sysr",
        related_information=related or None)
