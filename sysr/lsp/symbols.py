"""What a name in a sysr file is: the symbol under a position, its hover text and its definition.

Pure functions over a checked `Design` (`sysr.pipeline.analyze`): `symbol_at(design, line,
column, text)` finds the innermost name at a 1-based line and column (a use, a declaration, a
call, an enum variant or type) and says what it refers to, with its type, width and where it
is declared. The language server turns that into hover text and go-to-definition. In a file
with several modules it asks `design_at` which module the position is in; an instance's output
`u.y` is declared at the child's port, and the module of `inst u = m(...)` at `module m`.
A parameter (§4.8), an `int` const and a parameter set by an instance (`fifo<W = 16>`) are
found in the module as written (the checked module is a binding's copy, with them replaced by
their values) and shown with their value in the binding `design_at` chose.

A raw identifier (`r#match`) is the name `match`: its span covers the `r#` too, and the hover
text writes a name that is a keyword as the source must (`r#match`, as diagnostics do). The
syntax tree keeps no span of its own for the name of a fn parameter or an enum variant, only
where the item starts; `text` (the source) tells how long the name is written there.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..front import syntax as S
from ..model import Design, Hierarchy, Local, Signal
from ..types import BUILTINS, Ty, parse_int_type, sint, struct_fields, uint, value_of

W = S.written  # a name as the source must spell it (`r#match`)


@dataclass(frozen=True)
class Symbol:
    name: str
    span: S.Span  # of the name under the position
    text: str  # markdown: what it is, its type and width
    definition: S.Span | None  # where it is declared (None for builtins and types)


def contains(span: S.Span, line: int, column: int) -> bool:
    after_start = (line, column) >= (span.line, span.column)
    before_end = (line, column) <= (span.end_line, span.end_column)  # the end, too: a cursor just after a name
    return after_start and before_end


def size(span: S.Span) -> tuple[int, int]:
    return (span.end_line - span.line, span.end_column - span.column)


def nodes(root):
    """Every syntax node under `root` (iteratively: unrolled designs nest deeply)."""
    stack = [root]
    while stack:
        n = stack.pop()
        yield n
        for name in getattr(n, "__dataclass_fields__", {}):
            v = getattr(n, name)
            for x in (v if isinstance(v, tuple) else (v,)):
                if hasattr(x, "__dataclass_fields__") and not isinstance(x, S.Span):
                    stack.append(x)


def design_at(h: Hierarchy, line: int, column: int) -> Design:
    """The module of a file with several that holds (line, column); the top outside them all."""
    for d in h.modules.values():
        if contains(d.module.span, line, column):
            return d
    return h.top_design


def symbol_at(d: Design, line: int, column: int, text: str = "") -> Symbol | None:
    """The innermost name at (line, column), 1-based, or None, in `d`'s module or the file's
    items beside the modules. `text` is the source `d` was checked from (without it, a raw fn
    parameter or variant name is taken as written plain)."""
    head = Heads(text)
    found = param_at(d, line, column)
    if found is not None:
        return found
    best: tuple[S.Span, object] | None = None
    own = [i for i in d.file.items if not isinstance(i, S.Module)] + [d.module]
    for n in (x for item in own for x in nodes(item)):
        for span, what in [(name_span(n, head), n)] + field_targets(n):
            if span is not None and contains(span, line, column) and (best is None or size(span) < size(best[0])):
                best = (span, what)
    if best is None:
        return None
    return describe(d, best[1], best[0], head)


@dataclass(frozen=True)
class FieldTarget:
    """Field `index` of the path of an assignment's target `r.f.g` (its own name in the source)."""
    lvalue: S.LValue
    index: int


@dataclass(frozen=True)
class SignalAt:
    """A signal named where no expression is: the clock and the reset of `seq(wclk, wrst_n)`."""
    name: str


def field_targets(n) -> list:
    if isinstance(n, S.SeqClock):  # (§4.10)
        return [(n.name_span, SignalAt(n.name))] + [(span, SignalAt(r)) for r, span in n.resets]
    if not isinstance(n, S.LValue) or not n.fields:
        return []
    return [(span, FieldTarget(n, i)) for i, span in enumerate(n.field_spans)]


