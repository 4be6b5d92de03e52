"""Syntax tree back to sysr text: `print_file(parse(text))` re-parses to an equal tree.

Used to write mutants of a design (`bench.mutation.mutate_sysr`) and anything else that edits a tree and
needs the source back. The layout is fixed (two-space indents, one statement or item a line,
spaces around binary operators); parentheses are added only where the grammar's precedence
needs them (`sysr.front.grammar.lark`), so a printed design reads like a written one. Comments
are not in the tree and do not survive. Literals keep the text they were written with (`0xff`,
`5u8`).

A node the printer does not know (a construct added to the language after it) raises
`PrintError` naming it, never prints something else: add a case to the table for its class.
`same_tree(a, b)` compares two trees ignoring spans, for round-trip checks.
"""

from __future__ import annotations

import dataclasses

from . import syntax as S

INDENT = "  "
WIDTH = 96  # a match expression longer than this is written one arm a line

# Binding strength, loosest first; an operand printed where a tighter level is needed gets
# parentheses. Matches the grammar: quantifier, ==>, if-then-else, ||, &&, comparison, |, ^, &,
# shifts, + -, * (and the / % that the language is gaining), as, unary, postfix and atoms.
QUANT, IMPL, IF, OR, AND, CMP, BOR, BXOR, BAND, SHIFT, SUM, PROD, CAST, UNARY, POSTFIX = range(1, 16)
BINARY_LEVEL = {
    "||": OR, "&&": AND,
    "==": CMP, "!=": CMP, "<": CMP, "<=": CMP, ">": CMP, ">=": CMP,
    "|": BOR, "^": BXOR, "&": BAND, "<<": SHIFT, ">>": SHIFT,
    "+": SUM, "-": SUM, "*": PROD, "/": PROD, "%": PROD,
}
# Port kinds written as one word after the colon, without a type.
BARE_PORT_KINDS = ("clock", "reset", "reset_n", "areset", "areset_n")

# How a name is spelled: `syntax.written` once the language has raw identifiers (`r#match`),
# the name itself before that.
_written = getattr(S, "written", lambda name: name)


class PrintError(Exception):
    """The tree holds something the printer does not know how to write."""


def _unknown(what: str, thing) -> PrintError:
    kind = type(thing).__name__ if not isinstance(thing, str) else repr(thing)
    return PrintError(f"sysr.front.printer cannot print {what} {kind}: add it to the printer")


# ---- expressions ---------------------------------------------------------------------------

def level(e: S.Expr) -> int:
    """How tightly an expression binds (see the constants above)."""
    if isinstance(e, S.Quant):
        return QUANT
    if isinstance(e, S.Binary):
        if e.op == "==>":
            return IMPL
        try:
            return BINARY_LEVEL[e.op]
        except KeyError:
            raise _unknown("the binary operator", e.op) from None
    if isinstance(e, S.IfExpr):
        return IF
    if isinstance(e, S.Cast):
        return CAST
    if isinstance(e, S.Unary):
        return UNARY
    return POSTFIX


def expr(e: S.Expr, need: int = QUANT) -> str:
    """The text of `e` as an operand of something that needs binding strength `need`."""
    text = _EXPR.get(type(e), _no_expr)(e)
    return f"({text})" if level(e) < need else text


def _no_expr(e) -> str:
    raise _unknown("the expression", e)


def _binary(e: S.Binary) -> str:
    if e.op == "==>":  # right-associative; its right side may be a quantifier
        return f"{expr(e.left, IF)} ==> {expr(e.right, QUANT)}"
    lv = level(e)
    if lv == CMP:  # comparisons do not chain
        return f"{expr(e.left, BOR)} {e.op} {expr(e.right, BOR)}"
    return f"{expr(e.left, lv)} {e.op} {expr(e.right, lv + 1)}"


def _unary(e: S.Unary) -> str:
    if e.op not in ("!", "~", "-"):
        raise _unknown("the unary operator", e.op)
    return e.op + expr(e.operand, UNARY)


def _if_expr(e: S.IfExpr) -> str:
    # The condition and the then-branch may be any expression; parentheses keep an
    # if-then-else, an implication or a quantifier there readable. The else-branch is an
    # if-then-else (a chain) or tighter.
    return f"if {expr(e.cond, OR)} then {expr(e.then, OR)} else {expr(e.else_, IF)}"


