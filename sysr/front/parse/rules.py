"""The machinery of the syntax-node builder: spans from tokens, and the wrappers of its rule methods.

lark runs the builder (`sysr.front.parse.grammar._Build`) while it parses, with every token kept
and no positions computed: `BuilderBase` works out each node's span from its children and
records how deeply it nests (L003 past `limits.MAX_NESTING`); `_rule` and `_raw` wrap the rule
methods of `sysr.front.parse.items` and `sysr.front.parse.exprs`.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from lark import Token, Transformer

from ... import limits, overrun
from ...diagnostics import Diagnostic
from .. import syntax as S

_INT_RE = re.compile(r"(0x[0-9A-Fa-f][0-9A-Fa-f_]*|0b[01][01_]*|[0-9][0-9_]*)([us][0-9]+)?$")

_INT_FORMS = ("integers are decimal (`200`, `1_000`), hex (`0xff`) or binary (`0b1010`), optionally "
              "with a type suffix (`5u8`, `3s4`); a name cannot start with a digit")


_GRAMMAR = (Path(__file__).parent.parent / "grammar.lark").read_text(encoding="utf-8")
# Terminals whose tokens reach the builder (names, literals, keywords the tree keeps); the rest
# (punctuation, `_`-prefixed keywords) only count for spans.
_KEPT = frozenset(re.findall(r"^([A-Z][A-Z0-9_]*)(?:\.\d+)?\s*:", _GRAMMAR, re.M))


def _tok_span(t: Token) -> S.Span:
    return S.Span(t.line, t.column, t.end_line or t.line, t.end_column or t.column + len(t))


def parse_int_text(text: str) -> tuple[int, str | None] | None:
    """The value and suffix of an integer literal's text, or None when it is malformed."""
    m = _INT_RE.match(text)
    if not m:
        return None
    body, suffix = m.group(1).replace("_", ""), m.group(2)
    if body.startswith("0x"):
        value = int(body[2:], 16)
    elif body.startswith("0b"):
        value = int(body[2:], 2)
    else:
        value = int(body, 10)
    return value, suffix


class _Seq:
    """A block's statements or an arm's patterns, with the span they take (braces included)."""

    __slots__ = ("items", "span")

    def __init__(self, items, span: S.Span) -> None:
        self.items = tuple(items)
        self.span = span


class _Op:
    """An operator token, kept apart from the punctuation that rules drop."""

    __slots__ = ("text", "span")

    def __init__(self, tok: Token) -> None:
        self.text = str(tok)
        self.span = _tok_span(tok)


def _rule(method):
    """Wrap a builder method: work out the node's span from every child (tokens included, as
    lark's propagate_positions does), then pass on the children that carry meaning."""
    @functools.wraps(method)
    def wrapper(self, children):
        kept = [c for c in children if not (isinstance(c, Token) and c.type not in _KEPT)]
        return self.nest(method(self, self.span_of(children), kept), children)
    return wrapper


def _raw(method):
    """Like `_rule`, for rules with optional parts: the method gets every child, punctuation
    included, and finds the optional parts by the token before them (see `_after`)."""
    @functools.wraps(method)
    def wrapper(self, children):
        return self.nest(method(self, self.span_of(children), children), children)
    return wrapper


def _kind_port(kind: str):
    """The builder method of a port written `NAME: KIND`, without a type (clock and resets)."""
    @_rule
    def build(self, span, c):
        return self._port(span, c[0], kind)
    return build


def _after(children, marker: str):
    """The child right after the punctuation token `marker`, or None when there is none."""
    for i, c in enumerate(children[:-1]):
        if isinstance(c, Token) and c == marker and c.type not in _KEPT:
            return children[i + 1]
    return None


def _token(children, type_: str) -> Token | None:
    return next((c for c in children if isinstance(c, Token) and c.type == type_), None)


def _nodes(children, cls) -> tuple:
    return tuple(c for c in children if isinstance(c, cls))


class BuilderBase(Transformer):
    """The state of `_Build` during one parse: the diagnostics of malformed literals, the spans
    of parenthesized nodes, and how deeply each node nests."""

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self) -> None:
        self.diags: list[Diagnostic] = []
        self.container: dict[int, S.Span] = {}  # id(node) -> span with its parentheses
        self.depth: dict[int, int] = {}  # id(node) -> how deeply it nests
        self.alive: list = []  # the nodes in `depth`, kept alive so that their ids stay theirs
        self.inst_ports: list[S.InstPort] = []  # every `a.b` on a name (an instance's port, or a field)

    def nest(self, node, children):
        """Record how deep `node` nests (one more than its deepest child); L003 past the limit."""
        get = self.depth.get
        depth = max([get(id(c), 0) for c in children], default=0) + 1
        if depth > limits.MAX_NESTING:
            span = self.pos(node) or S.Span.unknown()
            raise overrun.exceeded(
                "L003", f"the design nests more than {limits.MAX_NESTING} levels deep here (every operator, "
                        "call, `if`, `match` and block is a level)", span,
                "an operator chain `a + b + c + ...` nests one level per operator, an `if ... else if` "
                "chain one per branch: split it with `let`s or wires, or write a `match`")
        self.depth[id(node)] = depth
        self.alive.append(node)
        return node

    def pos(self, c) -> S.Span | None:
        if isinstance(c, Token):
            return _tok_span(c)
        return self.container.get(id(c)) or c.span

    def span_of(self, children) -> S.Span:
        first = next((p for p in map(self.pos, children) if p is not None), None)
        if first is None:
            return S.Span.unknown()
        last = next(p for p in map(self.pos, reversed(children)) if p is not None)
        return S.Span(first.line, first.column, last.end_line, last.end_column)