class Heads:
    """The span of a name written at the start of a span: `name`, or `r#name` if the source
    spells it so there."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def __call__(self, span: S.Span, name: str) -> S.Span:
        line = self.lines[span.line - 1] if 0 < span.line <= len(self.lines) else ""
        raw = line.startswith("r#", span.column - 1)
        return S.Span(span.line, span.column, span.line, span.column + len(name) + 2 * raw)


def name_span(n, head: Heads) -> S.Span | None:
    """Where the name of node `n` is written, for the nodes that have a name."""
    if isinstance(n, (S.Param, S.Variant)):
        return head(n.span, n.name)
    if isinstance(n, (S.Name, S.Path, S.TypeRef)):
        return n.span
    if isinstance(n, (S.LValue, S.ModAssign, S.Call, S.Let, S.Port, S.RegDecl, S.WireDecl, S.ConstDecl,
                      S.EnumDecl, S.FnDecl)):
        return n.name_span
    if isinstance(n, (S.For, S.Quant)):
        return n.var_span
    if isinstance(n, S.InstPort):
        return n.span
    if isinstance(n, (S.Field, S.StructLit, S.FieldInit, S.StructField, S.StructDecl)):
        return n.name_span
    if isinstance(n, S.InstDecl):
        return n.module_span
    return None


# ---- parameters and `int` consts -------------------------------------------------------------

def source_module(d: Design) -> S.Module:
    """`d`'s module as written (a binding's design holds a copy with its parameters replaced)."""
    return next((i for i in d.file.items if isinstance(i, S.Module) and i.name == d.module.name), d.module)


def param_at(d: Design, line: int, column: int) -> Symbol | None:
    """A parameter or `int` const at (line, column): its use, its declaration, or an instance's
    setting of a child's parameter; None when the position holds none of them."""
    m = source_module(d)
    ints = [i for i in d.file.items if isinstance(i, S.ConstDecl) and i.ty.name == "int"]
    best: tuple[S.Span, Symbol] | None = None
    for n in (x for root in ints + [m] for x in nodes(root)):
        sym = None
        if isinstance(n, S.Name) and n.name in d.ints and contains(n.span, line, column):
            sym = int_symbol(d, m, n.name, n.span)
        elif isinstance(n, (S.ModParam, S.ConstDecl)) and n.name in d.ints and contains(n.name_span, line, column):
            sym = int_symbol(d, m, n.name, n.name_span)
        elif isinstance(n, S.InstDecl):
            sym = next((child_param(d, n, p) for p in n.params if contains(p.name_span, line, column)), None)
        if sym is not None and (best is None or size(sym.span) < size(best[0])):
            best = (sym.span, sym)
    return best[1] if best else None


def int_symbol(d: Design, m: S.Module, name: str, span: S.Span) -> Symbol:
    param = next((p for p in m.params if p.name == name), None)
    decl = param or next((i for i in list(d.file.items) + list(m.items)
                          if isinstance(i, S.ConstDecl) and i.name == name), None)
    what = "parameter" if param is not None else "`int` const"
    where = f" in `{d.name}`" if d.binding else ""
    return Symbol(name, span, f"{what} `{W(name)}`: `int` = {d.ints[name]}{where}",
                  decl.name_span if decl is not None else None)


def child_param(d: Design, n: S.InstDecl, p: S.ParamSet) -> Symbol | None:
    """`W` in `inst u = fifo<W = 16>(...)`: the child's parameter, with the value it gets here."""
    inst = d.instances.get(n.name)
    if inst is None or inst.child is None or p.name not in inst.child.ints:
        return None
    decl = next((q for q in source_module(inst.child).params if q.name == p.name), None)
    return Symbol(p.name, p.name_span, f"parameter `{W(p.name)}` of `{W(n.module)}`: `int` = "
                                       f"{inst.child.ints[p.name]} in `{inst.child.name}`",
                  decl.name_span if decl is not None else None)


# ---- what a node names --------------------------------------------------------------------