def pattern(p: S.Pattern) -> str:
    if isinstance(p, S.PatInt):
        return p.lit.text
    if isinstance(p, S.PatBool):
        return "true" if p.value else "false"
    if isinstance(p, S.PatVariant):
        return _path(p.path)
    if isinstance(p, S.PatWild):
        return "_"
    raise _unknown("the pattern", p)


def patterns(ps) -> str:
    return " | ".join(pattern(p) for p in ps)


def _match_expr(e: S.MatchExpr) -> str:
    arms = [f"{patterns(a.patterns)} => {expr(a.value)}" for a in e.arms]
    one_line = f"match {expr(e.subject)} {{ {', '.join(arms)} }}"
    if len(one_line) <= WIDTH and "\n" not in one_line:
        return one_line
    # One arm a line, indented relative to the line the match starts on (see `_indented`).
    body = "".join(INDENT + arm.replace("\n", "\n" + INDENT) + ",\n" for arm in arms)
    return f"match {expr(e.subject)} {{\n{body}}}"


def _path(e: S.Path) -> str:
    return f"{_written(e.enum)}::{_written(e.variant)}"


_EXPR = {
    S.IntLit: lambda e: e.text,
    S.BoolLit: lambda e: "true" if e.value else "false",
    S.Name: lambda e: _written(e.name),
    S.Path: _path,
    S.Hole: lambda e: "?" + e.name,
    S.Unary: _unary,
    S.Binary: _binary,
    S.Cast: lambda e: f"{expr(e.operand, CAST)} as {type_ref(e.ty)}",
    S.IfExpr: _if_expr,
    S.MatchExpr: _match_expr,
    S.Index: lambda e: f"{expr(e.base, POSTFIX)}[{expr(e.index)}]",
    S.Slice: lambda e: f"{expr(e.base, POSTFIX)}[{expr(e.hi)}:{expr(e.lo)}]",
    S.Concat: lambda e: "{" + ", ".join(expr(p) for p in e.parts) + "}",
    S.Call: lambda e: f"{_written(e.func)}(" + ", ".join(expr(a) for a in e.args) + ")",
    S.Quant: lambda e: f"{e.kind} {_written(e.var)}: {type_ref(e.ty)} :: {expr(e.body)}",
    S.InstPort: lambda e: f"{_written(e.inst)}.{_written(e.port)}",
    S.Field: lambda e: f"{expr(e.base, POSTFIX)}.{_written(e.name)}",
    S.StructLit: lambda e: _struct_lit(e),
}


def _struct_lit(e: S.StructLit) -> str:
    parts = [f"{_written(i.name)}: {expr(i.value)}" for i in e.inits]
    if e.base is not None:
        parts.append(".." + expr(e.base))
    return f"{_written(e.name)} {{ {', '.join(parts)} }}"


def type_ref(t: S.TypeRef) -> str:
    if getattr(t, "width", None) is not None:
        return f"{t.name}[{expr(t.width)}]"
    return _written(t.name)


def _angle(parts: list[str]) -> str:
    """`<...>` after a module's name: parameters or their values (each at the level of `|`, §4.8)."""
    return f"<{', '.join(parts)}>" if parts else ""


def _module_params(m: S.Module) -> str:
    return _angle([f"{_written(p.name)}: {type_ref(p.ty)}" + (f" = {expr(p.default, BOR)}" if p.default is not None
                                                              else "") for p in getattr(m, "params", ())])


# ---- statements ----------------------------------------------------------------------------

def lvalue(lv: S.LValue) -> str:
    name = _written(lv.name)
    if lv.index is not None:
        return f"{name}[{expr(lv.index)}]"
    if lv.fields:
        return ".".join([name] + [_written(f) for f in lv.fields])
    if lv.hi is not None:
        return f"{name}[{expr(lv.hi)}:{expr(lv.lo)}]"
    return name


def _let(s: S.Let) -> str:
    ty = f": {type_ref(s.ty)}" if s.ty is not None else ""
    mut = "mut " if s.mutable else ""
    return f"let {mut}{_written(s.name)}{ty} = {expr(s.value)};"


