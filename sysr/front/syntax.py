"""The syntax tree: frozen dataclasses, one per construct, each carrying its source span.

Built by `sysr.front.parse` from lark's tree; read by the checker, the encoder and the lowering.
Nodes are compared by identity where a side table keys on them (`id(node)`).

Names are stored plain: the raw identifier `r#match` is the name `match`. `written(name)` is
how a diagnostic shows a name so that it can be copied back into the source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


# The keywords that the parser also reads where a name may stand (a statement, an expression, a
# module item), so a name spelled like one must be written as a raw identifier, `r#match`.
# The others (`in`, `out`, `clock`, `reset`, `reset_n`, `areset`, `areset_n`, `as`, `then`)
# are keywords only where no name can stand, so they work as plain names.
# tests/test_reach.py checks this set against the parser's tables.
RAW_KEYWORDS = frozenset("""
assert comb const cover else ensures enum exists extern false fn for forall ghost if inst invariant let
match module mut reg requires seq struct true wire
""".split())


def written(name: str) -> str:
    """A name as the source must spell it: `r#match` for the name `match`, else the name."""
    return "r#" + name if name in RAW_KEYWORDS else name


@dataclass(frozen=True)
class Span:
    line: int
    column: int
    end_line: int
    end_column: int

    @staticmethod
    def unknown() -> "Span":
        return Span(1, 1, 1, 1)

    def to(self, other: "Span") -> "Span":
        return Span(self.line, self.column, other.end_line, other.end_column)


def _node(cls):
    """A syntax node: frozen, compared and hashed by identity (two equal-looking nodes are distinct)."""
    return dataclass(frozen=True, eq=False)(cls)


# ---- types -------------------------------------------------------------------------------

@_node
class TypeRef:
    name: str  # "bool", "u8", "s4", "int", an enum or struct name, or "u"/"s" with a `width`
    span: Span
    width: "Expr | None" = None  # `u[W]`: the width's expression (replaced by its value per binding)


# ---- expressions -----------------------------------------------------------------------

@_node
class IntLit:
    value: int
    suffix: str | None  # "u8", "s5" or None
    text: str
    span: Span
    # A literal that stands for a folded constant of parameters (`DEPTH - 1`, §4.8): its text.
    origin: str | None = None


@_node
class BoolLit:
    value: bool
    span: Span


@_node
class Name:
    name: str
    span: Span


@_node
class Path:
    enum: str
    variant: str
    span: Span


@_node
class Hole:
    name: str  # without the "?"; "" for a bare "?"
    span: Span


@_node
class Unary:
    op: str  # "!", "~", "-"
    operand: "Expr"
    span: Span


@_node
class Binary:
    op: str  # + - * / % << >> & ^ | == != < <= > >= && || ==>
    left: "Expr"
    right: "Expr"
    span: Span


@_node
class Cast:
    operand: "Expr"
    ty: TypeRef
    span: Span


@_node
class IfExpr:
    cond: "Expr"
    then: "Expr"
    else_: "Expr"
    span: Span


@_node
class PatInt:
    lit: IntLit
    span: Span


@_node
class PatBool:
    value: bool
    span: Span


@_node
class PatVariant:
    path: Path
    span: Span


@_node
class PatWild:
    span: Span


Pattern = Union[PatInt, PatBool, PatVariant, PatWild]


@_node
class ExprArm:
    patterns: tuple[Pattern, ...]
    value: "Expr"
    span: Span


@_node
class MatchExpr:
    subject: "Expr"
    arms: tuple[ExprArm, ...]
    span: Span


@_node
class Index:
    base: "Expr"
    index: "Expr"
    span: Span


@_node
class Slice:
    base: "Expr"
    hi: "Expr"
    lo: "Expr"
    span: Span


@_node
class Concat:
    parts: tuple["Expr", ...]
    span: Span


@_node
class Call:
    func: str  # a fn, a builtin, or one of TEMPORAL
    args: tuple["Expr", ...]
    span: Span
    name_span: Span


@_node
class Quant:
    kind: str  # "forall" or "exists"
    var: str
    ty: TypeRef
    body: "Expr"
    span: Span
    var_span: Span


@_node
class InstPort:
    """`u.y`: output `y` of the instance `u`."""
    inst: str
    port: str
    span: Span
    inst_span: Span
    port_span: Span


@_node
class FieldBound:
    """A bound of the bits a struct field occupies (`Field.hi`, `Field.lo`, `LValue.hi`/`lo` of a
    field target): a constant that the checker works out from the struct's type and records in
    `const_values`, so that every later stage reads a field as the slice it is."""
    span: Span


@_node
class Field:
    """`e.f`: field `f` of the struct `e` (bits `hi` down to `lo` of its vector)."""
    base: "Expr"
    name: str
    span: Span
    name_span: Span
    hi: FieldBound
    lo: FieldBound


@_node
class FieldInit:
    """`f: e` in a struct literal."""
    name: str
    value: "Expr"
    span: Span
    name_span: Span


@_node
class StructLit:
    """`Pkt { valid: true, data: d }`, or `Pkt { data: d, ..p }` (the other fields from `p`)."""
    name: str
    inits: tuple[FieldInit, ...]
    base: "Expr | None"
    span: Span
    name_span: Span


Expr = Union[IntLit, BoolLit, Name, Path, Hole, Unary, Binary, Cast, IfExpr, MatchExpr,
             Index, Slice, Concat, Call, Quant, InstPort, Field, StructLit]


# ---- statements ------------------------------------------------------------------------

@_node
class LValue:
    name: str
    index: "Expr | None"  # x[i]
    hi: "Expr | None"     # x[hi:lo]; for a field target (`r.f`), a FieldBound
    lo: "Expr | None"
    span: Span
    name_span: Span
    fields: tuple[str, ...] = ()  # `r.f.g`: the field path (then `hi`/`lo` are its bits)
    field_spans: tuple[Span, ...] = ()


@_node
class Assign:
    target: LValue
    value: Expr
    span: Span


@_node
class NbAssign:
    target: LValue
    value: Expr
    span: Span


@_node
class Let:
    name: str
    ty: TypeRef | None
    value: Expr
    span: Span
    name_span: Span
    mutable: bool = False  # `let mut`: only in a fn, where `=` may assign it again (§4.6)


@_node
class If:
    cond: Expr
    then: tuple["Stmt", ...]
    else_: tuple["Stmt", ...] | None
    span: Span


@_node
class StmtArm:
    patterns: tuple[Pattern, ...]
    body: tuple["Stmt", ...]
    span: Span


@_node
class Match:
    subject: Expr
    arms: tuple[StmtArm, ...]
    span: Span


@_node
class For:
    var: str
    start: Expr
    end: Expr
    body: tuple["Stmt", ...]
    span: Span
    var_span: Span


Stmt = Union[Assign, NbAssign, Let, If, Match, For]


# ---- items -------------------------------------------------------------------------------

RESET_KINDS = ("reset", "reset_n", "areset", "areset_n")  # synchronous, then asynchronous
PORT_KINDS = ("in", "out", "out_reg", "clock") + RESET_KINDS


@_node
class Port:
    name: str
    kind: str  # one of PORT_KINDS
    ty: TypeRef | None  # None for the clock and the resets
    init: Expr | None  # out_reg only; None: no reset value
    span: Span
    name_span: Span
    powerup: Expr | None = None  # out_reg only: `initial e`, the value at power-up (no reset value)


@_node
class RegDecl:
    name: str
    ty: TypeRef
    size: Expr | None  # T[N]
    init: Expr | None  # None: a memory (with size) or a register with no reset value (without)
    ghost: bool
    span: Span
    name_span: Span
    powerup: Expr | None = None  # `initial e`: the value at power-up, of a register without a reset value


@_node
class WireDecl:
    name: str
    ty: TypeRef
    value: Expr | None
    ghost: bool
    span: Span
    name_span: Span


@_node
class ModAssign:
    target: str
    value: Expr
    span: Span
    name_span: Span


@_node
class CombBlock:
    body: tuple[Stmt, ...]
    ghost: bool
    span: Span


@_node
class SeqClock:
    """`(clk)`, `(falling clk)` or `(clk, rst)` after `seq`: the clock port, the edge (`rising`,
    `falling`) and the reset ports named after a comma (one is allowed: §4.10)."""
    name: str
    edge: str | None  # as written; None: rising
    span: Span
    name_span: Span
    resets: tuple[tuple[str, Span], ...] = ()  # (name, its span), as written


@_node
class SeqBlock:
    body: tuple[Stmt, ...]
    ghost: bool
    span: Span
    clock: SeqClock | None = None  # None: the module's one clock, rising edge


SPEC_KINDS = ("requires", "ensures", "invariant", "assert", "cover")


@_node
class Spec:
    kind: str  # one of SPEC_KINDS
    expr: Expr
    span: Span


@_node
class ConstDecl:
    name: str
    ty: TypeRef
    value: Expr
    span: Span
    name_span: Span


@_node
class Variant:
    name: str
    value: Expr | None
    span: Span


@_node
class EnumDecl:
    name: str
    repr: TypeRef | None
    variants: tuple[Variant, ...]
    span: Span
    name_span: Span


@_node
class StructField:
    name: str
    ty: TypeRef
    span: Span
    name_span: Span


@_node
class StructDecl:
    """`struct Pkt { valid: bool, data: u8 }`: a packed struct, the first field at the MSB."""
    name: str
    fields: tuple[StructField, ...]
    span: Span
    name_span: Span


@_node
class Param:
    name: str
    ty: TypeRef
    span: Span


@_node
class FnDecl:
    """A fn. `lets` and `body` are what every back end inlines. A body written with more than
    plain `let`s (`let mut`, assignments, `if`, `for`) keeps its statements in `stmts`, and `lets`
    is () until the checker unrolls them into a chain of `let`s (sysr.front.check.fnbody)."""
    name: str
    params: tuple[Param, ...]
    ret: TypeRef
    lets: tuple[Let, ...]
    body: Expr
    span: Span
    name_span: Span
    stmts: "tuple[Stmt, ...] | None" = None


@_node
class Binding:
    """`port: expr` in an instance: what drives input `port` of the instance."""
    port: str
    value: Expr
    span: Span
    port_span: Span


@_node
class ParamSet:
    """`NAME = value` between `<` and `>` in an instance: a parameter of the child."""
    name: str
    value: "Expr"
    span: Span
    name_span: Span


@_node
class InstDecl:
    """`inst NAME = MODULE<P = v, ...>(port: expr, ...);`"""
    name: str
    module: str
    bindings: tuple[Binding, ...]
    span: Span
    name_span: Span
    module_span: Span
    params: tuple[ParamSet, ...] = ()


ModuleItem = Union[RegDecl, WireDecl, ModAssign, CombBlock, SeqBlock, Spec, ConstDecl, InstDecl]


@_node
class ModParam:
    """`NAME: int = default` between `<` and `>` after a module's name (§4.8)."""
    name: str
    ty: TypeRef
    default: "Expr | None"
    span: Span
    name_span: Span


