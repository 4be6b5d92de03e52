"""Text to syntax tree: runs the lark grammar and builds `sysr.front.syntax` nodes with spans.

A syntax error becomes one P-code diagnostic that names what was expected and points at the
offending token; parsing stops there. So does a name or literal longer than the limits allow
(L004, checked as lark reads each token) and a tree nested deeper than `limits.MAX_NESTING`
(L003, checked as each node is built). Nothing here raises on user input.
"""

from __future__ import annotations

import functools
import re
import threading
from pathlib import Path

import lark
from lark import Token, Transformer

from .. import limits
from ..diagnostics import Diagnostic, error
from . import syntax as S
from .tables import cached_parser

_INT_RE = re.compile(r"(0x[0-9A-Fa-f][0-9A-Fa-f_]*|0b[01][01_]*|[0-9][0-9_]*)([us][0-9]+)?$")

# How terminals are shown in "expected ..." messages.
_INT_FORMS = ("integers are decimal (`200`, `1_000`), hex (`0xff`) or binary (`0b1010`), optionally "
              "with a type suffix (`5u8`, `3s4`); a name cannot start with a digit")

_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "an integer literal", "HOLE": "a hole `?name`",
    "$END": "end of file",
}


_GRAMMAR = Path(__file__).with_name("grammar.lark").read_text(encoding="utf-8")
# Terminals whose tokens reach the builder (names, literals, keywords the tree keeps); the rest
# (punctuation, `_`-prefixed keywords) only count for spans.
_KEPT = frozenset(re.findall(r"^([A-Z][A-Z0-9_]*)(?:\.\d+)?\s*:", _GRAMMAR, re.M))
_LOCK = threading.Lock()  # the builder keeps per-parse state


def build_parser() -> lark.Lark:
    """The LALR parser built from the grammar, building syntax nodes as it goes (see `_Build`)."""
    return lark.Lark(_GRAMMAR, parser="lalr", keep_all_tokens=True, maybe_placeholders=False,
                     transformer=_Build(),
                     lexer_callbacks={"NAME": _short_name, "HOLE": _short_name, "INT": _short_literal})


def _short_name(tok: Token) -> Token:
    if len(tok) > limits.MAX_NAME_CHARS:
        raise limits.exceeded("L004", f"this name is {len(tok)} characters long; names have at most "
                                      f"{limits.MAX_NAME_CHARS}", _tok_span(tok), "use a shorter name")
    return tok


def _short_literal(tok: Token) -> Token:
    if len(tok) > limits.MAX_LITERAL_CHARS:
        raise limits.exceeded("L004", f"this integer literal is {len(tok)} characters long; literals have at "
                                      f"most {limits.MAX_LITERAL_CHARS}", _tok_span(tok),
                              "no type is wider than 256 bits, so no longer literal fits one")
    return tok


def cache_key_parts() -> tuple[str, ...] | None:
    """What the saved parser depends on besides lark: the grammar, and this module (the builder
    is saved with the tables, and `build_parser` sets the options). None when the source cannot
    be read (a frozen installation): then the parser is built every time."""
    try:
        return _GRAMMAR, Path(__file__).read_text(encoding="utf-8")
    except OSError:
        return None


@functools.cache
def _parser() -> lark.Lark:
    """The LALR parser, loaded from the tables cache when one is valid (see `sysr.front.tables`)."""
    parts = cache_key_parts()
    return build_parser() if parts is None else cached_parser(build_parser, *parts)


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


