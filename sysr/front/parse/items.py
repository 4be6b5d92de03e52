"""The builder's rules for a file's items and statements: declarations, ports, blocks, specs, instances,
`let`, `if`, `match`, `for` and the assignments' targets.
"""

from __future__ import annotations

from lark import Token

from ...diagnostics import error
from .. import syntax as S
from .fields import resolve_fields
from .rules import _Seq, _after, _kind_port, _nodes, _raw, _rule, _tok_span, _token


class ItemRules:
    """Rule methods of `_Build` (`sysr.front.parse.grammar`) for items and statements."""

    # -- file and items
    @_rule
    def start(self, span, items):
        if self.inst_ports:  # some `a.b` may be a struct field rather than an instance's port
            items = resolve_fields(items)
        return S.SourceFile(tuple(items), span)

    @_rule
    def type(self, span, c):
        (name,) = c
        return S.TypeRef(str(name), _tok_span(name))

    @_rule
    def type_width(self, span, c):  # `u[W]`: the width an expression (§4.8)
        name, width = c
        return S.TypeRef(str(name), span, width)

    @_raw
    def mparams(self, span, c):
        return _Seq(_nodes(c, S.ModParam), span)

    @_raw
    def mparam(self, span, c):
        name = _token(c, "NAME")
        ty = next(x for x in c if isinstance(x, S.TypeRef))
        return S.ModParam(str(name), ty, _after(c, "="), span, _tok_span(name))

    @_raw
    def iparams(self, span, c):
        return _Seq(_nodes(c, S.ParamSet), span)

    @_rule
    def iparam(self, span, c):
        name, value = c
        return S.ParamSet(str(name), value, span, _tok_span(name))

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
    def struct_field(self, span, c):
        name, ty = c
        return S.StructField(str(name), ty, span, _tok_span(name))

    @_raw
    def struct_decl(self, span, c):
        name = _token(c, "NAME")
        return S.StructDecl(str(name), _nodes(c, S.StructField), span, _tok_span(name))

    @_rule
    def param(self, span, c):
        name, ty = c
        return S.Param(str(name), ty, span)

    @_raw
    def fn_decl(self, span, c):
        name = _token(c, "NAME")
        nodes = [x for x in c if not isinstance(x, Token)]
        body = nodes[-1]
        stmts = tuple(x for x in nodes[:-1] if isinstance(x, (S.Let, S.Assign, S.If, S.For)))
        if all(isinstance(st, S.Let) and not st.mutable for st in stmts):
            return S.FnDecl(str(name), _nodes(c, S.Param), _after(c, "->"), stmts, body, span, _tok_span(name))
        return S.FnDecl(str(name), _nodes(c, S.Param), _after(c, "->"), (), body, span, _tok_span(name), stmts)

    @_rule
    def fn_assign(self, span, c):
        target, value = c
        lv = _fn_target(target)
        if lv is None:
            self.diags.append(error("P001", "only a `let mut` variable, one of its bits `x[i]`, a slice "
                                            "`x[hi:lo]` or a field `x.f` can be assigned", target.span,
                                    "a fn assigns its own `let mut` variables; its value is its last expression"))
            lv = S.LValue("", None, None, None, target.span, target.span)
        return S.Assign(lv, value, span)

    @_rule
    def module(self, span, c):
        extern = isinstance(c[0], Token) and c[0].type == "EXTERN"
        name, *rest = c[1:] if extern else c
        params = tuple(rest.pop(0).items) if rest and isinstance(rest[0], _Seq) else ()
        ports = tuple(p for p in rest if isinstance(p, S.Port))
        items = tuple(p for p in rest if not isinstance(p, S.Port))
        return S.Module(str(name), ports, items, span, _tok_span(name), params, extern)

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
        powerup = None
        if len(c) > 5 and isinstance(c[-2], Token) and c[-2].type == "INITIAL":  # `initial V`: its power-up value
            powerup, c = c[-1], c[:-2]
        return S.Port(str(c[0]), "out_reg", c[3], c[4] if len(c) > 4 else None, span, _tok_span(c[0]), powerup)

    port_clock = _kind_port("clock")
    port_reset = _kind_port("reset")
    port_reset_n = _kind_port("reset_n")
    port_areset = _kind_port("areset")
    port_areset_n = _kind_port("areset_n")

    @_raw
    def reg_decl(self, span, c):
        name = _token(c, "NAME")
        ghost = _token(c, "GHOST") is not None
        initial = _token(c, "INITIAL")
        powerup = next(c[i + 1] for i, x in enumerate(c) if x is initial) if initial is not None else None
        return S.RegDecl(str(name), _after(c, ":"), _after(c, "["), _after(c, "="), ghost, span, _tok_span(name),
                         powerup)

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
        clock = next((x for x in c if isinstance(x, S.SeqClock)), None)
        return S.SeqBlock(c[-1].items, _token(c, "GHOST") is not None, span, clock)

    @_raw
    def seq_clock(self, span, c):
        comma = next((i for i, x in enumerate(c) if isinstance(x, Token) and x.type == "COMMA"), len(c))
        head = [x for x in c[:comma] if isinstance(x, Token) and x.type == "NAME"]
        edge = str(head[0]) if len(head) == 2 else None
        clock = head[-1]
        names = [x for x in c[comma:] if isinstance(x, Token) and x.type == "NAME"]
        resets = tuple((str(n), _tok_span(n)) for n in names)
        return S.SeqClock(str(clock), edge, span, _tok_span(clock), resets)

    @_rule
    def spec(self, span, c):
        kw, expr = c
        return S.Spec(str(kw), expr, span)

    def spec_kw(self, c):
        return c[0]

    @_rule
    def inst_decl(self, span, c):
        name, module, *bindings = c
        params = tuple(bindings.pop(0).items) if bindings and isinstance(bindings[0], _Seq) else ()
        return S.InstDecl(str(name), str(module), tuple(bindings), span, _tok_span(name), _tok_span(module),
                          params)

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
        mutable = _token(c, "MUT") is not None
        return S.Let(str(name), _after(c, ":"), _after(c, "="), span, _tok_span(name), mutable)

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
    def lv_field(self, span, c):  # `r.f.g`: bits of `r`, worked out by the checker (FieldBound)
        name, *fields = c
        last = _tok_span(fields[-1])
        return S.LValue(str(name), None, S.FieldBound(last), S.FieldBound(last), span, _tok_span(name),
                        tuple(map(str, fields)), tuple(map(_tok_span, fields)))

    @_rule
    def lv_slice(self, span, c):
        return S.LValue(str(c[0]), None, c[1], c[2], span, _tok_span(c[0]))


