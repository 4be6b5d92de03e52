"""sysr's LALR parser: lark's parser for `grammar.lark` with the syntax-node builder, loaded from
the tables cache when one is valid (`sysr.front.tables`; `python -m sysr.front.parse` writes it).
"""

from __future__ import annotations

import functools
from pathlib import Path

import lark
from lark import Token

from ... import limits, overrun
from .. import tables
from . import exprs, fields, items, rules
from .exprs import ExprRules
from .items import ItemRules
from .rules import _GRAMMAR, BuilderBase, _tok_span


class _Build(ItemRules, ExprRules, BuilderBase):
    """Parser callbacks -> syntax nodes, run by lark while it parses (no intermediate tree).

    lark parses with every token kept and without computing positions, which makes parsing about
    twice as fast; spans are computed here. Malformed literals are recorded, not raised.
    """


def build_parser() -> lark.Lark:
    """The LALR parser built from the grammar, building syntax nodes as it goes (see `_Build`)."""
    return lark.Lark(_GRAMMAR, parser="lalr", keep_all_tokens=True, maybe_placeholders=False,
                     transformer=_Build(),
                     lexer_callbacks={"NAME": _short_name, "HOLE": _short_name, "INT": _short_literal})


def _short_name(tok: Token) -> Token:
    if len(tok) > limits.MAX_NAME_CHARS:
        raise overrun.exceeded("L004", f"this name is {len(tok)} characters long; names have at most "
                                       f"{limits.MAX_NAME_CHARS}", _tok_span(tok), "use a shorter name")
    return tok


def _short_literal(tok: Token) -> Token:
    if len(tok) > limits.MAX_LITERAL_CHARS:
        raise overrun.exceeded("L004", f"this integer literal is {len(tok)} characters long; literals have at "
                                       f"most {limits.MAX_LITERAL_CHARS}", _tok_span(tok),
                               "no type is wider than 4,096 bits, so no longer literal fits one")
    return tok


def cache_key_parts() -> tuple[str, ...] | None:
    """What the saved parser depends on besides lark: the grammar, and the modules of the builder
    and of this one (the builder is saved with the tables, and `build_parser` sets the options).
    None when the sources cannot be read (a frozen installation): then the parser is built every
    time."""
    try:
        return (_GRAMMAR, *(Path(f).read_text(encoding="utf-8")
                            for f in (__file__, rules.__file__, items.__file__, exprs.__file__, fields.__file__)))
    except (OSError, TypeError):
        return None


@functools.cache
def _parser() -> lark.Lark:
    """The LALR parser, loaded from the tables cache when one is valid (see `sysr.front.tables`)."""
    parts = cache_key_parts()
    return build_parser() if parts is None else tables.cached_parser(build_parser, *parts)
