"""Declarations and scopes: types, enums, consts, fns and the module's signals.

Every global name is declared once (N002 otherwise, and its uses go unchecked); a type name
resolves to a `Ty` or one N003 with a suggestion (including the sysr spelling of a C or
SystemVerilog type); fns are checked for recursion (A010) and for quantifiers they use; ports,
registers, memories and wires become `Signal`s with their reset values.
"""

from __future__ import annotations

import re

from ... import limits
from ...diagnostics import Related
from ...model import EnumInfo, FnInfo, Local, Signal
from ...types import BOOL, BUILTINS, MAX_WIDTH, Ty, bits_for, parse_int_type, sint, uint
from .. import syntax as S
from .context import CheckerBase, Ctx, has_hole, subnodes


class Declarations(CheckerBase):
    """Declaring the file's globals and the module's signals."""

    # ---- types -----------------------------------------------------------------------
    def resolve_type(self, t: S.TypeRef) -> Ty | None:
        if t.width is not None:
            return None  # `u[e]` left as written: its width was not a constant, already reported
        parsed = parse_int_type(t.name)
        if parsed is not None:
            signed, width = parsed
            if not 1 <= width <= MAX_WIDTH:
                self.err("T011", f"width {width} is out of range: widths go from 1 to {MAX_WIDTH}", t.span)
                return None
            return sint(width) if signed else uint(width)
        if t.name in self.enums:
            return self.enums[t.name].ty
        if t.name in self.struct_decl_of:
            return self.struct_type(t.name)
        if t.name in self.broken:
            return None  # a struct declared twice: reported there
        notes = [f"types are `bool`, `uN` and `sN` for N in 1..={MAX_WIDTH}, and declared enums and structs"]
        if t.name == "int":
            notes = ["`int` is the type of module parameters and `int` consts only (§4.8); a signal has a "
                     "width: `u32`, or `u[W]` with a parameter `W`"]
        if t.name in ("clock",) + S.RESET_KINDS:
            notes = [f"`{t.name}` is a kind of port, not a type: write `NAME: {t.name}` without `in` or `out`"]
        other = _foreign_type(t.name)
        hint = f"; did you mean `{other}`?" if other else self.suggest(t.name, list(self.enums) + list(self.struct_decl_of)
                                                                    + ["bool", "u8", "s8"])
        self.err_once(("enum", t.name), "N003", f"unknown type `{S.written(t.name)}`" + hint, t.span, *notes)
        return None

    # ---- globals ---------------------------------------------------------------------
    def declare_global(self, name: str, span: S.Span) -> bool:
        if name in self.global_spans:
            self.err("N002", f"`{S.written(name)}` is defined twice", span,
                     related=[Related(self.global_spans[name], "first defined here")])
            self.broken.add(name)  # its uses are ambiguous: not checked
            return False
        self.global_spans[name] = span
        return True

    def enum_decl(self, e: S.EnumDecl) -> None:
        if not self.declare_global(e.name, e.name_span):
            return
        if not e.variants:
            self.err("T011", f"enum `{S.written(e.name)}` has no variants", e.name_span)
            return
        values: dict[str, int] = {}
        seen: dict[int, S.Variant] = {}
        next_value = 0
        explicit = []
        for v in e.variants:
            if v.name in values:
                self.err("N002", f"variant `{S.written(v.name)}` is defined twice in `{S.written(e.name)}`", v.span)
                continue
            value = next_value
            if v.value is not None:
                got = self.const_int(v.value, Ctx("const"))
                value = got if got is not None else next_value
                explicit.append(value)
            if value in seen:
                self.err("N002", f"variants `{S.written(seen[value].name)}` and `{S.written(v.name)}` of "
                                 f"`{S.written(e.name)}` share the encoding {value}",
                         v.span)
            seen[value] = v
            values[v.name] = value
            next_value = value + 1
        width = bits_for(max(values.values()) if values else 0)
        if e.repr is not None:
            rt = self.resolve_type(e.repr)
            if rt is not None:
                if rt.kind != "uint":
                    self.err("T008", f"an enum's encoding type must be unsigned, not `{rt}`", e.repr.span)
                elif rt.width < width:
                    self.err("T002", f"the encodings of `{S.written(e.name)}` need {width} bits; `{rt}` has {rt.width}",
                             e.repr.span)
                else:
                    width = rt.width
        self.enums[e.name] = EnumInfo(e.name, Ty("enum", width, e.name), values, e)

    def const_decl(self, c: S.ConstDecl, ctx: Ctx) -> None:
        if not self.declare_global(c.name, c.name_span):
            return
        ty = self.resolve_type(c.ty)
        if ty is None or self.expr(c.value, ctx, ty) is None:
            self.broken.add(c.name)
            return
        value = self.const_eval(c.value)
        if value is None:
            self.broken.add(c.name)
            if has_hole(c.value):
                return
            self.err("T010", f"the value of const `{S.written(c.name)}` is not a constant expression", c.value.span,
                     "a const may use literals, other consts, enum variants and operators")
            return
        self.consts[c.name] = (ty, value)

    def fn_signature(self, f: S.FnDecl) -> None:
        if not self.declare_global(f.name, f.name_span):
            return
        if f.name in BUILTINS or f.name == "prev":
            self.err("N002", f"`{S.written(f.name)}` is a builtin and cannot be redefined", f.name_span)
            return
        params = []
        seen: set[str] = set()
        for p in f.params:
            if p.name in seen:
                self.err("N002", f"parameter `{S.written(p.name)}` is declared twice", p.span)
            seen.add(p.name)
            pt = self.resolve_type(p.ty)
            params.append((p.name, pt))
        ret = self.resolve_type(f.ret)
        if ret is None or any(t is None for _, t in params):
            self.broken.add(f.name)
            return
        self.fns[f.name] = FnInfo(f, tuple(params), ret)

    def fn_calls(self) -> None:
        """Reject recursion (fns are inlined) and find the fns that use quantifiers."""
        calls = {name: {c.func for part in _fn_parts(info.decl) for c in subnodes(part, S.Call) if c.func in self.fns}
                 for name, info in self.fns.items()}
        recursive: set[str] = set()
        for comp in _components(calls):  # callees first: a fn uses a quantifier if it or a callee does
            members = set(comp)
            if len(comp) > 1 or comp[0] in calls[comp[0]]:
                recursive |= members
            if any(any(True for _ in subnodes(part, S.Quant)) for f in comp for part in _fn_parts(self.fns[f].decl)) \
                    or any(c in self.quant_fns for f in comp for c in calls[f] - members):
                self.quant_fns |= members
        on_reported_cycle: set[str] = set()
        searched = 0
        for name, info in self.fns.items():
            if name in recursive and name not in on_reported_cycle:
                searched += 1  # (each search may cover the whole call graph: a few are enough)
                cycle = _call_cycle(name, calls) if searched <= limits.MAX_DIAGNOSTICS else [name, "..."]
                on_reported_cycle.update(cycle)
                path = " -> ".join(cycle + [name])
                self.err("A010", f"`{S.written(name)}` is recursive ({path}); fns are inlined, so they cannot call "
                                 "themselves", info.decl.name_span,
                         "write the repetition as a `for` loop in a `comb` block, or unroll it by hand")

    def fn_body(self, f: S.FnDecl) -> None:
        info = self.fns[f.name]
        ctx = Ctx("fn")
        for (name, ty), p in zip(info.params, f.params):
            ctx = ctx.bind(Local(name, ty, "param", p.span))
        if f.stmts is not None:
            self.fn_statements(f, info, ctx)  # sysr.front.check.fnbody
            return
        for let in f.lets:
            ctx = self.let(let, ctx)
        self.expr(f.body, ctx, info.ret)

    # ---- module declarations ---------------------------------------------------------
    def global_kind(self, name: str) -> str:
        for item in self.tree.items:
            if getattr(item, "name", None) == name and not isinstance(item, S.Module):
                return {S.EnumDecl: "an enum", S.ConstDecl: "a const", S.FnDecl: "a fn",
                        S.StructDecl: "a struct"}[type(item)]
        return "a const"  # a module-level const

    def add_signal(self, sig: Signal) -> None:
        if sig.name in self.signals or sig.name in self.broken_signals:
            first = self.signals.pop(sig.name, None)
            self.broken_signals.add(sig.name)  # its uses are ambiguous: not checked
            if first is None:
                return
            notes = ()
            if first.kind == "out" and sig.kind == "reg":
                notes = (f"for a registered output declare the port `{S.written(sig.name)}: out reg {first.ty} = INIT` "
                         "and drop the `reg` declaration",)
            self.err("N002", f"`{S.written(sig.name)}` is declared twice", sig.span, *notes,
                     related=[Related(first.span, "first declared here")])
            return
        if sig.name in self.global_spans:
            self.err("N002", f"`{S.written(sig.name)}` is already the name of {self.global_kind(sig.name)}; "
                             "a signal needs a name of its own", sig.span,
                     related=[Related(self.global_spans[sig.name], "defined here")])
            self.broken_signals.add(sig.name)
            return
        sig.index = len(self.signals)
        self.signals[sig.name] = sig

    def module_decls(self, m: S.Module) -> None:
        for item in m.items:  # consts first: declarations may use them wherever they are written
            if isinstance(item, S.ConstDecl):
                self.const_decl(item, Ctx("const"))
        for p in m.ports:
            self.add_signal(Signal(p.name, p.kind, self.port_types.get(id(p)), p.name_span, p))
        for item in m.items:
            if isinstance(item, S.RegDecl):
                self.reg_decl(item)
            elif isinstance(item, S.WireDecl):
                ty = self.resolve_type(item.ty)
                self.add_signal(Signal(item.name, "wire", ty, item.name_span, item, item.ghost))
        for item in m.items:  # after the signals: an instance's name must differ from theirs
            if isinstance(item, S.InstDecl):
                self.inst_decl(item)
        for sig in self.signals.values():
            self.reset_value(sig)
            self.powerup_value(sig)

    def reg_decl(self, item: S.RegDecl) -> None:
        ty = self.resolve_type(item.ty)
        size = None
        if item.size is not None:
            size = self.const_int(item.size, Ctx("const"))
            if size is not None and not 1 <= size <= 1 << 20:
                self.err("T011", f"array size {size} is out of range (1 to 1048576)", item.size.span)
                size = None
            if size is None:  # reported; its uses would only repeat the error
                self.broken_signals.add(item.name)
                return
        kind = "mem" if item.size is not None and item.init is None else "reg"
        self.add_signal(Signal(item.name, kind, ty, item.name_span, item, item.ghost, size))

    def reset_value(self, sig: Signal) -> None:
        d = sig.decl
        init = d.init if isinstance(d, (S.Port, S.RegDecl)) else None
        if init is None or sig.ty is None:
            return
        if self.expr(init, Ctx("init"), sig.ty) is None:
            return
        value = self.const_eval(init)
        if value is None and not has_hole(init):
            self.err("T010", f"the reset value of `{S.written(sig.name)}` must be a constant", init.span,
                     "write a literal, a const or an enum variant")
        sig.init = value

    def powerup_value(self, sig: Signal) -> None:
        """`initial e`: the value a register without a reset value holds at power-up (§4.2)."""
        d = sig.decl
        expr = getattr(d, "powerup", None)
        if expr is None or sig.ty is None:
            return
        if d.init is not None:
            self.err("A022", f"`{S.written(sig.name)}` has a reset value and a power-up value; a register "
                             "with a reset value starts at it (cycle 0 is the reset state)", expr.span,
                     "keep one: `= VALUE` for a register the reset sets, or `initial VALUE` for one that only "
                     "power-up sets and the reset leaves alone")
            return
        if sig.is_array:
            self.err("A022", f"{sig.describe()} cannot have a power-up value; only a single register can",
                     expr.span, "set the elements in the first cycles with a `seq` block, or give the array "
                                "a reset value: `= INIT`")
            return
        if self.expr(expr, Ctx("init"), sig.ty) is None:
            return
        value = self.const_eval(expr)
        if value is None and not has_hole(expr):
            self.err("T010", f"the power-up value of `{S.written(sig.name)}` must be a constant", expr.span,
                     "write a literal, a const or an enum variant")
        sig.powerup = value


