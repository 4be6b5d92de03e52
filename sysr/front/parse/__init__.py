"""Text to syntax tree: runs the lark grammar and builds `sysr.front.syntax` nodes with spans.

A syntax error becomes one P-code diagnostic that names what was expected and points at the
offending token; parsing stops there. So does a name or literal longer than the limits allow
(L004, checked as lark reads each token) and a tree nested deeper than `limits.MAX_NESTING`
(L003, checked as each node is built). Nothing here raises on user input.

Layout: `grammar` (the LALR parser, its tables cached by `sysr.front.tables`), the builder it
runs while parsing (`rules`: spans and nesting; `items`: items and statements; `exprs`:
patterns and expressions), `errors` (lark's syntax errors as diagnostics); `python -m
sysr.front.parse` writes the tables cache.
"""

from __future__ import annotations

import sys
import threading


def _import_lark():
    """`import lark` without the third-party `regex` module, which lark imports whenever it is
    installed, for grammars that ask for it (sysr's does not): that import alone was a twentieth
    of a small check's start-up. `regex` stays importable for anyone else."""
    blocked = "regex" not in sys.modules
    if blocked:
        sys.modules["regex"] = None  # type: ignore[assignment]  # `import regex` fails
    try:
        import lark
    finally:
        if blocked and sys.modules.get("regex", 0) is None:
            del sys.modules["regex"]
    return lark


lark = _import_lark()

from ... import overrun  # noqa: E402
from ...diagnostics import Diagnostic  # noqa: E402
from .. import syntax as S  # noqa: E402
from .errors import unexpected_character, unexpected_input, unexpected_token  # noqa: E402
from .grammar import _GRAMMAR, _Build, _parser, build_parser, cache_key_parts  # noqa: E402
from .rules import parse_int_text  # noqa: E402

__all__ = ["parse", "parse_int_text", "build_parser", "cache_key_parts", "_Build", "_GRAMMAR", "_parser"]

_LOCK = threading.Lock()  # the builder keeps per-parse state


def parse(text: str) -> tuple[S.SourceFile | None, list[Diagnostic]]:
    """Parse a whole file. Returns the tree (None on a syntax error) and the diagnostics."""
    if text.startswith("\ufeff"):  # a byte-order mark: blank it, keeping the columns
        text = " " + text[1:]
    try:
        tree, diags = _run(text)
    except overrun.LimitExceeded as e:
        return None, [e.diagnostic]
    except lark.UnexpectedToken as e:
        return None, [unexpected_token(e, text)]
    except lark.UnexpectedCharacters as e:
        return None, [unexpected_character(e, text)]
    except lark.UnexpectedInput as e:  # pragma: no cover - other lark input errors
        return None, [unexpected_input(e)]
    if diags:  # malformed literals: like a syntax error, the checks do not run
        return None, diags
    return tree, diags


def _run(text: str) -> tuple[S.SourceFile, list[Diagnostic]]:
    """Run the parser and its builder; lark's syntax errors propagate."""
    parser = _parser()
    builder = parser.options.transformer
    with _LOCK:
        builder.reset()
        try:
            tree = parser.parse(text)
            return tree, list(builder.diags)
        finally:
            builder.depth.clear()
            builder.alive.clear()
            builder.inst_ports.clear()