@_node
class Module:
    name: str
    ports: tuple[Port, ...]
    items: tuple[ModuleItem, ...]
    span: Span
    name_span: Span
    params: tuple[ModParam, ...] = ()
    extern: bool = False  # `extern module`: ports and a contract, its logic in Verilog (§4.9)


Item = Union[ConstDecl, EnumDecl, StructDecl, FnDecl, Module]


@_node
class SourceFile:
    items: tuple[Item, ...]
    span: Span = field(default_factory=Span.unknown)


TEMPORAL = ("prev", "next", "within")  # the calls about other cycles (§5.2, §5.3)
FUTURE = ("next", "within")  # only as the right side of a property's `==>`


def prev_cycles(call: Call, const_values: dict[int, int]) -> int:
    """How many cycles back `prev(e)` (1) or `prev(e, n)` (n) reads."""
    return 1 if len(call.args) < 2 else const_values.get(id(call.args[1]), 1)


def prev_depth(e, const_values: dict[int, int]) -> int:
    """How many cycles back the oldest value under `e` lies: 0 without `prev`, n for
    `prev(x, n)`, the sum for a `prev` inside a `prev` (the bounded forms, §5.3, make those)."""
    if isinstance(e, (Span, TypeRef)) or not hasattr(e, "__dataclass_fields__"):
        return 0
    if isinstance(e, Call) and e.func == "prev":
        return prev_cycles(e, const_values) + prev_depth(e.args[0], const_values)
    deepest = 0
    for name in e.__dataclass_fields__:
        v = getattr(e, name)
        for x in (v if isinstance(v, tuple) else (v,)):
            deepest = max(deepest, prev_depth(x, const_values))
    return deepest


def mentions_prev(e) -> bool:
    """Whether `prev` is called anywhere under the node `e`."""
    if isinstance(e, Call) and e.func == "prev":
        return True
    for name in getattr(e, "__dataclass_fields__", {}):
        v = getattr(e, name)
        if isinstance(v, tuple):
            if any(mentions_prev(x) for x in v if hasattr(x, "__dataclass_fields__")):
                return True
        elif hasattr(v, "__dataclass_fields__") and not isinstance(v, (Span, TypeRef)):
            if mentions_prev(v):
                return True
    return False


def source_snippet(lines: list[str], span: Span) -> str:
    """The source text under a span, on one line (whitespace runs folded)."""
    if not (1 <= span.line <= span.end_line <= len(lines)):
        return ""
    if span.line == span.end_line:
        text = lines[span.line - 1][span.column - 1: span.end_column - 1]
    else:
        parts = [lines[span.line - 1][span.column - 1:]]
        parts += lines[span.line: span.end_line - 1]
        parts.append(lines[span.end_line - 1][: span.end_column - 1])
        text = " ".join(parts)
    return " ".join(text.split())