class _Build(Transformer):
    """Parser callbacks -> syntax nodes, run by lark while it parses (no intermediate tree).

    lark parses with every token kept and without computing positions, which makes parsing about
    twice as fast; spans are computed here. Malformed literals are recorded, not raised.
    """

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self) -> None:
        self.diags: list[Diagnostic] = []
        self.container: dict[int, S.Span] = {}  # id(node) -> span with its parentheses
        self.depth: dict[int, int] = {}  # id(node) -> how deeply it nests
        self.alive: list = []  # the nodes in `depth`, kept alive so that their ids stay theirs

    def nest(self, node, children):
        """Record how deep `node` nests (one more than its deepest child); L003 past the limit."""
        get = self.depth.get
        depth = max([get(id(c), 0) for c in children], default=0) + 1
        if depth > limits.MAX_NESTING:
            span = self.pos(node) or S.Span.unknown()
            raise limits.exceeded(
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

    # -- file and items
    @_rule
    def start(self, span, items):
        return S.SourceFile(tuple(items), span)

    @_rule
    def type(self, span, c):
        (name,) = c
        return S.TypeRef(str(name), _tok_span(name))

    @_rule
    def const_decl(self, span, c):
        name, ty, value = c
        return S.ConstDecl(str(name), ty, value, span, _tok_span(name))

    @_raw
    def variant(self, span, c):
        return S.Variant(str(c[0]), _after(c, "="), span)

    @_raw
    def enum_decl(self, span, c):
        name = _token(c, "NAME")
        repr_ = _after(c, ":")
        return S.EnumDecl(str(name), repr_, _nodes(c, S.Variant), span, _tok_span(name))

    @_rule
    def param(self, span, c):
        name, ty = c
        return S.Param(str(name), ty, span)

    @_raw
    def fn_decl(self, span, c):
        name = _token(c, "NAME")
        body = [x for x in c if not isinstance(x, Token)][-1]
        return S.FnDecl(str(name), _nodes(c, S.Param), _after(c, "->"), _nodes(c, S.Let), body, span,
                        _tok_span(name))

    @_rule
    def module(self, span, c):
        name, *rest = c
        ports = tuple(p for p in rest if isinstance(p, S.Port))
        items = tuple(p for p in rest if not isinstance(p, S.Port))
        return S.Module(str(name), ports, items, span, _tok_span(name))

    @staticmethod
    def _port(span, name, kind, ty=None, init=None):
        return S.Port(str(name), kind, ty, init, span, _tok_span(name))

    @_rule
    def port_in(self, span, c):
        return self._port(span, c[0], "in", c[2])

    @_rule
    def port_out(self, span, c):
        return self._port(span, c[0], "out", c[2])

    @_rule
    def port_out_reg(self, span, c):  # `= INIT` is optional: without it, a register with no reset value
        return self._port(span, c[0], "out_reg", c[3], c[4] if len(c) > 4 else None)

    port_clock = _kind_port("clock")
    port_reset = _kind_port("reset")
    port_reset_n = _kind_port("reset_n")
    port_areset = _kind_port("areset")
    port_areset_n = _kind_port("areset_n")

    @_raw
    def reg_decl(self, span, c):
        name = _token(c, "NAME")
        ghost = _token(c, "GHOST") is not None
        return S.RegDecl(str(name), _after(c, ":"), _after(c, "["), _after(c, "="), ghost, span, _tok_span(name))

    @_raw
    def wire_decl(self, span, c):
        name = _token(c, "NAME")
        ghost = _token(c, "GHOST") is not None
        return S.WireDecl(str(name), _after(c, ":"), _after(c, "="), ghost, span, _tok_span(name))

    @_rule
    def mod_assign(self, span, c):
        name, value = c
        return S.ModAssign(str(name), value, span, _tok_span(name))

    @_raw
    def comb_block(self, span, c):
        return S.CombBlock(c[-1].items, _token(c, "GHOST") is not None, span)

    @_raw
    def seq_block(self, span, c):
        return S.SeqBlock(c[-1].items, _token(c, "GHOST") is not None, span)

    @_rule
    def spec(self, span, c):
        kw, expr = c
        return S.Spec(str(kw), expr, span)

    def spec_kw(self, c):
        return c[0]

    @_rule
    def inst_decl(self, span, c):
        name, module, *bindings = c
        return S.InstDecl(str(name), str(module), tuple(bindings), span, _tok_span(name), _tok_span(module))

    @_rule
    def binding(self, span, c):
        port, value = c
        return S.Binding(str(port), value, span, _tok_span(port))

    # -- statements
    @_rule
    def block(self, span, c):
        return _Seq(c, span)

    @_rule
    def assign(self, span, c):
        return S.Assign(c[0], c[1], span)

    @_rule
    def nb_assign(self, span, c):
        return S.NbAssign(c[0], c[1], span)

    @_raw
    def let_stmt(self, span, c):
        name = _token(c, "NAME")
        return S.Let(str(name), _after(c, ":"), _after(c, "="), span, _tok_span(name))

    @_rule
    def if_stmt(self, span, c):
        cond, then, *rest = c
        else_ = rest[0] if rest else None
        if isinstance(else_, S.If):
            else_ = (else_,)
        elif else_ is not None:
            else_ = else_.items
        return S.If(cond, then.items, else_, span)

    @_rule
    def match_stmt(self, span, c):
        subject, *arms = c
        return S.Match(subject, tuple(arms), span)

    @_rule
    def stmt_arm(self, span, c):
        return S.StmtArm(c[0].items, c[1].items, span)

    @_rule
    def for_stmt(self, span, c):
        var, _in, start, end, body = c
        return S.For(str(var), start, end, body.items, span, _tok_span(var))

    @_rule
    def lv_name(self, span, c):
        return S.LValue(str(c[0]), None, None, None, span, _tok_span(c[0]))

    @_rule
    def lv_index(self, span, c):
        return S.LValue(str(c[0]), c[1], None, None, span, _tok_span(c[0]))

    @_rule
    def lv_slice(self, span, c):
        return S.LValue(str(c[0]), None, c[1], c[2], span, _tok_span(c[0]))

    # -- patterns
    @_rule
    def patterns(self, span, c):
        return _Seq(c, span)

    @_rule
    def pat_int(self, span, c):
        lit = self.int_lit(c)
        return S.PatInt(lit, lit.span)

    @_rule
    def pat_variant(self, span, c):
        return S.PatVariant(c[0], c[0].span)

    @_rule
    def pat_wild(self, span, c):
        return S.PatWild(span)

    @_rule
    def pat_true(self, span, c):
        return S.PatBool(True, span)

    @_rule
    def pat_false(self, span, c):
        return S.PatBool(False, span)

    # -- expressions
    def atom(self, c):
        """`( expr )`: the expression itself; its parentheses count in the spans around it."""
        _lpar, inner, _rpar = c
        self.container[id(inner)] = self.span_of(c)
        return inner

    def cmp_op(self, c):
        return _Op(c[0])

    shift_op = add_op = mul_op = un_op = cmp_op

    def NAME(self, tok: Token) -> Token:
        """A name token as the lexer reads it: the raw identifier `r#match` is the name `match`
        (with the span of all it was written with)."""
        return tok.update(value=tok[2:]) if tok.startswith("r#") else tok

    def quant_kw(self, c):
        return c[0]

    @_rule
    def quant(self, span, c):
        kw, var, ty, body = c
        return S.Quant(str(kw), str(var), ty, body, span, _tok_span(var))

    @_rule
    def implies(self, span, c):
        return S.Binary("==>", c[0], c[1], span)

    @_rule
    def if_expr(self, span, c):
        return S.IfExpr(c[0], c[1], c[2], span)

    @_rule
    def bin_or(self, span, c):
        return S.Binary("||", c[0], c[1], span)

    @_rule
    def bin_and(self, span, c):
        return S.Binary("&&", c[0], c[1], span)

    @_rule
    def bin_bor(self, span, c):
        return S.Binary("|", c[0], c[1], span)

    @_rule
    def bin_bxor(self, span, c):
        return S.Binary("^", c[0], c[1], span)

    @_rule
    def bin_band(self, span, c):
        return S.Binary("&", c[0], c[1], span)

    @_rule
    def compare(self, span, c):
        return S.Binary(c[1].text, c[0], c[2], span)

    bin_shift = bin_sum = bin_mul = compare

    @_rule
    def unary(self, span, c):
        return S.Unary(c[0].text, c[1], span)

    @_rule
    def cast(self, span, c):
        return S.Cast(c[0], c[1], span)

    @_rule
    def index(self, span, c):
        return S.Index(c[0], c[1], span)

    @_rule
    def slice(self, span, c):
        return S.Slice(c[0], c[1], c[2], span)

    def int_lit(self, c):
        tok = c[0]
        span = _tok_span(tok)
        parsed = parse_int_text(str(tok))
        if parsed is None:
            self.diags.append(error("P004", f"malformed integer literal `{tok}`", span, _INT_FORMS))
            return S.IntLit(0, None, str(tok), span)
        value, suffix = parsed
        return S.IntLit(value, suffix, str(tok), span)

    @_rule
    def true_lit(self, span, c):
        return S.BoolLit(True, span)

    @_rule
    def false_lit(self, span, c):
        return S.BoolLit(False, span)

    def name(self, c):
        return S.Name(str(c[0]), _tok_span(c[0]))

    @_rule
    def inst_port(self, span, c):
        inst, port = c
        return S.InstPort(str(inst), str(port), span, _tok_span(inst), _tok_span(port))

    @_rule
    def path(self, span, c):
        return S.Path(str(c[0]), str(c[1]), span)

    def hole(self, c):
        name = str(c[0])[1:]
        return S.Hole(name[2:] if name.startswith("r#") else name, _tok_span(c[0]))

    @_rule
    def call(self, span, c):
        name, *args = c
        return S.Call(str(name), tuple(args), span, _tok_span(name))

    @_rule
    def concat(self, span, c):
        return S.Concat(tuple(c), span)

    @_rule
    def match_expr(self, span, c):
        subject, *arms = c
        return S.MatchExpr(subject, tuple(arms), span)

    @_rule
    def expr_arm(self, span, c):
        return S.ExprArm(c[0].items, c[1], span)


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    try:
        pattern = _parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    if isinstance(pattern, lark.lexer.PatternStr):
        return f"`{pattern.value}`"
    if pattern.value.endswith(r"\b"):  # a keyword
        return f"`{pattern.value[:-2]}`"
    return terminal.lower()


_EXPR_START = {"NAME", "INT", "LPAR", "HOLE"}
_OPERATORS = {"`+`", "`-`", "`*`", "`/`", "`%`", "`&`", "`|`", "`^`", "`<<`", "`>>`", "`==`", "`!=`", "`<`",
              "`<=`", "`>`", "`>=`", "`&&`", "`||`", "`==>`", "`as`", "`[`"}
_EXPR_TOKENS = {"`!`", "`~`", "`-`", "`(`", "`{`", "`true`", "`false`", "`match`", "`if`",
                "`forall`", "`exists`", "a name", "an integer literal", "a hole `?name`"}


def _expected(names) -> str:
    """Say what the parser wanted, grouping operators and expression starts into words."""
    names = set(names)
    words = {_describe(n) for n in names}
    out = []
    if _EXPR_START <= names:
        words -= _EXPR_TOKENS
        out.append("an expression")
    ops = words & _OPERATORS
    if len(ops) >= 3:
        words -= _OPERATORS | {"`(`", "`::`", "`.`"}  # after a name: a call, a path or an instance port, rarely what was meant
        out.append("an operator")
    out = sorted(words, key=lambda w: (w[1:2].isalpha(), w)) + out  # punctuation first
    if len(out) > 8:
        out = out[:8] + ["..."]
    if len(out) > 1:
        return ", ".join(out[:-1]) + " or " + out[-1]
    return out[0] if out else "something else"


_STATEMENT = ("`{}` is a statement: at module level put it inside `comb {{ ... }}` or `seq {{ ... }}`; "
              "in a fn, use `if c then a else b`")
_WORD_HINTS = {
    **{w: _STATEMENT.format(w) for w in ("if", "for", "match", "let")},
    "assign": "there is no `assign`: write `NAME = expr;` at module level",
    **{w: "there is no `always`: clocked logic goes in `seq { ... }`, combinational logic in `comb { ... }`"
       for w in ("always", "always_ff", "always_comb", "always_latch", "initial", "process")},
    **{w: "ports are written `NAME: in TYPE` and `NAME: out TYPE`, in the module header"
       for w in ("input", "output", "inout")},
    **{w: "declare a wire, `wire NAME: TYPE;`, or a register, `reg NAME: TYPE = INIT;`"
       for w in ("logic", "integer", "bit", "signal", "var")},
    "begin": "blocks use braces, `{ ... }`, not `begin` and `end`",
    "return": "a fn body ends with its result, written without `return`: `fn f(a: u8) -> u8 { a + 1 }`",
    "elif": "write `else if`",
    "elsif": "write `else if`",
    "while": "the only loop is `for i in 0..N { ... }` with a constant N",
    "loop": "the only loop is `for i in 0..N { ... }` with a constant N",
}


def _raw(tok: Token, text: str) -> bool:
    """Whether a name token was written as a raw identifier (`r#match`)."""
    return tok.start_pos is not None and text.startswith("r#", tok.start_pos)


def _misused_word(e: lark.UnexpectedToken, text: str) -> Token | None:
    """A keyword of sysr or of another HDL that the parser read as a name, just before the error
    (unless the file declares it as a name: `always: in bool` is a fine port)."""
    history = getattr(e, "token_history", None) or []
    prev = history[-1] if history else None
    if prev is None or prev.type != "NAME" or str(prev) not in _WORD_HINTS or _raw(prev, text):
        return None
    if re.search(rf"\b{prev}\s*:(?!:)", text):
        return None
    return prev


def _context_hint(e: lark.UnexpectedToken, text: str) -> tuple[str, ...]:
    """A note on the likely intent behind a syntax error, for habits from other languages."""
    tok, words = e.token, {_describe(n) for n in e.expected}
    history = getattr(e, "token_history", None) or []
    prev = history[-1] if history else None
    if (prev is not None and prev.type != "NAME" and str(prev) in S.RAW_KEYWORDS
            and (str(tok) in ("=", "<=", ":") or re.search(rf"\b{prev}\s*:(?!:)", text))):
        return (f"`{prev}` is a keyword here; a name spelled like it is written `r#{prev}`",)
    if (tok.type == "NAME" and str(tok) in _WORD_HINTS and not _raw(tok, text)
            and not re.search(rf"\b{tok}\s*:(?!:)", text)):
        return (_WORD_HINTS[str(tok)],)
    if tok.type == "HOLE" and str(tok) == "?" and "`;`" in words:
        return ("there is no `c ? a : b`: write `if c then a else b` (`?` starts a hole)",)
    if prev is not None and prev.type in ("REG", "WIRE") and str(tok) == "[":
        return (f"the width goes in the type: `{prev} NAME: u8 = ...;` (an array is `reg NAME: u8[N]`)",)
    if prev is not None and prev.type == "_FOR":
        return ("loops are written `for i in 0..N { ... }` with a constant N",)
    if str(tok) == "<=" and words == {"`=`"}:
        return ("`<=` assigns registers inside `seq { ... }`; at module level write `NAME = expr;`",)
    if words == {"`::`"}:
        return ("enum variants are written with their enum, e.g. `Op::Add`",)
    return ()


_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}