def describe(d: Design, n, span: S.Span, head: Heads) -> Symbol | None:
    if isinstance(n, SignalAt):
        return signal_symbol(d, d.signals[n.name], span) if n.name in d.signals else None
    if isinstance(n, S.Name):
        ref = d.refs.get(id(n))
        if isinstance(ref, Signal):
            return signal_symbol(d, ref, span)
        if isinstance(ref, Local):
            return local_symbol(ref, span, head)
        if isinstance(ref, str) and ref in d.consts:
            return const_symbol(d, ref, span)
        return None
    if isinstance(n, S.LValue) and isinstance(d.refs.get(id(n)), Local):  # a fn's `let mut` (§4.6)
        return local_symbol(d.refs[id(n)], span, head)
    if isinstance(n, (S.LValue, S.ModAssign, S.Port, S.RegDecl, S.WireDecl)):
        name = n.target if isinstance(n, S.ModAssign) else n.name
        sig = d.signals.get(name)
        return signal_symbol(d, sig, span) if sig is not None else None
    if isinstance(n, (S.Let, S.For, S.Quant)):
        ref = d.refs.get(id(n))
        return local_symbol(ref, span, head) if isinstance(ref, Local) else None
    if isinstance(n, S.Param):
        return param_symbol(d, n, span, head)
    if isinstance(n, S.ConstDecl):
        return const_symbol(d, n.name, span) if n.name in d.consts else None
    if isinstance(n, S.Call):
        return call_symbol(d, n, span)
    if isinstance(n, S.Path):
        return variant_symbol(d, n.enum, n.variant, span, head)
    if isinstance(n, S.Variant):
        enum = next((e for e in d.enums.values() if n in e.decl.variants), None)
        return variant_symbol(d, enum.name, n.name, span, head) if enum else None
    if isinstance(n, (S.TypeRef, S.EnumDecl, S.StructDecl, S.StructLit)):
        return type_symbol(d, n.name, span)
    if isinstance(n, (S.Field, S.FieldInit, S.StructField, FieldTarget)):
        return field_symbol(d, n, span)
    if isinstance(n, S.FnDecl):
        return call_symbol(d, S.Call(n.name, (), n.span, n.name_span), span)
    if isinstance(n, S.InstPort):  # `u.y`: declared where the child declares `y`
        sig, inst = d.signals.get(f"{n.inst}.{n.port}"), d.instances.get(n.inst)
        if sig is None or inst is None or inst.child is None:
            return None
        port = next(p for p in inst.child.ports if p.name == n.port)
        return Symbol(sig.name, span, f"{sig.describe()} (module `{W(inst.module)}`): {type_text(d, sig.ty)}",
                      port.name_span)
    if isinstance(n, S.InstDecl):  # the module an instance is of
        inst = d.instances.get(n.name)
        if inst is None or inst.child is None:
            return None
        ports = ", ".join(f"`{W(p.name)}`" for p in inst.child.ports)
        what = (f"extern module `{W(inst.child.name)}` (its logic is Verilog; taken through its contract)"
                if inst.child.extern else f"module `{W(inst.child.name)}`")
        return Symbol(n.module, span, f"{what}: {ports}", inst.child.module.name_span)
    return None


def type_text(d: Design, ty: Ty | None) -> str:
    """`u8` (8 bits, unsigned), `Mode` (enum, 2 bits), ..."""
    if ty is None:
        return "no value"
    if ty.kind == "enum":
        return f"`{W(ty.enum)}` (enum, {_bits(ty.width)})"
    if ty.kind == "struct":
        return f"`{W(ty.enum)}` (struct, {_bits(ty.width)}: {layout(ty)})"
    if ty.is_bool:
        return "`bool` (1 bit)"
    return f"`{ty}` ({_bits(ty.width)}, {'signed' if ty.signed else 'unsigned'})"


def _bits(n: int) -> str:
    return f"{n} bit" + ("" if n == 1 else "s")


