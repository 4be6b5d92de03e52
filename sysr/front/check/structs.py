"""Packed structs (§2): declarations, field reads `s.f`, struct literals and field targets.

A struct is a bit-vector with a name and named fields; the first field declared takes the most
significant bits, as in SystemVerilog's `struct packed` (`sysr.types.Ty.field`). A field read
and a field target are slices of that vector: their bounds (`FieldBound` nodes) get their values
here, in `const_values`, so that every later stage reads them as the slices they are. A struct
literal sets every field, or some of them and takes the rest from a base (`..p`).
"""

from __future__ import annotations

from ...diagnostics import Related
from ...model import StructInfo
from ...types import MAX_WIDTH, Ty
from .. import syntax as S
from .context import CheckerBase, Ctx

MAX_NESTING = 32  # structs inside structs: far past any design's, short of Python's recursion


class Structs(CheckerBase):
    """Struct declarations, fields and literals."""

    def struct_decls(self) -> None:
        """Declare every struct of the file; a field may name a struct declared later."""
        decls = [i for i in self.tree.items if isinstance(i, S.StructDecl)]
        self.struct_decl_of = {d.name: d for d in decls if self.declare_global(d.name, d.name_span)}
        self.struct_busy: set[str] = set()
        for d in decls:
            if self.struct_decl_of.get(d.name) is d:
                self.struct_type(d.name)

    def struct_type(self, name: str) -> Ty | None:
        """The type of struct `name`, resolving its fields' types first (None on an error)."""
        if name in self.structs:
            return self.structs[name].ty
        d = self.struct_decl_of[name]
        if name in self.struct_busy:
            self.err("T011", f"struct `{S.written(name)}` contains itself, so it has no finite width", d.name_span,
                     "a field of a struct cannot have the struct's own type, directly or through other structs")
            self.broken.add(name)
            return None
        if name in self.broken:
            return None
        if len(self.struct_busy) >= MAX_NESTING:
            self.err("T011", f"struct `{S.written(name)}` is nested more than {MAX_NESTING} structs deep", d.name_span,
                     "a field's struct inside a field's struct ...: flatten some of the levels")
            self.broken.add(name)
            return None
        self.struct_busy.add(name)
        fields, seen, ok = [], {}, True
        for f in d.fields:
            if f.ty.width is not None:  # `u[e]` left as written: `e` is not a file-level constant
                self.err("T010", f"the width of field `{S.written(f.name)}` must be a constant of the file: a "
                                 "literal or a file-level `int` const", f.ty.width.span,
                         "a struct is declared at file level, where module parameters are not in scope; give "
                         "the module's ports a type of the parameter's width instead, `u[W]`")
            ty = self.resolve_type(f.ty)
            if f.name in seen:
                self.err("N002", f"field `{S.written(f.name)}` is declared twice in `{S.written(name)}`", f.name_span,
                         related=[Related(seen[f.name], "first declared here")])
                ok = False
            seen[f.name] = f.name_span
            ok = ok and ty is not None
            fields.append((f.name, ty))
        self.struct_busy.discard(name)
        if not d.fields:
            self.err("T011", f"struct `{S.written(name)}` has no fields", d.name_span)
            ok = False
        width = sum(t.width for _, t in fields if t is not None)
        if ok and width > MAX_WIDTH:
            self.err("T011", f"struct `{S.written(name)}` is {width} bits wide; the limit is {MAX_WIDTH}",
                     d.name_span)
            ok = False
        if not ok:
            self.broken.add(name)
            return None
        ty = Ty("struct", width, name, tuple(fields))
        self.structs[name] = StructInfo(name, ty, d)
        return ty

    # ---- fields ------------------------------------------------------------------------
    def field_of(self, sty: Ty, name: str, span: S.Span) -> tuple[int, int, Ty] | None:
        """Field `name` of the struct type `sty` as (hi, lo, type); N009 when it has none."""
        got = sty.field(name)
        if got is None:
            names = [f for f, _ in sty.fields]
            self.err_once(("field", sty.enum, name), "N009",
                          f"struct `{sty}` has no field `{S.written(name)}`" + self.suggest(name, names), span,
                          f"its fields: {', '.join(f'{S.written(n)}: {t}' for n, t in sty.fields)}")
        return got

    def not_a_struct(self, ty: Ty, name: str, span: S.Span, what: str) -> None:
        if ty.kind == "enum":
            hint = f"`{ty}` is an enum: compare it with `==`, or `match` on it"
        elif what.startswith("`"):
            hint = (f"only structs have fields; an instance's output is read as `u.y` with `u` declared by "
                    f"`inst`; for bits of `{ty}` slice it, `x[7:4]`")
        else:
            hint = f"only structs have fields; for bits of `{ty}` slice it, `x[7:4]`"
        self.err("T008", f"`.{S.written(name)}` names a field, but {what} has type `{ty}`, not a struct", span, hint)

    def e_Field(self, e: S.Field, ctx: Ctx, expected):
        bt = self.expr(e.base, ctx, None)
        if bt is None:
            return None
        if bt.kind != "struct":
            what = f"`{S.written(e.base.name)}`" if isinstance(e.base, S.Name) else "the expression before it"
            self.not_a_struct(bt, e.name, e.name_span, what)
            return None
        got = self.field_of(bt, e.name, e.name_span)
        if got is None:
            return None
        hi, lo, fty = got
        self.const_values[id(e.hi)], self.const_values[id(e.lo)] = hi, lo
        return fty

    def field_target(self, lv: S.LValue, ty: Ty) -> Ty | None:
        """`r.f.g` as an assignment's target: the bits of `r` it names (in `lv.hi`, `lv.lo`)."""
        hi, lo = ty.width - 1, 0
        for i, (name, span) in enumerate(zip(lv.fields, lv.field_spans)):
            if ty.kind != "struct":
                what = f"`{S.written(lv.name)}`" if i == 0 else f"the field `{S.written(lv.fields[i - 1])}`"
                self.not_a_struct(ty, name, span, what)
                return None
            got = self.field_of(ty, name, span)
            if got is None:
                return None
            fhi, flo, ty = got
            hi, lo = lo + fhi, lo + flo
        self.const_values[id(lv.hi)], self.const_values[id(lv.lo)] = hi, lo
        return ty

    # ---- conversions -----------------------------------------------------------------
    @staticmethod
    def bits_note(ty: Ty) -> str:
        if ty.kind == "enum":
            return "cast it to its encoding first"
        return f"name a field, `s.{S.written(ty.fields[0][0])}`, or cast it to its bits first, `s as u{ty.width}`"

    @staticmethod
    def compare_note(lt: Ty, rt: Ty) -> tuple[str, ...]:
        s, other = (lt, rt) if lt.kind == "struct" else (rt, lt)
        if s.kind != "struct":
            return ("convert one side with `as`",)
        if other.is_int and other.width == s.width:
            return (f"compare its bits, `x as u{s.width}`, or a field, `x.{S.written(s.fields[0][0])}`",)
        return (f"a `{s}` is {s.width} bits wide: compare it with another `{s}`, or compare one of its fields",)

    def struct_cast(self, e: S.Cast, src: Ty, dst: Ty) -> Ty:
        """`x as Pkt`: the bits of an unsigned integer of the struct's width read as the struct."""
        if src == dst:
            return dst
        if src.kind == "uint" and src.width == dst.width:
            return dst
        if src.kind == "struct":
            why = f"two structs convert only through their bits: `(x as u{src.width}) as ...`"
        else:
            why = (f"`{dst}` is {dst.width} bits wide: cast a `u{dst.width}` to it "
                   f"(`(x as u{dst.width}) as {dst}`), or build it with a struct literal")
        self.err("T006", f"cannot cast `{src}` to the struct `{dst}`", e.span, why)
        return dst

    # ---- literals ----------------------------------------------------------------------
    def e_StructLit(self, e: S.StructLit, ctx: Ctx, expected):
        info = self.structs.get(e.name)
        if info is None:
            if e.name in self.broken:
                return None
            kind = "an enum" if e.name in self.enums else None
            if kind:
                self.err("T001", f"`{S.written(e.name)}` is {kind}, not a struct: it has no literal with fields",
                         e.name_span, f"write a variant, `{S.written(e.name)}::NAME`")
            else:
                self.err_once(("struct", e.name), "N003", f"unknown struct `{S.written(e.name)}`"
                              + self.suggest(e.name, list(self.structs)), e.name_span,
                              "a struct is declared at file level: `struct NAME { field: TYPE, ... }`")
            for i in e.inits:
                self.expr(i.value, ctx, None, quiet_literal=True)
            return None
        ty = info.ty
        given: dict[str, S.FieldInit] = {}
        for i in e.inits:
            got = self.field_of(ty, i.name, i.name_span)
            if i.name in given:
                self.err("N002", f"field `{S.written(i.name)}` is set twice", i.name_span,
                         related=[Related(given[i.name].name_span, "first set here")])
            given.setdefault(i.name, i)
            self.expr(i.value, ctx, got[2] if got else None, quiet_literal=got is None)
        if e.base is not None:
            self.expr(e.base, ctx, ty)
            return ty
        missing = [f for f, _ in ty.fields if f not in given]
        if missing:
            self.err("T021", f"the literal of `{ty}` does not set {_fields_phrase(missing)}", e.span,
                     f"set every field, or take the others from a value: "
                     f"`{S.written(e.name)} {{ {S.written(e.inits[0].name)}: ..., ..other }}`")
            return None
        return ty


def _fields_phrase(names: list[str]) -> str:
    shown = [f"`{S.written(n)}`" for n in names]
    if len(shown) == 1:
        return "the field " + shown[0]
    return "the fields " + ", ".join(shown[:-1]) + " and " + shown[-1]
