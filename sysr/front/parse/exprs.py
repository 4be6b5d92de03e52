"""The builder's rules for patterns and expressions: literals, names, operators, quantifiers, calls,
`if`, `match` and concatenation.
"""

from __future__ import annotations

import copy

from lark import Token

from ...diagnostics import error
from .. import syntax as S
from .fields import field_node, struct_open
from .rules import _INT_FORMS, _Op, _Seq, _after, _raw, _rule, _tok_span, parse_int_text


class ExprRules:
    """Rule methods of `_Build` (`sysr.front.parse.grammar`) for patterns and expressions."""

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

    @_rule
    def part_up(self, span, c):
        return _part_select(c[0], c[1], c[2], span, up=True)

    @_rule
    def part_down(self, span, c):
        return _part_select(c[0], c[1], c[2], span, up=False)

    def int_lit(self, c):
        tok = c[0]
        span = _tok_span(tok)
        parsed = parse_int_text(str(tok))
        if parsed is None:
            note = _INT_FORMS
            if str(tok)[-1:] in ("u", "s"):  # `0u[W]`: a width from a parameter, as Verilog's `{W{1'b0}}`
                note = (f"a type suffix needs a number (`{str(tok)}8`); for a width from a parameter, name the "
                        f"value: `wire z: {str(tok)[-1]}[W] = {str(tok)[:-1]};`")
            self.diags.append(error("P004", f"malformed integer literal `{tok}`", span, note))
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
    def field(self, span, c):
        """`u.y` on a plain name is read as an instance's port, and `s.f` on anything else as a
        struct field; `resolve_fields` turns `s.f` on a name that is no instance into a field."""
        base, name = c
        if isinstance(base, S.Name) and id(base) not in self.container:
            port = S.InstPort(base.name, str(name), span, base.span, _tok_span(name))
            self.inst_ports.append(port)
            return port
        return field_node(base, str(name), span, _tok_span(name))

    @_raw
    def struct_lit(self, span, c):
        head = c[0]
        name, name_span, first, first_span = struct_open(head)
        inits = [S.FieldInit(first, c[1], first_span.to(c[1].span), first_span)]
        inits += [x for x in c[2:] if isinstance(x, S.FieldInit)]
        base = _after(c, "..")
        return S.StructLit(name, tuple(inits), base, span, name_span)

    @_rule
    def field_init(self, span, c):
        name, value = c
        return S.FieldInit(str(name), value, span, _tok_span(name))

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


def _part_select(base, start, width, span, up: bool):
    """Verilog's indexed part-select, `x[b +: W]` (bits b up to b + W - 1) and `x[b -: W]` (bits b
    down to b - W + 1), with a constant W: the field shifted down and sliced (reference §3.5),
    `({x} >> b)[W - 1:0]`, and for `-:` the same with W - 1 zero bits under `x`,
    `({x, 0u1 as u[W - 1]} >> b)[W - 1:0]`. `{x}` reads `x` unsigned: a bit past either end of
    `x` reads as 0."""
    sp = width.span

    def less_one():  # W - 1 (folded for a literal W, which would have no type of its own)
        if isinstance(width, S.IntLit) and width.suffix is None and width.value >= 1:
            return S.IntLit(width.value - 1, None, str(width.value - 1), sp)
        return S.Binary("-", copy.deepcopy(width), S.IntLit(1, None, "1", sp), sp)
    parts = (base,)
    if not up and not (isinstance(width, S.IntLit) and width.value == 1):
        below = less_one()
        if isinstance(below, S.IntLit):
            zeros = S.IntLit(0, f"u{below.value}", f"0u{below.value}", sp)
        else:
            zeros = S.Cast(S.IntLit(0, "u1", "0u1", sp), S.TypeRef("u", sp, below), sp)
        parts = (base, zeros)
    shifted = S.Binary(">>", S.Concat(parts, base.span), start, span)
    return S.Slice(shifted, less_one(), S.IntLit(0, None, "0", sp), span)
