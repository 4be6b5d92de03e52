"""Struct fields in the syntax tree: the nodes of `s.f` and of a struct literal's head, and
telling an instance's port (`u.y`) from a struct field (`s.f`).

`a.b` on a plain name is parsed as an instance's port (`InstPort`), since whether `a` is an
instance is known only once its module has been read; `resolve_fields` then rewrites every
`a.b` whose `a` is no instance of the enclosing module (in a fn or a const: every one) into
`Field(Name(a), b)`, rebuilding only the nodes above a rewritten one.
"""

from __future__ import annotations

import dataclasses
import re

from lark import Token

from .. import syntax as S

_NAME = re.compile(r"(?:r#)?([A-Za-z_][A-Za-z_0-9]*)")


def field_node(base, name: str, span: S.Span, name_span: S.Span) -> S.Field:
    return S.Field(base, name, span, name_span, S.FieldBound(name_span), S.FieldBound(name_span))


def struct_open(tok: Token) -> tuple[str, S.Span, str, S.Span]:
    """The STRUCT_OPEN token `Pkt { valid:` as (type name, its span, first field, its span)."""
    text = str(tok)
    names = [(m.group(1), m.start(), m.end()) for m in _NAME.finditer(_without_comments(text))]
    (ty, a0, a1), (first, b0, b1) = names[0], names[-1]
    return ty, _span_in(tok, a0, a1), first, _span_in(tok, b0, b1)


def _without_comments(text: str) -> str:
    """The text with its comments blanked (same length), so that offsets stay those of the token."""
    return re.sub(r"//[^\n]*|/\*[\s\S]*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _span_in(tok: Token, start: int, end: int) -> S.Span:
    """The span of characters start..end of a token (which may run over several lines)."""
    text = str(tok)

    def at(offset: int) -> tuple[int, int]:
        before = text[:offset]
        lines = before.count("\n")
        if lines == 0:
            return tok.line, tok.column + offset
        return tok.line + lines, offset - before.rfind("\n")

    (l0, c0), (l1, c1) = at(start), at(end)
    return S.Span(l0, c0, l1, c1)


def resolve_fields(items) -> list:
    """The file's items with every `a.b` that names no instance made a field access."""
    out = []
    for item in items:
        insts = frozenset(i.name for i in item.items if isinstance(i, S.InstDecl)) \
            if isinstance(item, S.Module) else frozenset()
        out.append(_rewrite(item, insts))
    return out


def _rewrite(node, insts: frozenset):
    if isinstance(node, S.InstPort):
        if node.inst in insts:
            return node
        return field_node(S.Name(node.inst, node.inst_span), node.port, node.span, node.port_span)
    if isinstance(node, (S.Span, S.TypeRef, S.FieldBound)) or not dataclasses.is_dataclass(node):
        return node
    changed = {}
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        if isinstance(v, tuple):
            new = tuple(_rewrite(x, insts) for x in v)
            if any(a is not b for a, b in zip(new, v)):
                changed[f.name] = new
        elif dataclasses.is_dataclass(v):
            new = _rewrite(v, insts)
            if new is not v:
                changed[f.name] = new
    return dataclasses.replace(node, **changed) if changed else node