def block(body, depth: int) -> list[str]:
    """`{`, the statements one a line at depth + 1, `}` (the caller writes what precedes `{`)."""
    if not body:
        return ["{ }"]
    lines = ["{"]
    for s in body:
        lines += stmt(s, depth + 1)
    lines.append(INDENT * depth + "}")
    return lines


def _join(head: str, tail: list[str]) -> list[str]:
    """`head` followed by a block's lines, the first on the same line."""
    *above, last = head.split("\n")
    return [*above, last + tail[0], *tail[1:]]


def _put(pad: str, text: str) -> list[str]:
    """A line (or a multi-line expression's lines, indented relative to the first) at `pad`."""
    return [pad + line for line in text.split("\n")]


def stmt(s: S.Stmt, depth: int) -> list[str]:
    pad = INDENT * depth
    if isinstance(s, S.Assign):
        return _put(pad, f"{lvalue(s.target)} = {expr(s.value)};")
    if isinstance(s, S.NbAssign):
        return _put(pad, f"{lvalue(s.target)} <= {expr(s.value)};")
    if isinstance(s, S.Let):
        return _put(pad, _let(s))
    if isinstance(s, S.If):
        return _if_stmt(s, depth, pad + "if ")
    if isinstance(s, S.Match):
        lines = _put(pad, f"match {expr(s.subject)} {{")
        for arm in s.arms:
            body = _join(f"{pad}{INDENT}{patterns(arm.patterns)} => ", block(arm.body, depth + 1))
            body[-1] += ","
            lines += body
        return lines + [pad + "}"]
    if isinstance(s, S.For):
        head = f"for {_written(s.var)} in {expr(s.start)}..{expr(s.end)} ".replace("\n", "\n" + pad)
        head = pad + head
        return _join(head, block(s.body, depth))
    raise _unknown("the statement", s)


def _if_stmt(s: S.If, depth: int, head: str) -> list[str]:
    cond = expr(s.cond).replace("\n", "\n" + INDENT * depth)
    lines = _join(f"{head}{cond} ", block(s.then, depth))
    if s.else_ is None:
        return lines
    last = lines.pop()
    if len(s.else_) == 1 and isinstance(s.else_[0], S.If):
        rest = _if_stmt(s.else_[0], depth, "else if ")
    else:
        rest = _join("else ", block(s.else_, depth))
    return lines + [f"{last} {rest[0]}", *rest[1:]]


# ---- items ---------------------------------------------------------------------------------

def port(p: S.Port) -> str:
    name = _written(p.name)
    if p.kind == "in":
        return f"{name}: in {type_ref(p.ty)}"
    if p.kind == "out":
        return f"{name}: out {type_ref(p.ty)}"
    if p.kind == "out_reg":
        init = f" = {expr(p.init)}" if p.init is not None else ""  # no reset value
        return f"{name}: out reg {type_ref(p.ty)}{init}{_powerup(p)}"
    if p.kind in BARE_PORT_KINDS:
        return f"{name}: {p.kind}"
    raise _unknown("the port kind", p.kind)


def _ghost(node) -> str:
    return "ghost " if node.ghost else ""


def _powerup(node) -> str:
    return f" initial {expr(node.powerup)}" if node.powerup is not None else ""


def module_item(it, depth: int) -> list[str]:
    pad = INDENT * depth
    if isinstance(it, S.RegDecl):
        size = f"[{expr(it.size)}]" if it.size is not None else ""
        init = f" = {expr(it.init)}" if it.init is not None else ""
        return _put(pad, f"{_ghost(it)}reg {_written(it.name)}: {type_ref(it.ty)}{size}{init}{_powerup(it)};")
    if isinstance(it, S.WireDecl):
        value = f" = {expr(it.value)}" if it.value is not None else ""
        return _put(pad, f"{_ghost(it)}wire {_written(it.name)}: {type_ref(it.ty)}{value};")
    if isinstance(it, S.ModAssign):
        return _put(pad, f"{_written(it.target)} = {expr(it.value)};")
    if isinstance(it, S.CombBlock):
        return _join(f"{pad}{_ghost(it)}comb ", block(it.body, depth))
    if isinstance(it, S.SeqBlock):
        c = it.clock
        resets = "".join(f", {_written(r)}" for r, _ in c.resets) if c is not None else ""
        clock = "" if c is None else f"({c.edge + ' ' if c.edge else ''}{_written(c.name)}{resets})"
        return _join(f"{pad}{_ghost(it)}seq{clock} ", block(it.body, depth))
    if isinstance(it, S.Spec):
        if it.kind not in S.SPEC_KINDS:
            raise _unknown("the property kind", it.kind)
        return _put(pad, f"{it.kind} {expr(it.expr)};")
    if isinstance(it, S.ConstDecl):
        return _put(pad, _const(it))
    if isinstance(it, S.InstDecl):
        return _instance(it, pad)
    raise _unknown("the module item", it)