def signal_symbol(d: Design, sig: Signal, span: S.Span) -> Symbol:
    what = sig.describe()
    if sig.kind == "clock":  # the edges its seq blocks run at, and whether logic reads its level (§4.10)
        edges = sorted({e for c, e in d.block_domain.values() if c == sig.name}, reverse=True) or ["rising"]
        text = f"{what}: times the `seq` blocks at its {' and '.join(edges)} edge"
        if sig.name in d.clock_reads:
            text += "; read as its level: `bool` (1 bit)"
    elif sig.kind in ("reset", "reset_n"):
        level = "low" if sig.kind == "reset_n" else "high"
        text = f"{what}: synchronous reset, active {level}: `bool` (1 bit)" + _reset_blocks(d, sig.name)
    elif sig.kind in ("areset", "areset_n"):  # `what` says asynchronous
        level = "low" if sig.kind == "areset_n" else "high"
        text = (f"{what}: active {level}, registers read as their reset values at once: `bool` (1 bit)"
                + _reset_blocks(d, sig.name))
    elif sig.is_array:
        text = f"{what}: {sig.size} entries of {type_text(d, sig.ty)}"
    else:
        text = f"{what}: {type_text(d, sig.ty)}"
    domain = d.domains.get(sig.name)
    if domain is not None and (len(d.clocks) > 1 or domain[1] == "falling"):
        text += f", clocked by `{W(domain[0])}` at its {domain[1]} edge"
    if sig.init is not None and sig.ty is not None:
        text += f", reset value {_value(d, sig.init, sig.ty)}"
        if len(d.resets) > 1 and d.reset_of.get(sig.name):
            text += f" (by `{W(d.reset_of[sig.name])}`)"
    elif sig.powerup is not None and sig.ty is not None:
        text += f", no reset value, power-up value {_value(d, sig.powerup, sig.ty)} (the reset leaves it alone)"
    elif d.extern and sig.is_port and sig.kind == "out_reg":
        text += ", from a register of the extern module's Verilog"
    elif sig.kind in ("reg", "out_reg") and not sig.is_array and getattr(sig.decl, "init", None) is None:
        text += ", no reset value (any value until written; the reset leaves it alone)"
    return Symbol(sig.name, span, text, getattr(sig.decl, "name_span", sig.span))


def _reset_blocks(d: Design, reset: str) -> str:
    """With several resets (§4.10), the clocks of the blocks that name this one."""
    if len(d.resets) < 2:
        return ""
    clocks = sorted({c for key, (c, _) in d.block_domain.items() if d.block_reset.get(key) == reset})
    return f"; resets the registers of the blocks on {', '.join(f'`{W(c)}`' for c in clocks)}" if clocks else ""


def _value(d: Design, v: int, ty: Ty) -> str:
    if ty.kind == "struct":
        return f"`{W(ty.enum)} {{ " + ", ".join(f"{W(n)}: {_value(d, x, t).strip('`')}"
                                                for n, x, t in struct_fields(v, ty)) + " }`"
    if ty.kind == "enum":
        name = d.enums[ty.enum].name_of(v)
        return f"`{ty.enum}::{name}`" if name else str(v)
    return str(value_of(v, ty))


def local_symbol(local: Local, span: S.Span, head: Heads) -> Symbol:
    word = {"let": "let", "mut": "let mut", "for": "loop variable", "quant": "quantified variable", "param": "parameter"}[local.kind]
    where = head(local.span, local.name) if local.kind == "param" else local.span  # a param's span is `x: T`
    return Symbol(local.name, span, f"{word} `{W(local.name)}`: {type_text(None, local.ty)}", where)


def param_symbol(d: Design, p: S.Param, span: S.Span, head: Heads) -> Symbol:
    fn = next((f for f in d.fns.values() if p in f.decl.params), None)
    ty = dict(fn.params).get(p.name) if fn is not None else None
    what = type_text(d, ty) if ty is not None else f"`{p.ty.name}`"
    return Symbol(p.name, span, f"parameter `{W(p.name)}`: {what}", head(p.span, p.name))


def const_symbol(d: Design, name: str, span: S.Span) -> Symbol:
    ty, value = d.consts[name]
    decl = next((i for i in d.file.items if isinstance(i, S.ConstDecl) and i.name == name), None)
    if decl is None:
        decl = next((i for i in d.module.items if isinstance(i, S.ConstDecl) and i.name == name), None)
    return Symbol(name, span, f"const `{W(name)}`: {type_text(d, ty)} = {_value(d, value, ty)}",
                  decl.name_span if decl else None)


