"""Text to syntax tree: runs the lark grammar and builds `sysr.syntax` nodes with spans.

A syntax error becomes one P-code diagnostic that names what was expected and points at the
offending token; parsing stops there. Nothing here raises on user input.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

import lark
from lark import Token, Transformer, v_args

from . import syntax as S
from .diagnostics import Diagnostic, error

_INT_RE = re.compile(r"(0x[0-9A-Fa-f][0-9A-Fa-f_]*|0b[01][01_]*|[0-9][0-9_]*)([us][0-9]+)?$")

# How terminals are shown in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "an integer literal", "HOLE": "a hole `?name`",
    "$END": "end of file",
}


@functools.cache
def _parser() -> lark.Lark:
    grammar = resources.files("sysr").joinpath("grammar.lark").read_text()
    return lark.Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True)


def _tok_span(t: Token) -> S.Span:
    return S.Span(t.line, t.column, t.end_line or t.line, t.end_column or t.column + len(t))


def _meta_span(meta) -> S.Span:
    if getattr(meta, "empty", True):
        return S.Span.unknown()
    return S.Span(meta.line, meta.column, meta.end_line, meta.end_column)


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


class _Build(Transformer):
    """lark tree -> syntax nodes. Malformed literals are recorded, not raised."""

    def __init__(self) -> None:
        super().__init__()
        self.diags: list[Diagnostic] = []

    # -- helpers
    def _stmts(self, block) -> tuple:
        return tuple(block)

    # -- file and items
    @v_args(meta=True)
    def start(self, meta, items):
        return S.SourceFile(tuple(items), _meta_span(meta))

    @v_args(meta=True)
    def type(self, meta, children):
        (name,) = children
        return S.TypeRef(str(name), _tok_span(name))

    @v_args(meta=True)
    def const_decl(self, meta, c):
        name, ty, value = c
        return S.ConstDecl(str(name), ty, value, _meta_span(meta), _tok_span(name))

    @v_args(meta=True)
    def variant(self, meta, c):
        name, value = c
        return S.Variant(str(name), value, _meta_span(meta))

    @v_args(meta=True)
    def enum_decl(self, meta, c):
        name, repr_, *variants = c
        variants = tuple(v for v in variants if v is not None)
        return S.EnumDecl(str(name), repr_, variants, _meta_span(meta), _tok_span(name))

    @v_args(meta=True)
    def param(self, meta, c):
        name, ty = c
        return S.Param(str(name), ty, _meta_span(meta))

    @v_args(meta=True)
    def fn_decl(self, meta, c):
        name = c[0]
        rest = c[1:]
        params = tuple(p for p in rest if isinstance(p, S.Param))
        others = [p for p in rest if not isinstance(p, S.Param) and p is not None]
        ret, *lets, body = others
        return S.FnDecl(str(name), params, ret, tuple(lets), body, _meta_span(meta), _tok_span(name))

    @v_args(meta=True)
    def module(self, meta, c):
        name, *rest = c
        ports = tuple(p for p in rest if isinstance(p, S.Port))
        items = tuple(p for p in rest if p is not None and not isinstance(p, S.Port))
        return S.Module(str(name), ports, items, _meta_span(meta), _tok_span(name))

    def _port(self, meta, name, kind, ty=None, init=None):
        return S.Port(str(name), kind, ty, init, _meta_span(meta), _tok_span(name))

    @v_args(meta=True)
    def port_in(self, meta, c):
        return self._port(meta, c[0], "in", c[2])

    @v_args(meta=True)
    def port_out(self, meta, c):
        return self._port(meta, c[0], "out", c[2])

    @v_args(meta=True)
    def port_out_reg(self, meta, c):
        return self._port(meta, c[0], "out_reg", c[3], c[4])

    @v_args(meta=True)
    def port_clock(self, meta, c):
        return self._port(meta, c[0], "clock")

    @v_args(meta=True)
    def port_reset(self, meta, c):
        return self._port(meta, c[0], "reset")

    @v_args(meta=True)
    def port_reset_n(self, meta, c):
        return self._port(meta, c[0], "reset_n")

    @v_args(meta=True)
    def reg_decl(self, meta, c):
        ghost, _reg, name, ty, size, init = c
        return S.RegDecl(str(name), ty, size, init, ghost is not None, _meta_span(meta), _tok_span(name))

    @v_args(meta=True)
    def wire_decl(self, meta, c):
        ghost, _wire, name, ty, value = c
        return S.WireDecl(str(name), ty, value, ghost is not None, _meta_span(meta), _tok_span(name))

    @v_args(meta=True)
    def mod_assign(self, meta, c):
        name, value = c
        return S.ModAssign(str(name), value, _meta_span(meta), _tok_span(name))

    @v_args(meta=True)
    def comb_block(self, meta, c):
        ghost, _kw, body = c
        return S.CombBlock(body, ghost is not None, _meta_span(meta))

    @v_args(meta=True)
    def seq_block(self, meta, c):
        ghost, _kw, body = c
        return S.SeqBlock(body, ghost is not None, _meta_span(meta))

    @v_args(meta=True)
    def spec(self, meta, c):
        kw, expr = c
        return S.Spec(str(kw.children[0]), expr, _meta_span(meta))

    # -- statements
    def block(self, c):
        return tuple(c)

    @v_args(meta=True)
    def assign(self, meta, c):
        return S.Assign(c[0], c[1], _meta_span(meta))

    @v_args(meta=True)
    def nb_assign(self, meta, c):
        return S.NbAssign(c[0], c[1], _meta_span(meta))

    @v_args(meta=True)
    def let_stmt(self, meta, c):
        name, ty, value = c
        return S.Let(str(name), ty, value, _meta_span(meta), _tok_span(name))

    @v_args(meta=True)
    def if_stmt(self, meta, c):
        cond, then, else_ = c
        if isinstance(else_, S.If):
            else_ = (else_,)
        return S.If(cond, then, else_, _meta_span(meta))

    @v_args(meta=True)
    def match_stmt(self, meta, c):
        subject, *arms = c
        return S.Match(subject, tuple(a for a in arms if a is not None), _meta_span(meta))

    @v_args(meta=True)
    def stmt_arm(self, meta, c):
        return S.StmtArm(c[0], c[1], _meta_span(meta))

    @v_args(meta=True)
    def for_stmt(self, meta, c):
        var, start, end, body = c
        return S.For(str(var), start, end, body, _meta_span(meta), _tok_span(var))

    @v_args(meta=True)
    def lv_name(self, meta, c):
        return S.LValue(str(c[0]), None, None, None, _meta_span(meta), _tok_span(c[0]))

    @v_args(meta=True)
    def lv_index(self, meta, c):
        return S.LValue(str(c[0]), c[1], None, None, _meta_span(meta), _tok_span(c[0]))

    @v_args(meta=True)
    def lv_slice(self, meta, c):
        return S.LValue(str(c[0]), None, c[1], c[2], _meta_span(meta), _tok_span(c[0]))

    # -- patterns
    def patterns(self, c):
        return tuple(c)

    @v_args(meta=True)
    def pat_int(self, meta, c):
        lit = self.int_lit(meta, c)
        return S.PatInt(lit, lit.span)

    @v_args(meta=True)
    def pat_variant(self, meta, c):
        return S.PatVariant(c[0], c[0].span)

    @v_args(meta=True)
    def pat_wild(self, meta, c):
        return S.PatWild(_meta_span(meta))

    @v_args(meta=True)
    def pat_true(self, meta, c):
        return S.PatBool(True, _meta_span(meta))

    @v_args(meta=True)
    def pat_false(self, meta, c):
        return S.PatBool(False, _meta_span(meta))

    # -- expressions
    @v_args(meta=True)
    def quant(self, meta, c):
        kw, var, ty, body = c
        return S.Quant(str(kw.children[0]), str(var), ty, body, _meta_span(meta), _tok_span(var))

    @v_args(meta=True)
    def implies(self, meta, c):
        return S.Binary("==>", c[0], c[1], _meta_span(meta))

    @v_args(meta=True)
    def if_expr(self, meta, c):
        return S.IfExpr(c[0], c[1], c[2], _meta_span(meta))

    def _bin(self, meta, op, left, right):
        return S.Binary(op, left, right, _meta_span(meta))

    @v_args(meta=True)
    def bin_or(self, meta, c):
        return self._bin(meta, "||", c[0], c[1])

    @v_args(meta=True)
    def bin_and(self, meta, c):
        return self._bin(meta, "&&", c[0], c[1])

    @v_args(meta=True)
    def bin_bor(self, meta, c):
        return self._bin(meta, "|", c[0], c[1])

    @v_args(meta=True)
    def bin_bxor(self, meta, c):
        return self._bin(meta, "^", c[0], c[1])

    @v_args(meta=True)
    def bin_band(self, meta, c):
        return self._bin(meta, "&", c[0], c[1])

    @v_args(meta=True)
    def bin_mul(self, meta, c):
        return self._bin(meta, "*", c[0], c[1])

    @v_args(meta=True)
    def compare(self, meta, c):
        return self._bin(meta, str(c[1].children[0]), c[0], c[2])

    @v_args(meta=True)
    def bin_shift(self, meta, c):
        return self._bin(meta, str(c[1].children[0]), c[0], c[2])

    @v_args(meta=True)
    def bin_sum(self, meta, c):
        return self._bin(meta, str(c[1].children[0]), c[0], c[2])

    @v_args(meta=True)
    def unary(self, meta, c):
        return S.Unary(str(c[0].children[0]), c[1], _meta_span(meta))

    @v_args(meta=True)
    def cast(self, meta, c):
        return S.Cast(c[0], c[1], _meta_span(meta))

    @v_args(meta=True)
    def index(self, meta, c):
        return S.Index(c[0], c[1], _meta_span(meta))

    @v_args(meta=True)
    def slice(self, meta, c):
        return S.Slice(c[0], c[1], c[2], _meta_span(meta))

    @v_args(meta=True)
    def int_lit(self, meta, c):
        tok = c[0]
        span = _tok_span(tok)
        parsed = parse_int_text(str(tok))
        if parsed is None:
            self.diags.append(error("P004", f"malformed integer literal `{tok}`", span))
            return S.IntLit(0, None, str(tok), span)
        value, suffix = parsed
        return S.IntLit(value, suffix, str(tok), span)

    @v_args(meta=True)
    def true_lit(self, meta, c):
        return S.BoolLit(True, _meta_span(meta))

    @v_args(meta=True)
    def false_lit(self, meta, c):
        return S.BoolLit(False, _meta_span(meta))

    @v_args(meta=True)
    def name(self, meta, c):
        return S.Name(str(c[0]), _tok_span(c[0]))

    @v_args(meta=True)
    def path(self, meta, c):
        return S.Path(str(c[0]), str(c[1]), _meta_span(meta))

    @v_args(meta=True)
    def hole(self, meta, c):
        return S.Hole(str(c[0])[1:], _tok_span(c[0]))

    @v_args(meta=True)
    def call(self, meta, c):
        name, *args = c
        args = tuple(a for a in args if a is not None)
        return S.Call(str(name), args, _meta_span(meta), _tok_span(name))

    @v_args(meta=True)
    def concat(self, meta, c):
        return S.Concat(tuple(c), _meta_span(meta))

    @v_args(meta=True)
    def match_expr(self, meta, c):
        subject, *arms = c
        return S.MatchExpr(subject, tuple(a for a in arms if a is not None), _meta_span(meta))

    @v_args(meta=True)
    def expr_arm(self, meta, c):
        return S.ExprArm(c[0], c[1], _meta_span(meta))


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    try:
        pattern = _parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    if isinstance(pattern, lark.lexer.PatternStr):
        return f"`{pattern.value}`"
    return terminal.lower()


_EXPR_START = {"NAME", "INT", "LPAR", "HOLE"}
_OPERATORS = {"`+`", "`-`", "`*`", "`&`", "`|`", "`^`", "`<<`", "`>>`", "`==`", "`!=`", "`<`",
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
        words -= _OPERATORS
        out.append("an operator")
    out = sorted(words) + out
    if len(out) > 8:
        out = out[:8] + ["..."]
    if len(out) > 1:
        return ", ".join(out[:-1]) + " or " + out[-1]
    return out[0] if out else "something else"


def _token_text(tok: Token) -> str:
    if tok.type == "$END":
        return "end of file"
    return f"`{tok}`"


def parse(text: str) -> tuple[S.SourceFile | None, list[Diagnostic]]:
    """Parse a whole file. Returns the tree (None on a syntax error) and the diagnostics."""
    try:
        tree = _parser().parse(text)
    except lark.UnexpectedToken as e:
        tok = e.token
        try:  # the precise set, after the reductions the LALR table would make
            e.expected = e.interactive_parser.accepts() or e.expected
        except Exception:  # pragma: no cover - fall back to the table's set
            pass
        if tok.type == "$END":
            line = max(text.count("\n") + 1, 1)
            last = text.rstrip("\n").splitlines()[-1:] or [""]
            col = len(last[0]) + 1
            span = S.Span(max(line - (1 if text.endswith("\n") else 0), 1), col,
                          max(line - (1 if text.endswith("\n") else 0), 1), col + 1)
            return None, [error("P003", f"unexpected end of file; expected {_expected(e.expected)}", span)]
        span = _tok_span(tok)
        return None, [error("P001", f"unexpected {_token_text(tok)}; expected {_expected(e.expected)}", span)]
    except lark.UnexpectedCharacters as e:
        span = S.Span(e.line, e.column, e.line, e.column + 1)
        ch = text[e.pos_in_stream] if 0 <= e.pos_in_stream < len(text) else "?"
        return None, [error("P002", f"unexpected character `{ch}`; it is not part of sysr's syntax here", span)]
    except lark.UnexpectedInput as e:  # pragma: no cover - other lark input errors
        line = getattr(e, "line", 1) or 1
        col = getattr(e, "column", 1) or 1
        return None, [error("P001", f"syntax error: {e}", S.Span(line, col, line, col + 1))]
    builder = _Build()
    try:
        result = builder.transform(tree)
    except lark.exceptions.VisitError as e:
        raise e.orig_exc from None
    return result, builder.diags