def _instance(it: S.InstDecl, pad: str) -> list[str]:
    """`inst u = m(a: x, b: y);` on one line, or one binding a line when that is too long."""
    binds = [f"{_written(b.port)}: {expr(b.value)}" for b in it.bindings]
    values = _angle([f"{_written(p.name)} = {expr(p.value, BOR)}" for p in getattr(it, "params", ())])
    head = f"inst {_written(it.name)} = {_written(it.module)}{values}("
    one_line = f"{head}{', '.join(binds)});"
    if len(pad + one_line) <= WIDTH and "\n" not in one_line:
        return [pad + one_line]
    lines = [pad + head]
    for i, b in enumerate(binds):
        lines += _put(pad + INDENT, b + ("," if i < len(binds) - 1 else ""))
    return lines + [pad + ");"]


def _const(c: S.ConstDecl) -> str:
    return f"const {_written(c.name)}: {type_ref(c.ty)} = {expr(c.value)};"


def item(it) -> list[str]:
    if isinstance(it, S.ConstDecl):
        return _put("", _const(it))
    if isinstance(it, S.EnumDecl):
        repr_ = f": {type_ref(it.repr)}" if it.repr is not None else ""
        variants = ", ".join(_written(v.name) + (f" = {expr(v.value)}" if v.value is not None else "")
                             for v in it.variants)
        return [f"enum {_written(it.name)}{repr_} {{ {variants} }}"]
    if isinstance(it, S.StructDecl):
        fields = ", ".join(f"{_written(f.name)}: {type_ref(f.ty)}" for f in it.fields)
        return [f"struct {_written(it.name)} {{ {fields} }}"]
    if isinstance(it, S.FnDecl):
        params = ", ".join(f"{_written(p.name)}: {type_ref(p.ty)}" for p in it.params)
        lines = [f"fn {_written(it.name)}({params}) -> {type_ref(it.ret)} {{"]
        for x in it.lets if it.stmts is None else it.stmts:
            lines += stmt(x, 1)
        return lines + _put(INDENT, expr(it.body)) + ["}"]
    if isinstance(it, S.Module):
        ports = ",\n".join(INDENT * 2 + port(p) for p in it.ports)
        kw = "extern module" if it.extern else "module"
        name = _written(it.name) + _module_params(it)
        head = f"{kw} {name}(\n{ports}\n) {{" if it.ports else f"{kw} {name}() {{"
        lines = [head]
        for m in it.items:
            lines += module_item(m, 1)
        return lines + ["}"]
    raise _unknown("the item", it)


def print_file(tree: S.SourceFile) -> str:
    """The whole file: items in order, a blank line between them (not between consts), a final newline."""
    out: list[str] = []
    for i, it in enumerate(tree.items):
        if i and not (isinstance(it, S.ConstDecl) and isinstance(tree.items[i - 1], S.ConstDecl)):
            out.append("")
        out += item(it)
    return "\n".join(out) + "\n"


# ---- comparing trees -------------------------------------------------------------------------

_SPANS = frozenset({"span", "name_span", "var_span", "module_span", "inst_span", "port_span", "field_spans"})


def same_tree(a, b) -> bool:
    """Whether two trees are the same apart from their spans (nodes compare by identity)."""
    if isinstance(a, S.Span) and isinstance(b, S.Span):  # (a span inside a tuple: `SeqClock.resets`)
        return True
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
                and all(same_tree(x, y) for x, y in zip(a, b)))
    if dataclasses.is_dataclass(a) and not isinstance(a, S.Span):
        if type(a) is not type(b):
            return False
        return all(same_tree(getattr(a, f.name), getattr(b, f.name))
                   for f in dataclasses.fields(a) if f.name not in _SPANS)
    return a == b