def call_symbol(d: Design, n: S.Call, span: S.Span) -> Symbol | None:
    if n.func in d.fns:
        info = d.fns[n.func]
        params = ", ".join(f"{W(p)}: {t}" for p, t in info.params)
        return Symbol(n.func, span, f"fn `{W(n.func)}({params}) -> {info.ret}`", info.decl.name_span)
    if n.func in BUILTINS:
        return Symbol(n.func, span, f"builtin `{n.func}` (see the reference, section 3.7)", None)
    if n.func in S.TEMPORAL:
        return Symbol(n.func, span, f"builtin `{n.func}`, about other cycles (see the reference, section 5.2)", None)
    return None


def variant_symbol(d: Design, enum: str, variant: str, span: S.Span, head: Heads) -> Symbol | None:
    info = d.enums.get(enum)
    if info is None or variant not in info.variants:
        return None
    decl = next(v for v in info.decl.variants if v.name == variant)
    return Symbol(f"{enum}::{variant}", span,
                  f"variant `{W(enum)}::{W(variant)}` = {info.variants[variant]}: {type_text(d, info.ty)}",
                  head(decl.span, decl.name))


def layout(ty: Ty) -> str:
    """`valid [8], data [7:0]`: where each field of a struct is, the first at the MSB."""
    return ", ".join(f"{W(name)} {_field_bits(ty, name)}" for name, _ in ty.fields)


def _field_bits(ty: Ty, name: str) -> str:
    hi, lo, _ = ty.field(name)
    return f"[{hi}]" if hi == lo else f"[{hi}:{lo}]"


def field_symbol(d: Design, n, span: S.Span) -> Symbol | None:
    """A field: read (`p.data`), set in a literal (`Pkt { data: ... }`), assigned (`r.data <= ...`)
    or declared; shown with its type and its bits, declared in its struct."""
    if isinstance(n, S.Field):
        sty, name = d.types.get(id(n.base)), n.name
    elif isinstance(n, FieldTarget):
        sig = d.signals.get(n.lvalue.name)
        sty, name = sig.ty if sig is not None else None, n.lvalue.fields[n.index]
        for f in n.lvalue.fields[: n.index]:
            got = sty.field(f) if sty is not None and sty.kind == "struct" else None
            sty = got[2] if got else None
    else:
        owner = next((x for x in nodes(d.file) if isinstance(x, (S.StructLit, S.StructDecl))
                      and n in (x.inits if isinstance(x, S.StructLit) else x.fields)), None)
        info = d.structs.get(owner.name) if owner is not None else None
        sty, name = info.ty if info is not None else None, n.name
    if sty is None or sty.kind != "struct" or sty.field(name) is None:
        return None
    decl = next(f for f in d.structs[sty.enum].decl.fields if f.name == name)
    return Symbol(name, span, f"field `{W(name)}` of struct `{W(sty.enum)}`, bits {_field_bits(sty, name)}: "
                              f"{type_text(d, sty.field(name)[2])}", decl.name_span)


def type_symbol(d: Design, name: str, span: S.Span) -> Symbol | None:
    s = d.structs.get(name)
    if s is not None:
        fields = ", ".join(f"{W(f)}: {t} {_field_bits(s.ty, f)}" for f, t in s.ty.fields)
        return Symbol(name, span, f"struct `{W(name)}` ({_bits(s.ty.width)}, the first field at the MSB): {fields}",
                      s.decl.name_span)
    info = d.enums.get(name)
    if info is not None:
        variants = ", ".join(f"{W(k)} = {v}" for k, v in info.variants.items())
        return Symbol(name, span, f"enum `{W(name)}` ({_bits(info.ty.width)}): {variants}", info.decl.name_span)
    parsed = parse_int_type(name)
    if parsed is None:
        return None
    signed, width = parsed
    return Symbol(name, span, f"type {type_text(d, sint(width) if signed else uint(width))}", None)