def _fn_target(e) -> S.LValue | None:
    """The target of an assignment at the top of a fn body, read as an expression: `x`, `x[i]`,
    `x[hi:lo]`, a field `x.f` (None for anything else)."""
    if isinstance(e, S.Name):
        return S.LValue(e.name, None, None, None, e.span, e.span)
    if isinstance(e, S.Index) and isinstance(e.base, S.Name):
        return S.LValue(e.base.name, e.index, None, None, e.span, e.base.span)
    if isinstance(e, S.Slice) and isinstance(e.base, S.Name):
        return S.LValue(e.base.name, None, e.hi, e.lo, e.span, e.base.span)
    if isinstance(e, (S.Field, S.InstPort)):  # `x.f.g`: bits of `x`, as `lv_field` reads them in blocks
        names, spans, base = [], [], e
        while isinstance(base, S.Field):
            names.insert(0, base.name)
            spans.insert(0, base.name_span)
            base = base.base
        if isinstance(base, S.InstPort):  # the parser reads `x.f` on a name as an instance's port first
            names.insert(0, base.port)
            spans.insert(0, base.port_span)
            base = S.Name(base.inst, base.inst_span)
        if isinstance(base, S.Name):
            return S.LValue(base.name, None, S.FieldBound(spans[-1]), S.FieldBound(spans[-1]), e.span, base.span,
                            tuple(names), tuple(spans))
    return None