def _components(calls: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of the call graph, each listed after every component
    it calls into (Tarjan's algorithm, without recursion: call chains can be long)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in calls:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(sorted(calls[root])))]
        while work:
            v, todo = work[-1]
            for w in todo:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(calls[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    out.append(comp)
    return out


def _call_cycle(start: str, calls: dict[str, set[str]]) -> list[str]:
    """A shortest call path from `start` back to itself, as the list of fns on it."""
    paths = {start: [start]}
    todo = [start]
    while todo:
        n = todo.pop(0)
        for m in sorted(calls.get(n, ())):
            if m == start:
                return paths[n]
            if m not in paths:
                paths[m] = paths[n] + [m]
                todo.append(m)
    return [start]


_FOREIGN_INT = re.compile(r"(u?int|i|uint|logic|bit)(\d+)(_t)?$")


def _foreign_type(name: str) -> str | None:
    """The sysr spelling of a type from another language (`i8`, `uint16_t`, `int32`), if any."""
    m = _FOREIGN_INT.match(name)
    if m:
        signed = m.group(1) in ("int", "i")
        return f"{'s' if signed else 'u'}{m.group(2)}"
    if name in ("logic", "bit", "wire", "boolean", "Bool"):
        return "bool"
    return None


def _fn_parts(f: S.FnDecl) -> list:
    if f.stmts is not None:
        return list(f.stmts) + [f.body]
    return [let.value for let in f.lets] + [f.body]