def _chained_comparison(tok: Token, expected) -> bool:
    """Whether a comparison operator came where operators are allowed but comparisons are not."""
    words = {_describe(n) for n in expected}
    return str(tok) in _COMPARISONS and "`&&`" in words and "`==`" not in words


_CHAR_HINTS = {
    "'": "sized literals are written with a suffix: `0xffu8`, not `8'hff`",
    "$": "there are no system functions: cast with `as` (`x as s8`); `prev(x)` is the previous value in specs",
    "@": "there is no `always @(...)`: clocked logic goes in `seq { ... }`, combinational logic in `comb { ... }`",
    "#": "there are no delays and no preprocessor",
    "\"": "there are no strings",
}


def _end_of_file(text: str, expected) -> Diagnostic:
    """P003 at the end of the last line that holds something, saying what is missing."""
    body = text.rstrip()
    line = body.count("\n") + 1
    col = len(body.rsplit("\n", 1)[-1]) + 1
    span = S.Span(line, col, line, col + 1)
    words = {_describe(n) for n in expected}
    for closer in ("`}`", "`)`", "`]`"):
        if closer in words:
            return error("P003", f"unexpected end of file: a closing {closer} is missing", span)
    return error("P003", f"unexpected end of file; expected {_expected(expected)}", span)


def _token_text(tok: Token, text: str) -> str:
    if tok.type == "$END":
        return "end of file"
    return f"`r#{tok}`" if _raw(tok, text) else f"`{tok}`"


def parse(text: str) -> tuple[S.SourceFile | None, list[Diagnostic]]:
    """Parse a whole file. Returns the tree (None on a syntax error) and the diagnostics."""
    if text.startswith("\ufeff"):  # a byte-order mark: blank it, keeping the columns
        text = " " + text[1:]
    try:
        tree, diags = _run(text)
    except limits.LimitExceeded as e:
        return None, [e.diagnostic]
    except lark.UnexpectedToken as e:
        tok = e.token
        try:  # the precise set, after the reductions the LALR table would make
            e.expected = e.interactive_parser.accepts() or e.expected
        except Exception:  # pragma: no cover - fall back to the table's set
            pass
        if tok.type == "$END":
            return None, [_end_of_file(text, e.expected)]
        span = _tok_span(tok)
        word = _misused_word(e, text)
        if word is not None:
            return None, [error("P001", f"`{word}` cannot be used here", _tok_span(word), _WORD_HINTS[str(word)])]
        if _chained_comparison(tok, e.expected):
            return None, [error("P001", f"comparisons do not chain: unexpected `{tok}` after a comparison", span,
                                "write `a < b && b < c` for a range, or add parentheses to compare a "
                                "comparison's result, `(a == b) == c`")]
        hint = _context_hint(e, text)
        return None, [error("P001", f"unexpected {_token_text(tok, text)}; expected {_expected(e.expected)}", span,
                            *hint)]
    except lark.UnexpectedCharacters as e:
        span = S.Span(e.line, e.column, e.line, e.column + 1)
        ch = text[e.pos_in_stream] if 0 <= e.pos_in_stream < len(text) else "?"
        shown = ch if ch.isprintable() else repr(ch)[1:-1]
        hint = (_CHAR_HINTS[ch],) if ch in _CHAR_HINTS else ()
        if ch == "#" and text[max(0, e.pos_in_stream - 1)] == "r":
            hint = ("a raw identifier is `r#` followed by a name, e.g. `r#match`",)
        return None, [error("P002", f"unexpected character `{shown}`; it is not part of sysr's syntax here",
                            span, *hint)]
    except lark.UnexpectedInput as e:  # pragma: no cover - other lark input errors
        line = getattr(e, "line", 1) or 1
        col = getattr(e, "column", 1) or 1
        return None, [error("P001", f"syntax error: {e}", S.Span(line, col, line, col + 1))]
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
