"""Static checks: names, types and widths, specification rules and holes -> a `Design` and diagnostics.

`check_names_types(tree)` resolves every name, types every expression (literals take their
type from context), evaluates constants, and enforces the S rules that depend on where a name is
read. Structure (drivers, latches, loops, clock and reset) is `sysr.structure`, run afterwards on
the resolved design. Errors are collected; nothing here raises on user input.

One mistake should give one error: a name that is unknown (or ghost, or declared twice) is
reported once with its other uses as a note, a type that could not be worked out (None) silences
the checks that depend on it, and a declaration with an error makes its uses unchecked.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace

from . import syntax as S
from .diagnostics import Diagnostic, Related, error
from .model import Design, EnumInfo, FnInfo, Local, Signal
from .structure import lvalues
from .types import (BOOL, BUILTINS, MAX_WIDTH, Ty, bits_for, fits, from_int, op_binary,
                    op_builtin, op_cast, op_concat, op_slice, op_unary, parse_int_type,
                    popcount_width, sint, uint)

SPEC_WHERE = ("requires", "ensures", "invariant", "assert")
DESIGN_WHERE = ("logic", "seq")
GHOST_WHERE = ("ghost_logic", "ghost_seq")
ARITH = ("+", "-", "*", "&", "|", "^")
COMPARE = ("==", "!=", "<", "<=", ">", ">=")
LOGICAL = ("&&", "||", "==>")
MAX_QUANT_BITS = 8
MAX_FOR = 4096


@dataclass
class Ctx:
    where: str  # logic, seq, ghost_logic, ghost_seq, requires, ensures, invariant, assert, fn, const, init
    scope: dict[str, Local] = field(default_factory=dict)
    in_prev: bool = False
    item: int = 0  # id of the spec being checked, to report one S001 per spec

    def bind(self, local: Local) -> "Ctx":
        scope = dict(self.scope)
        scope[local.name] = local
        return replace(self, scope=scope)


def _suggest(name: str, names) -> str:
    close = difflib.get_close_matches(name, list(names), n=1)
    return f"; did you mean `{close[0]}`?" if close else ""


def _pattern_text(p) -> str:
    if isinstance(p, S.PatInt):
        return p.lit.text
    if isinstance(p, S.PatBool):
        return str(p.value).lower()
    if isinstance(p, S.PatVariant):
        return f"{p.path.enum}::{p.path.variant}"
    return "_"


def _lines_phrase(lines: list[int]) -> str:
    words = [str(n) for n in lines[:8]] + (["..."] if len(lines) > 8 else [])
    if len(words) == 1:
        return f"line {words[0]}"
    return "lines " + ", ".join(words[:-1]) + " and " + words[-1]


def has_own_type(e) -> bool:
    """Whether an expression has a type of its own, or needs one from context (plain literals, holes)."""
    if isinstance(e, S.IntLit):
        return e.suffix is not None
    if isinstance(e, S.Hole):
        return False
    if isinstance(e, S.Unary) and e.op in ("-", "~"):
        return has_own_type(e.operand)
    if isinstance(e, S.Binary) and e.op in ARITH:
        return has_own_type(e.left) or has_own_type(e.right)
    if isinstance(e, S.Binary) and e.op in ("<<", ">>"):
        return has_own_type(e.left)
    if isinstance(e, S.IfExpr):
        return has_own_type(e.then) or has_own_type(e.else_)
    if isinstance(e, S.MatchExpr):
        return any(has_own_type(a.value) for a in e.arms)
    if isinstance(e, S.Call) and e.func == "prev" and len(e.args) == 1:
        return has_own_type(e.args[0])
    return True


class Checker:
    def __init__(self, tree: S.SourceFile) -> None:
        self.tree = tree
        self.diags: list[Diagnostic] = []
        self.enums: dict[str, EnumInfo] = {}
        self.consts: dict[str, tuple[Ty, int]] = {}
        self.fns: dict[str, FnInfo] = {}
        self.signals: dict[str, Signal] = {}
        self.types: dict[int, Ty] = {}
        self.refs: dict[int, object] = {}
        self.const_values: dict[int, int] = {}
        self.holes: list[tuple[S.Hole, Ty | None]] = []
        self.global_spans: dict[str, S.Span] = {}
        self.broken: set[str] = set()  # consts and fns whose declaration has an error
        self.broken_signals: set[str] = set()  # signals not declared because the name was taken
        self.quant_fns: set[str] = set()  # fns that use a quantifier, directly or through calls
        self.first_report: dict[tuple, int] = {}  # key -> index into diags
        self.repeats: dict[tuple, list[tuple[S.Span, str]]] = {}  # key -> (site, what) reported

    # ---- reporting -------------------------------------------------------------------
    def err(self, code: str, msg: str, span: S.Span, *notes: str, related=()) -> None:
        self.diags.append(error(code, msg, span, *notes, related=tuple(related)))

    def err_once(self, key: tuple, code: str, msg: str, span: S.Span, *notes: str, what: str = "") -> None:
        """Report one root cause (an unknown name, a ghost read) once; later sites become a note.

        `what` names the thing at this site when the key covers several (a spec naming two registers).
        """
        if key in self.first_report:
            self.repeats[key].append((span, what))
            return
        self.first_report[key] = len(self.diags)
        self.repeats[key] = [(span, what)]
        self.err(code, msg, span, *notes)

    def add_repeat_notes(self) -> None:
        for key, sites in self.repeats.items():
            first, *more = sites
            if not more:
                continue
            i = self.first_report[key]
            d = self.diags[i]
            whats = [w for w in dict.fromkeys(w for _, w in more) if w and w != first[1]]
            if whats:
                self.diags[i] = replace(d, notes=d.notes + ("the same applies to " + ", ".join(whats),))
                continue
            spans = sorted((s for s, _ in sites), key=lambda s: (s.line, s.column))
            lines = sorted({s.line for s in spans[1:]})
            note = f"also on {_lines_phrase(lines)} (reported once)"
            self.diags[i] = replace(d, span=spans[0], notes=d.notes + (note,))

    # ---- types -----------------------------------------------------------------------
    def resolve_type(self, t: S.TypeRef) -> Ty | None:
        parsed = parse_int_type(t.name)
        if parsed is not None:
            signed, width = parsed
            if not 1 <= width <= MAX_WIDTH:
                self.err("T011", f"width {width} is out of range: widths go from 1 to {MAX_WIDTH}", t.span)
                return None
            return sint(width) if signed else uint(width)
        if t.name in self.enums:
            return self.enums[t.name].ty
        notes = ["types are `bool`, `uN` and `sN` for N in 1..=256, and declared enums"]
        if t.name in ("clock", "reset", "reset_n"):
            notes = [f"`{t.name}` is a kind of port, not a type: write `NAME: {t.name}` without `in` or `out`"]
        other = _foreign_type(t.name)
        hint = f"; did you mean `{other}`?" if other else _suggest(t.name, list(self.enums) + ["bool", "u8", "s8"])
        self.err_once(("enum", t.name), "N003", f"unknown type `{t.name}`" + hint, t.span, *notes)
        return None

    # ---- globals ---------------------------------------------------------------------
    def declare_global(self, name: str, span: S.Span) -> bool:
        if name in self.global_spans:
            self.err("N002", f"`{name}` is defined twice", span,
                     related=[Related(self.global_spans[name], "first defined here")])
            self.broken.add(name)  # its uses are ambiguous: not checked
            return False
        self.global_spans[name] = span
        return True

    def run(self) -> Design | None:
        modules = [i for i in self.tree.items if isinstance(i, S.Module)]
        if not modules:
            self.err("P005", "the file has no module; a design is one `module NAME(ports) { ... }`",
                     S.Span(1, 1, 1, 2))
            return None
        for extra in modules[1:]:
            self.err("P005", f"a file holds exactly one module; `{extra.name}` is a second one",
                     extra.name_span, related=[Related(modules[0].name_span, "the first module")])
        for item in self.tree.items:
            if isinstance(item, S.EnumDecl):
                self.enum_decl(item)
        for item in self.tree.items:
            if isinstance(item, S.ConstDecl):
                self.const_decl(item, Ctx("const"))
            elif isinstance(item, S.FnDecl):
                self.fn_signature(item)
        self.fn_calls()
        for item in self.tree.items:
            if isinstance(item, S.FnDecl) and item.name in self.fns:
                self.fn_body(item)
        module = modules[0]
        self.module_decls(module)
        self.module_bodies(module)
        self.add_repeat_notes()
        return Design(self.tree, module, self.enums, self.consts, self.fns, self.signals,
                      self.types, self.refs, self.const_values, self.holes)

    def enum_decl(self, e: S.EnumDecl) -> None:
        if not self.declare_global(e.name, e.name_span):
            return
        if not e.variants:
            self.err("T011", f"enum `{e.name}` has no variants", e.name_span)
            return
        values: dict[str, int] = {}
        seen: dict[int, S.Variant] = {}
        next_value = 0
        explicit = []
        for v in e.variants:
            if v.name in values:
                self.err("N002", f"variant `{v.name}` is defined twice in `{e.name}`", v.span)
                continue
            value = next_value
            if v.value is not None:
                got = self.const_int(v.value, Ctx("const"))
                value = got if got is not None else next_value
                explicit.append(value)
            if value in seen:
                self.err("N002", f"variants `{seen[value].name}` and `{v.name}` of `{e.name}` share the encoding {value}",
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
                    self.err("T002", f"the encodings of `{e.name}` need {width} bits; `{rt}` has {rt.width}",
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
            if _has_hole(c.value):
                return
            self.err("T010", f"the value of const `{c.name}` is not a constant expression", c.value.span,
                     "a const may use literals, other consts, enum variants and operators")
            return
        self.consts[c.name] = (ty, value)

    def fn_signature(self, f: S.FnDecl) -> None:
        if not self.declare_global(f.name, f.name_span):
            return
        if f.name in BUILTINS or f.name == "prev":
            self.err("N002", f"`{f.name}` is a builtin and cannot be redefined", f.name_span)
            return
        params = []
        seen: set[str] = set()
        for p in f.params:
            if p.name in seen:
                self.err("N002", f"parameter `{p.name}` is declared twice", p.span)
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
        calls = {name: {c.func for part in _fn_parts(info.decl) for c in _nodes(part, S.Call) if c.func in self.fns}
                 for name, info in self.fns.items()}
        on_reported_cycle: set[str] = set()
        for name, info in self.fns.items():
            reach = _reachable(name, calls)
            if name in reach and name not in on_reported_cycle:
                cycle = _call_cycle(name, calls)
                on_reported_cycle.update(cycle)
                path = " -> ".join(cycle + [name])
                self.err("A010", f"`{name}` is recursive ({path}); fns are inlined, so they cannot call "
                                 "themselves", info.decl.name_span,
                         "write the repetition as a `for` loop in a `comb` block, or unroll it by hand")
            if any(any(True for _ in _nodes(part, S.Quant)) for f in reach | {name}
                   for part in _fn_parts(self.fns[f].decl)):
                self.quant_fns.add(name)

    def fn_body(self, f: S.FnDecl) -> None:
        info = self.fns[f.name]
        ctx = Ctx("fn")
        for (name, ty), p in zip(info.params, f.params):
            ctx = ctx.bind(Local(name, ty, "param", p.span))
        for let in f.lets:
            ctx = self.let(let, ctx)
        self.expr(f.body, ctx, info.ret)

    # ---- module declarations ---------------------------------------------------------
    def global_kind(self, name: str) -> str:
        for item in self.tree.items:
            if getattr(item, "name", None) == name and not isinstance(item, S.Module):
                return {S.EnumDecl: "an enum", S.ConstDecl: "a const", S.FnDecl: "a fn"}[type(item)]
        return "a const"  # a module-level const

    def add_signal(self, sig: Signal) -> None:
        if sig.name in self.signals or sig.name in self.broken_signals:
            first = self.signals.pop(sig.name, None)
            self.broken_signals.add(sig.name)  # its uses are ambiguous: not checked
            if first is None:
                return
            notes = ()
            if first.kind == "out" and sig.kind == "reg":
                notes = (f"for a registered output declare the port `{sig.name}: out reg {first.ty} = INIT` "
                         "and drop the `reg` declaration",)
            self.err("N002", f"`{sig.name}` is declared twice", sig.span, *notes,
                     related=[Related(first.span, "first declared here")])
            return
        if sig.name in self.global_spans:
            self.err("N002", f"`{sig.name}` is already the name of {self.global_kind(sig.name)}; "
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
            ty = BOOL if p.kind in ("reset", "reset_n") else None
            if p.ty is not None:
                ty = self.resolve_type(p.ty)
            self.add_signal(Signal(p.name, p.kind, ty, p.name_span, p))
        for item in m.items:
            if isinstance(item, S.RegDecl):
                self.reg_decl(item)
            elif isinstance(item, S.WireDecl):
                ty = self.resolve_type(item.ty)
                self.add_signal(Signal(item.name, "wire", ty, item.name_span, item, item.ghost))
        for sig in self.signals.values():
            self.reset_value(sig)

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
        if value is None and not _has_hole(init):
            self.err("T010", f"the reset value of `{sig.name}` must be a constant", init.span,
                     "write a literal, a const or an enum variant")
        sig.init = value

    def module_bodies(self, m: S.Module) -> None:
        for item in m.items:
            if isinstance(item, S.WireDecl) and item.value is not None:
                sig = self.signals.get(item.name)
                if sig is not None and sig.decl is item and sig.ty is not None:
                    self.expr(item.value, Ctx("ghost_logic" if item.ghost else "logic"), sig.ty)
            elif isinstance(item, S.ModAssign):
                self.mod_assign(item)
            elif isinstance(item, (S.CombBlock, S.SeqBlock)):
                ghost = self.block_ghostness(item)
                kind = ("ghost_" if ghost else "") + ("logic" if isinstance(item, S.CombBlock) else "seq")
                self.block(item.body, Ctx(kind))
            elif isinstance(item, S.Spec):
                self.expr(item.expr, Ctx(item.kind, item=id(item)), BOOL)

    def block_ghostness(self, item) -> bool:
        """Whether to check a block as ghost logic. A block that assigns only state of the other
        kind (ghost or design) is missing or has an extra `ghost`: one error for the block."""
        sigs = [self.signals[lv.name] for lv in lvalues(item.body) if lv.name in self.signals]
        if not sigs or any(sig.ghost == item.ghost for sig in sigs):
            return item.ghost
        kw = "comb" if isinstance(item, S.CombBlock) else "seq"
        names = ", ".join(dict.fromkeys(f"`{sig.name}`" for sig in sigs))
        at = S.Span(item.span.line, item.span.column, item.span.line,
                    item.span.column + len(kw) + (6 if item.ghost else 0))
        if item.ghost:
            self.err("S005", f"this `ghost {kw}` block assigns only design state ({names})", at,
                     f"design state is driven by design logic: write `{kw}` without `ghost`")
        else:
            self.err("S005", f"this `{kw}` block assigns only ghost state ({names})", at,
                     f"ghost state is driven by ghost logic: write `ghost {kw}`")
        return not item.ghost

    def mod_assign(self, a: S.ModAssign) -> None:
        sig = self.signals.get(a.target)
        if sig is None:
            self.unknown_target(a.target, a.name_span, Ctx("logic"))
            self.expr(a.value, Ctx("logic"), None, quiet_literal=True)
            return
        ghost = sig.ghost
        if not sig.is_comb:
            self.target_kind_error("=", sig, a.name_span, "logic")
        self.refs[id(a)] = sig
        if sig.ty is not None and not sig.is_array:
            self.expr(a.value, Ctx("ghost_logic" if ghost else "logic"), sig.ty)

    def unknown_target(self, name: str, span: S.Span, ctx: Ctx) -> None:
        """An assignment to something that is not a signal: a local, a const, another global, or nothing."""
        local = ctx.scope.get(name)
        if name in self.broken_signals:
            return  # declared twice or clashing: reported at the declaration
        if local is not None:
            what = {"let": "a `let` binding", "for": "a loop variable", "quant": "a quantified variable",
                    "param": "a parameter"}[local.kind]
            self.err("A004", f"`{name}` is {what} and cannot be assigned", span,
                     "bind a new name with another `let`, or declare a wire: `wire NAME: TYPE;`")
        elif name in self.global_spans:
            self.err("A004", f"`{name}` is {self.global_kind(name)} and cannot be assigned", span,
                     "only wires and outputs take `=`, and registers `<=`",
                     related=[Related(self.global_spans[name], "defined here")])
        else:
            self.err_once(("name", name), "N001", f"unknown name `{name}`" + _suggest(name, self.signals), span,
                          "declare it first: an output port, `wire NAME: TYPE;` or `reg NAME: TYPE = INIT;`")

    def target_kind_error(self, op: str, sig: Signal, span: S.Span, where: str) -> None:
        if op == "=":
            if sig.is_state:
                hint = f"registers take `<=` inside a `seq` block: `{sig.name} <= ...;`"
            elif sig.is_input:
                hint = "inputs are driven from outside the module"
            else:
                hint = "only wires and outputs take `=`"
            self.err_once(("A004", sig.name), "A004",
                          f"`=` assigns to {sig.describe()}, which is not a wire or output", span, hint)
        else:
            if sig.kind == "out":
                hint = (f"to assign it in `seq`, make it a registered output: `{sig.name}: out reg {sig.ty} = 0`; "
                        f"or drive it with `{sig.name} = ...;` in a `comb` block")
            elif sig.kind == "wire":
                hint = (f"wires take `=` in a `comb` block or at module level; for state declare "
                        f"`reg {sig.name}: {sig.ty} = 0;`")
            elif sig.is_input:
                hint = "inputs are driven from outside the module"
            else:
                hint = "only registers, register arrays and memories take `<=`"
            self.err_once(("A005", sig.name), "A005",
                          f"`<=` assigns to {sig.describe()}, which is not a register", span, hint)

    # ---- statements ------------------------------------------------------------------
    def block(self, stmts, ctx: Ctx) -> None:
        for st in stmts:
            ctx = self.stmt(st, ctx)

    def let(self, let: S.Let, ctx: Ctx) -> Ctx:
        if let.ty is not None:
            ty = self.resolve_type(let.ty)
            self.expr(let.value, ctx, ty, quiet_literal=ty is None)
        elif has_own_type(let.value) or _has_hole(let.value):
            ty = self.expr(let.value, ctx, None)  # a hole here is reported with an unknown type
        else:
            ty = None
            self.err("T003", f"the type of `{let.name}` is not known: its value has no type of its own",
                     let.name_span, f"write the type, e.g. `let {let.name}: u8 = ...;`, or give a literal a suffix "
                                    "such as `1u8`")
        if let.name in ctx.scope or let.name in self.signals or let.name in self.consts:
            self.err("N002", f"`{let.name}` is already defined; a `let` needs a new name", let.name_span)
        # an unknown type (None) silences the uses; the error was reported
        local = Local(let.name, ty, "let", let.name_span)  # type: ignore[arg-type]
        self.refs[id(let)] = local
        return ctx.bind(local)

    def stmt(self, st, ctx: Ctx) -> Ctx:
        if isinstance(st, S.Let):
            return self.let(st, ctx)
        if isinstance(st, (S.Assign, S.NbAssign)):
            self.assignment(st, ctx)
        elif isinstance(st, S.If):
            self.expr(st.cond, ctx, BOOL, cond=True)
            self.block(st.then, ctx)
            if st.else_ is not None:
                self.block(st.else_, ctx)
        elif isinstance(st, S.Match):
            sty = self.expr(st.subject, ctx, None)
            self.match_arms(st.subject, [a.patterns for a in st.arms], sty, st.span)
            for arm in st.arms:
                self.block(arm.body, ctx)
        elif isinstance(st, S.For):
            self.for_stmt(st, ctx)
        return ctx

    def for_stmt(self, st: S.For, ctx: Ctx) -> None:
        why = "a `for` loop is unrolled, so its bounds must be constants"
        start = self.const_int(st.start, ctx, why)
        end = self.const_int(st.end, ctx, why)
        ty = None  # a bound with an error: the variable's uses are not checked
        if start is not None and end is not None:
            if end - start > MAX_FOR or end < start:
                self.err("T011", f"a for loop runs 0 to {MAX_FOR} times; {start}..{end} is out of range", st.span)
            else:
                ty = uint(bits_for(max(end - 1, 0)))
        local = Local(st.var, ty, "for", st.var_span)  # type: ignore[arg-type]
        self.refs[id(st)] = local
        if st.var in ctx.scope or st.var in self.signals:
            self.err("N002", f"`{st.var}` is already defined; the loop variable needs a new name", st.var_span)
        self.block(st.body, ctx.bind(local))

    def assignment(self, st, ctx: Ctx) -> None:
        lv: S.LValue = st.target
        op = "=" if isinstance(st, S.Assign) else "<="
        sig = self.signals.get(lv.name)
        if sig is None:
            self.unknown_target(lv.name, lv.name_span, ctx)
            self.expr(st.value, ctx, None, quiet_literal=True)
            return
        self.refs[id(lv)] = sig
        ghost_ctx = ctx.where in GHOST_WHERE
        seq_ctx = ctx.where in ("seq", "ghost_seq")
        if op == "=" and seq_ctx:
            self.err("A004", "`=` in a `seq` block: registers take `<=`", st.span,
                     "use `<=` for registers, or `let NAME = ...;` for a temporary")
        elif op == "<=" and not seq_ctx:
            self.err("A005", "`<=` in a `comb` block: combinational signals take `=`", st.span,
                     "registers are assigned in `seq { ... }` blocks")
        elif op == "=" and not sig.is_comb:
            self.target_kind_error("=", sig, lv.name_span, ctx.where)
        elif op == "<=" and not sig.is_state:
            self.target_kind_error("<=", sig, lv.name_span, ctx.where)
        if sig.ghost != ghost_ctx and (sig.is_comb or sig.is_state):
            if ghost_ctx:
                self.err_once(("S005", sig.name), "S005",
                              f"ghost logic assigns {sig.describe()}; ghost blocks drive only ghost state",
                              lv.name_span, "assign design state in a `comb` or `seq` block without `ghost`")
            else:
                self.err_once(("S005", sig.name), "S005",
                              f"design logic assigns {sig.describe()}; ghost state is driven only by "
                              "`ghost comb` and `ghost seq` blocks", lv.name_span)
        target_ty = self.lvalue_type(lv, sig, ctx)
        self.expr(st.value, ctx, target_ty, quiet_literal=target_ty is None)

    def lvalue_type(self, lv: S.LValue, sig: Signal, ctx: Ctx) -> Ty | None:
        if sig.ty is None:
            return None
        if lv.index is not None:
            if sig.is_array:
                self.index_expr(lv.index, ctx, sig.size)
                return sig.ty
            if not sig.ty.is_int:
                self.err("T008", f"cannot index {sig.describe()} of type `{sig.ty}`", lv.span)
                return None
            self.index_expr(lv.index, ctx, sig.ty.width)
            return BOOL
        if lv.hi is not None:
            if sig.is_array:
                self.err("T012", f"{sig.describe()} cannot be assigned whole: assign one element, "
                                 f"`{sig.name}[i] <= ...;`", lv.span)
                return None
            return self.slice_bounds(lv.hi, lv.lo, sig.ty, ctx, lv.span)
        if sig.is_array:
            self.err("T012", f"{sig.describe()} cannot be assigned whole: assign one element, "
                             f"`{sig.name}[i] <= ...;`", lv.span)
            return None
        return sig.ty

    # ---- patterns --------------------------------------------------------------------
    def match_arms(self, subject, arm_patterns, sty: Ty | None, span: S.Span) -> None:
        """Check every arm's patterns against the subject's type, then exhaustiveness.

        Patterns of the wrong type are one mistake (usually the subject is not what was meant):
        reported once, and the exhaustiveness check is skipped.
        """
        if sty is None:
            return
        fits = [(p, self.pattern(p, sty)) for pats in arm_patterns for p in pats]
        bad = [p for p, ok in fits if ok is False]
        if bad:
            p = bad[0]
            self.err("T001", f"pattern `{_pattern_text(p)}` {self.pattern_kind(p)} but the match is on `{sty}`",
                     p.span, *self.pattern_hint(sty),
                     related=[Related(subject.span, f"this has type `{sty}`")])
            return
        if all(ok for _, ok in fits):  # an unknown variant is reported; coverage would mislead
            self.exhaustive(sty, arm_patterns, span)

    def pattern(self, p, sty: Ty) -> bool | None:
        """Type one pattern against the subject type: False when its kind does not fit, None when
        it names an unknown enum or variant (reported)."""
        if isinstance(p, S.PatInt):
            if sty.kind == "enum":
                return False
            self.literal(p.lit, sty)
        elif isinstance(p, S.PatBool):
            return sty.is_bool
        elif isinstance(p, S.PatVariant):
            vt = self.path(p.path)
            return None if vt is None else vt == sty
        return True

    def pattern_kind(self, p) -> str:
        if isinstance(p, S.PatInt):
            return "is an integer"
        if isinstance(p, S.PatBool):
            return "is a bool"
        return f"is a variant of `{p.path.enum}`"

    @staticmethod
    def pattern_hint(sty: Ty) -> tuple[str, ...]:
        if sty.kind == "enum":
            return (f"write variants of `{sty.enum}`, e.g. `{sty.enum}::NAME`, or match on another value",)
        if sty.is_bool:
            return ("write `true` and `false`, or match on another value",)
        return (f"write integer literals that fit `{sty}`, or match on another value",)

    def pattern_values(self, pats, sty: Ty) -> set[int] | None:
        """The values a list of patterns covers; None for a wildcard."""
        out: set[int] = set()
        for p in pats:
            if isinstance(p, S.PatWild):
                return None
            if isinstance(p, S.PatInt):
                out.add(from_int(p.lit.value, sty.width))
            elif isinstance(p, S.PatBool):
                out.add(int(p.value))
            elif isinstance(p, S.PatVariant):
                info = self.enums.get(p.path.enum)
                if info and p.path.variant in info.variants:
                    out.add(info.variants[p.path.variant])
        return out

    def exhaustive(self, sty: Ty | None, arm_patterns, span: S.Span) -> None:
        if sty is None:
            return
        covered: set[int] = set()
        for pats in arm_patterns:
            vals = self.pattern_values(pats, sty)
            if vals is None:
                return
            covered |= vals
        if sty.kind == "enum":
            info = self.enums[sty.enum]
            missing = [n for n, v in info.variants.items() if v not in covered]
            if missing:
                self.err("T007", f"match is not exhaustive: missing {', '.join(f'{sty.enum}::{n}' for n in missing)}",
                         span, "add the missing arms, or a `_ => ...` arm")
            return
        if sty.width <= 16 and len(covered) == 1 << sty.width:
            return
        if sty.width <= 16:
            missing = sorted(set(range(1 << sty.width)) - covered)
            shown = ", ".join(str(v) for v in missing[:4]) + (", ..." if len(missing) > 4 else "")
            self.err("T007", f"match on `{sty}` is not exhaustive: missing {shown}", span,
                     "add a `_ => ...` arm")
        else:
            self.err("T007", f"match on `{sty}` is not exhaustive", span, "add a `_ => ...` arm")

    # ---- constants -------------------------------------------------------------------
    def const_int(self, e, ctx: Ctx, *notes: str, report_nonconst: bool = True) -> int | None:
        """A constant non-negative integer (array size, bound, index, slice bound)."""
        if isinstance(e, S.IntLit) and e.suffix is None:
            self.types[id(e)] = uint(bits_for(e.value))
            self.const_values[id(e)] = e.value
            return e.value
        ty = self.expr(e, ctx, None)
        if ty is None:
            return None
        v = self.const_eval(e)
        if v is None:
            if report_nonconst and not _has_hole(e):
                self.err("T010", "expected a constant here (a literal, a const, or operators on them)", e.span,
                         *notes)
            return None
        if ty.kind != "uint":
            self.err("T008", f"expected an unsigned constant, found `{ty}`", e.span)
            return None
        return v

    def const_eval(self, e) -> int | None:
        """The value of a typed expression built from literals, consts and variants; else None."""
        key = id(e)
        if key in self.const_values:
            return self.const_values[key]
        ty = self.types.get(key)
        if ty is None:
            return None
        v = self._const_eval(e, ty)
        if v is not None:
            self.const_values[key] = v
        return v

    def _const_eval(self, e, ty: Ty) -> int | None:
        ce = self.const_eval
        if isinstance(e, S.IntLit):
            return from_int(e.value, ty.width)
        if isinstance(e, S.BoolLit):
            return int(e.value)
        if isinstance(e, S.Name):
            ref = self.refs.get(id(e))
            if isinstance(ref, str) and ref in self.consts:
                return self.consts[ref][1]
            return None
        if isinstance(e, S.Path):
            info = self.enums.get(e.enum)
            return info.variants.get(e.variant) if info else None
        if isinstance(e, S.Unary):
            a = ce(e.operand)
            return None if a is None else op_unary(e.op, a, ty)
        if isinstance(e, S.Binary):
            a, b = ce(e.left), ce(e.right)
            if a is None or b is None:
                return None
            lt = self.types.get(id(e.left))
            return op_binary(e.op, a, b, lt)
        if isinstance(e, S.Cast):
            a = ce(e.operand)
            return None if a is None else op_cast(a, self.types[id(e.operand)], ty)
        if isinstance(e, S.IfExpr):
            c = ce(e.cond)
            if c is None:
                return None
            return ce(e.then) if c else ce(e.else_)
        if isinstance(e, S.Slice):
            a, hi, lo = ce(e.base), ce(e.hi), ce(e.lo)
            return None if None in (a, hi, lo) else op_slice(a, hi, lo)
        if isinstance(e, S.Concat):
            vals = [ce(p) for p in e.parts]
            if None in vals:
                return None
            return op_concat([(v, self.types[id(p)].width) for v, p in zip(vals, e.parts)])
        if isinstance(e, S.Index):
            a, i = ce(e.base), ce(e.index)
            return None if a is None or i is None else (a >> i) & 1
        if isinstance(e, S.Call) and e.func in BUILTINS and len(e.args) == 1:
            a = ce(e.args[0])
            return None if a is None else op_builtin(e.func, a, self.types[id(e.args[0])])
        return None

    # ---- expressions -----------------------------------------------------------------
    def literal(self, lit: S.IntLit, expected: Ty | None, negated: bool = False) -> Ty | None:
        ty = expected
        if lit.suffix is not None:
            parsed = parse_int_type(lit.suffix)
            signed, width = parsed
            if not 1 <= width <= MAX_WIDTH:
                self.err("T011", f"width {width} is out of range: widths go from 1 to {MAX_WIDTH}", lit.span)
                return None
            ty = sint(width) if signed else uint(width)
        if ty is None:
            self.err("T003", f"the literal `{lit.text}` needs a type here", lit.span,
                     f"give it a suffix, e.g. `{lit.text}u8`")
            return None
        if ty.kind == "enum":
            self.err("T001", f"expected `{ty}`, found the integer `{lit.text}`", lit.span,
                     f"write a variant, `{ty.enum}::NAME`")
            return None
        value = -lit.value if negated else lit.value
        if not fits(value, ty, lit.text.startswith(("0x", "0b"))):
            self.err("T002", f"the literal `{'-' if negated else ''}{lit.text}` does not fit in `{ty}`", lit.span,
                     self._range_note(ty))
        self.types[id(lit)] = ty
        return ty

    @staticmethod
    def _range_note(ty: Ty) -> str:
        if ty.signed:
            return f"`{ty}` holds {-(1 << (ty.width - 1))} to {(1 << (ty.width - 1)) - 1}"
        return f"`{ty}` holds 0 to {(1 << ty.width) - 1}"

    def expect(self, got: Ty | None, expected: Ty | None, e) -> Ty | None:
        if got is not None and expected is not None and got != expected:
            self.err("T001", f"expected `{expected}`, found `{got}`", e.span, *self.conversion_note(got, expected))
        return got

    @staticmethod
    def conversion_note(got: Ty, expected: Ty) -> tuple[str, ...]:
        """How to turn a value of type `got` into `expected`, when there is a way."""
        if expected.is_bool and got.is_int:
            return ("for a truth value compare it, e.g. `x != 0`",)
        if got.is_int and expected.is_int:
            return (f"convert with `as {expected}`",)
        if got.kind == "enum" and expected.is_int:
            return (f"`as {expected}` gives the encoding of a `{got}`",)
        if expected.kind == "enum":
            return (f"write a variant, `{expected.enum}::NAME`",)
        return ()

    def expr(self, e, ctx: Ctx, expected: Ty | None, cond: bool = False, quiet_literal: bool = False) -> Ty | None:
        """Type `e`, pushing `expected` to its literals. Records and returns the type (None on error)."""
        if expected is None and not has_own_type(e) and quiet_literal:
            return None
        ty = self._expr(e, ctx, expected)
        if ty is not None:
            self.types[id(e)] = ty
            if cond and not ty.is_bool:
                self.err("T004", f"a condition must be `bool`, found `{ty}`", e.span,
                         f"compare it, e.g. `{_short(e)} != 0`" if ty.is_int else "compare it with `==`")
                return ty
            if not cond:
                self.expect(ty, expected, e)
        return ty

    def _expr(self, e, ctx: Ctx, expected: Ty | None) -> Ty | None:
        method = getattr(self, "e_" + type(e).__name__)
        return method(e, ctx, expected)

    def e_IntLit(self, e: S.IntLit, ctx, expected):
        return self.literal(e, expected)

    def e_BoolLit(self, e, ctx, expected):
        return BOOL

    def e_Hole(self, e: S.Hole, ctx, expected):
        self.holes.append((e, expected))
        return expected

    def e_Path(self, e: S.Path, ctx, expected):
        return self.path(e)

    def path(self, e: S.Path) -> Ty | None:
        info = self.enums.get(e.enum)
        if info is None:
            self.err_once(("enum", e.enum), "N004", f"unknown enum `{e.enum}`" + _suggest(e.enum, self.enums),
                          e.span)
            return None
        if e.variant not in info.variants:
            self.err_once(("variant", e.enum, e.variant), "N004",
                          f"`{e.enum}` has no variant `{e.variant}`" + _suggest(e.variant, info.variants), e.span,
                          f"its variants: {', '.join(info.variants)}")
            return None
        self.types[id(e)] = info.ty
        return info.ty

    def e_Name(self, e: S.Name, ctx: Ctx, expected):
        local = ctx.scope.get(e.name)
        if local is not None:
            self.refs[id(e)] = local
            return local.ty
        if e.name in self.broken or e.name in self.broken_signals:
            return None  # its declaration has an error, reported there
        if e.name in self.consts:
            self.refs[id(e)] = e.name
            return self.consts[e.name][0]
        sig = self.signals.get(e.name)
        if sig is not None and ctx.where == "fn":
            self.err("N001", f"`{e.name}` is a signal; a fn sees only its parameters and consts", e.span,
                     "pass it as an argument")
            return None
        if sig is not None and ctx.where in ("const", "init"):
            self.err("T010", f"`{e.name}` is a signal; a constant is needed here", e.span)
            return None
        if sig is None:
            self.unknown_name(e, ctx)
            return None
        self.refs[id(e)] = sig
        self.read_rules(sig, e.span, ctx)
        if sig.kind == "clock":
            self.err_once(("clock", sig.name), "A008",
                          f"the clock `{sig.name}` cannot be read; it only times the `seq` blocks", e.span)
            return None
        if sig.is_array:
            self.err("T012", f"{sig.describe()} cannot be read whole; read one element, `{sig.name}[i]`", e.span)
            return None
        return sig.ty

    def unknown_name(self, e: S.Name, ctx: Ctx) -> None:
        pool = list(ctx.scope) + list(self.consts)
        if ctx.where not in ("fn", "const", "init"):
            pool += list(self.signals)
        hint = ()
        if e.name in self.enums:
            hint = (f"an enum is used through its variants: `{e.name}::VARIANT`",)
        elif e.name in self.fns or e.name in BUILTINS or e.name == "prev":
            hint = (f"`{e.name}` is a function; call it: `{e.name}(...)`",)
        self.err_once(("name", e.name), "N001", f"unknown name `{e.name}`" + _suggest(e.name, pool), e.span, *hint)

    def read_rules(self, sig: Signal, span: S.Span, ctx: Ctx) -> None:
        w = ctx.where
        if w in DESIGN_WHERE and sig.ghost:
            self.err_once(("S002", sig.name), "S002",
                          f"design logic reads {sig.describe()}; ghost state exists only for specifications",
                          span, "ghost state is never lowered to Verilog; compute the value with design logic instead")
        elif w in GHOST_WHERE and not sig.ghost and not sig.is_port:
            self.err_once(("S001", sig.name, "ghost"), "S001",
                          f"ghost logic reads {sig.describe()}, which is part of the implementation", span,
                          "ghost logic may read ports, ghost state and `prev(...)`; keep a ghost copy of what "
                          "the model needs, and relate design state to it with an `invariant` or `assert`")
        elif w in ("requires", "ensures") and not sig.ghost and not sig.is_port:
            self.err_once(("S001", ctx.item), "S001",
                          f"`{w}` names {sig.describe()}, which is part of the implementation", span,
                          f"a contract may read ports, ghost state, consts and fns; write `assert` instead of "
                          f"`{w}` for a property about the implementation", what=sig.describe())
        elif w == "invariant" and sig.is_input:
            self.err_once(("S003", sig.name), "S003",
                          f"an invariant is about state, but it names the {sig.describe()}", span,
                          "use `assert` for a property that reads inputs")

    def e_Unary(self, e: S.Unary, ctx, expected):
        if e.op == "!":
            t = self.operand(e.operand, ctx, BOOL)
            if t is not None and not t.is_bool:
                self.err("T008", f"`!` needs a `bool`, found `{t}`", e.span, "for a bitwise complement write `~`")
                return None
            return BOOL if t is not None else None
        if e.op == "-" and isinstance(e.operand, S.IntLit):
            t = self.literal(e.operand, expected, negated=True)
            if t is not None:
                self.types[id(e.operand)] = t
            return t
        t = self.expr(e.operand, ctx, expected if not has_own_type(e.operand) else None)
        if t is not None and t.kind == "enum":
            self.err("T008", f"`{e.op}` is not defined for the enum `{t}`", e.span)
            return None
        return t

    def operand_pair(self, left, right, ctx, expected) -> tuple[Ty | None, Ty | None]:
        """Type two operands that must share a type: one with a type of its own gives it to the other."""
        if has_own_type(left):
            lt = self.expr(left, ctx, None)
            n = len(self.diags)
            rt = self.operand(right, ctx, lt, quiet=lt is None)
            self.loop_var_note(left, ctx, n)
            return lt, rt
        if has_own_type(right):
            rt = self.expr(right, ctx, None)
            n = len(self.diags)
            lt = self.operand(left, ctx, rt, quiet=rt is None)
            self.loop_var_note(right, ctx, n)
            return lt, rt
        lt = self.expr(left, ctx, expected)
        rt = self.expr(right, ctx, expected, quiet_literal=lt is None)
        return lt, rt

    def loop_var_note(self, e, ctx: Ctx, since: int) -> None:
        """A literal that does not fit a loop variable's narrow type: say where the type comes from."""
        local = ctx.scope.get(e.name) if isinstance(e, S.Name) else None
        if local is None or local.kind != "for" or local.ty is None:
            return
        note = (f"the loop variable `{e.name}` has type `{local.ty}`, just wide enough for its range; "
                f"cast it for arithmetic, e.g. `({e.name} as u8)`")
        for i in range(since, len(self.diags)):
            if self.diags[i].code == "T002":
                self.diags[i] = replace(self.diags[i], notes=self.diags[i].notes + (note,))

    def operand(self, e, ctx: Ctx, ty: Ty | None, quiet: bool = False) -> Ty | None:
        """Type an operand whose type the caller checks itself: `ty` reaches only typeless literals and holes."""
        if has_own_type(e):
            return self.expr(e, ctx, None)
        return self.expr(e, ctx, ty, quiet_literal=quiet)

    def e_Binary(self, e: S.Binary, ctx, expected):
        op = e.op
        if op in LOGICAL:
            return self.logical(e, ctx)
        if op in ("<<", ">>"):
            lt = self.expr(e.left, ctx, expected if not has_own_type(e.left) else None)
            if isinstance(e.right, S.IntLit) and e.right.suffix is None:
                rt = self.literal(e.right, uint(bits_for(e.right.value)))
            else:
                rt = self.expr(e.right, ctx, None)
            if rt is not None and rt.kind != "uint":
                self.err("T008", f"a shift amount must be unsigned, found `{rt}`", e.right.span)
            if lt is not None and lt.kind == "enum":
                self.err("T008", f"`{op}` is not defined for the enum `{lt}`", e.span)
                return None
            return lt
        if op in COMPARE:
            lt, rt = self.operand_pair(e.left, e.right, ctx, None)
            if lt is not None and rt is not None and lt != rt:
                self.err("T001", f"`{op}` compares `{lt}` with `{rt}`; both sides must have the same type",
                         e.span, "convert one side with `as`")
            elif lt is not None and lt.kind == "enum" and op not in ("==", "!="):
                self.err("T008", f"`{op}` is not defined for the enum `{lt}`; enums compare with `==` and `!=`",
                         e.span)
            return BOOL
        # arithmetic and bitwise
        lt, rt = self.operand_pair(e.left, e.right, ctx, expected)
        if lt is not None and rt is not None and lt != rt:
            self.err("T001", f"`{op}` on `{lt}` and `{rt}`; both operands must have the same type", e.span,
                     "convert one side with `as`")
            return None
        if lt is None or rt is None:
            return None  # reported where it went wrong
        t = lt
        if t.kind == "enum":
            self.err("T008", f"`{op}` is not defined for the enum `{t}`", e.span, "use `as` to get its encoding")
            return None
        return t

    def logical(self, e: S.Binary, ctx: Ctx) -> Ty | None:
        """`&&`, `||`, `==>`: bool operands; one error for the operator when neither side is bool."""
        op = e.op
        lt = self.operand(e.left, ctx, BOOL)
        rt = self.operand(e.right, ctx, BOOL)
        bad = [(t, side) for t, side in ((lt, e.left), (rt, e.right)) if t is not None and not t.is_bool]
        hint = {"&&": "for a bitwise and write `&`; for a truth value compare, e.g. `x != 0`",
                "||": "for a bitwise or write `|`; for a truth value compare, e.g. `x != 0`",
                "==>": "compare it for a truth value, e.g. `x != 0`"}[op]
        if len(bad) == 2:
            self.err("T008", f"`{op}` needs `bool` operands, found `{lt}` and `{rt}`", e.span, hint)
        elif bad:
            t, side = bad[0]
            self.err("T008", f"`{op}` needs `bool` operands, found `{t}`", side.span, hint)
        if bad or lt is None or rt is None:
            return None
        return BOOL

    def e_Cast(self, e: S.Cast, ctx, expected):
        dst = self.resolve_type(e.ty)
        if isinstance(e.operand, S.IntLit) and e.operand.suffix is None:
            self.err("T003", f"the literal `{e.operand.text}` needs a type before `as`", e.operand.span,
                     f"write `{e.operand.text}u8` (or the width you mean), or drop the cast")
            return dst
        src = self.expr(e.operand, ctx, None)
        if src is None or dst is None:
            return dst
        if dst.kind == "enum":
            self.err("T006", f"cannot cast `{src}` to the enum `{dst}`", e.span,
                     f"enums are made from their variants; to test a number, compare it with a variant's "
                     f"encoding, e.g. `{_short(e.operand)} == ({dst}::NAME as {src})`")
            return dst
        if e.ty.name == "bool" and src.width > 1:
            self.err("T006", f"cannot cast `{src}` to `bool`", e.span,
                     f"for a truth value compare it, `{_short(e.operand)} != 0`; for one bit index it, "
                     f"`{_short(e.operand)}[0]`")
        return dst

    def e_IfExpr(self, e: S.IfExpr, ctx, expected):
        self.expr(e.cond, ctx, BOOL, cond=True)
        lt, rt = self.operand_pair(e.then, e.else_, ctx, expected)
        if lt is not None and rt is not None and lt != rt:
            self.err("T001", f"the branches of `if` have types `{lt}` and `{rt}`; they must match", e.span)
            return None
        return lt if rt is not None else None

    def e_MatchExpr(self, e: S.MatchExpr, ctx, expected):
        sty = self.expr(e.subject, ctx, None)
        self.match_arms(e.subject, [a.patterns for a in e.arms], sty, e.span)
        result = expected
        own = next((a for a in e.arms if has_own_type(a.value)), None)
        if result is None and own is not None:
            result = self.expr(own.value, ctx, None)
            if result is None:
                return None
        if expected is not None:
            return self.arms_against(e, ctx, expected)
        quiet = False
        for arm in e.arms:
            if arm is not own:
                got = self.expr(arm.value, ctx, result, quiet_literal=quiet)
                quiet = quiet or (got is None and result is None)
        return result

    def arms_against(self, e: S.MatchExpr, ctx: Ctx, expected: Ty) -> Ty | None:
        """Type the arms of a match expression where `expected` is wanted: when every arm has the
        same other type, that is one error (the match's), else one error per wrong arm."""
        got = [(arm, self.operand(arm.value, ctx, expected)) for arm in e.arms]
        wrong = [(arm, t) for arm, t in got if t is not None and t != expected]
        if wrong and len(wrong) == len(e.arms) and len({t for _, t in wrong}) == 1:
            t = wrong[0][1]
            self.err("T001", f"expected `{expected}`, but every arm of this match is `{t}`", e.span,
                     *self.conversion_note(t, expected))
            return None
        for arm, t in wrong:
            self.expect(t, expected, arm.value)
        return None if wrong else expected

    def index_expr(self, idx, ctx, limit: int | None) -> None:
        """Type an index into a bit-vector of `limit` bits or an array of `limit` elements."""
        if isinstance(idx, S.IntLit) and idx.suffix is None:
            self.literal(idx, uint(bits_for(idx.value)))
            self.types[id(idx)] = uint(bits_for(idx.value))
        else:
            it = self.expr(idx, ctx, None)
            if it is None:
                return
            if it.kind != "uint":
                self.err("T008", f"an index must be unsigned, found `{it}`", idx.span)
                return
        v = self.const_eval(idx)
        if v is not None and limit is not None and v >= limit:
            self.err("T005", f"index {v} is out of range: valid indexes are 0 to {limit - 1}", idx.span)

    def e_Index(self, e: S.Index, ctx, expected):
        base = e.base
        if isinstance(base, S.Name):
            sig = self.signals.get(base.name) if base.name not in ctx.scope else None
            if sig is not None and sig.is_array and ctx.where not in ("fn", "const", "init"):
                self.refs[id(base)] = sig
                self.read_rules(sig, base.span, ctx)
                self.index_expr(e.index, ctx, sig.size)
                return sig.ty
        bt = self.expr(base, ctx, None)
        if bt is None:
            self.index_expr(e.index, ctx, None)
            return None
        if bt.kind == "enum":
            self.err("T008", f"cannot index the enum `{bt}`", e.span, "cast it to its encoding first")
            return None
        self.index_expr(e.index, ctx, bt.width)
        return BOOL

    def slice_bounds(self, hi_e, lo_e, bt: Ty, ctx, span) -> Ty | None:
        hi = self.const_int(hi_e, ctx, report_nonconst=False)
        lo = self.const_int(lo_e, ctx, report_nonconst=False)
        loose = [b for b in (hi_e, lo_e) if id(b) in self.types and self.const_eval(b) is None
                 and not _has_hole(b)]
        if loose:
            self.err("T010", "slice bounds must be constants (literals, consts, or operators on them)",
                     loose[0].span.to(loose[-1].span),
                     "for bits at a variable position shift first, e.g. `(x >> i)[1:0]`, or index one bit, `x[i]`")
            return None
        if hi is None or lo is None:
            return None
        if hi < lo:
            self.err("T005", f"slice [{hi}:{lo}] is reversed: write the high bit first, [{lo}:{hi}]", span)
            return None
        if hi >= bt.width:
            self.err("T005", f"slice [{hi}:{lo}] is out of range for `{bt}` (bits {bt.width - 1} down to 0)", span)
            return None
        return uint(hi - lo + 1)

    def e_Slice(self, e: S.Slice, ctx, expected):
        bt = self.expr(e.base, ctx, None)
        if bt is None:
            return None
        if bt.kind == "enum":
            self.err("T008", f"cannot slice the enum `{bt}`", e.span, "cast it to its encoding first")
            return None
        return self.slice_bounds(e.hi, e.lo, bt, ctx, e.span)

    def e_Concat(self, e: S.Concat, ctx, expected):
        total = 0
        ok = True
        for p in e.parts:
            if isinstance(p, S.IntLit) and p.suffix is None:
                self.err("T003", f"the literal `{p.text}` in a concatenation needs a width", p.span,
                         f"write e.g. `{p.text}u4`")
                ok = False
                continue
            t = self.expr(p, ctx, None)
            if t is None:
                ok = False
                continue
            if t.kind == "enum":
                self.err("T008", f"cannot concatenate the enum `{t}`", p.span, "cast it to its encoding first")
                ok = False
            total += t.width
        if not ok:
            return None
        if total > MAX_WIDTH:
            self.err("T011", f"the concatenation is {total} bits wide; the limit is {MAX_WIDTH}", e.span)
            return None
        return uint(total)

    def e_Call(self, e: S.Call, ctx: Ctx, expected):
        if e.func == "prev":
            return self.call_prev(e, ctx, expected)
        if e.func in BUILTINS:
            return self.call_builtin(e, ctx)
        return self.call_fn(e, ctx)

    def call_prev(self, e: S.Call, ctx: Ctx, expected):
        if len(e.args) != 1:
            self.err("T009", f"`prev` takes one argument, got {len(e.args)}", e.span)
            return None
        if ctx.where not in SPEC_WHERE and ctx.where not in GHOST_WHERE:
            self.err("S004", "`prev` may be used only in specifications and ghost logic", e.span,
                     "in design logic, keep the previous value in a register")
        elif ctx.in_prev:
            self.err("S004", "`prev` cannot be nested; keep older values in a ghost register", e.span)
        return self.operand(e.args[0], replace(ctx, in_prev=True), expected)

    def call_builtin(self, e: S.Call, ctx: Ctx):
        if len(e.args) != 1:
            self.err("T009", f"`{e.func}` takes one argument, got {len(e.args)}", e.span)
            return None
        a = e.args[0]
        if isinstance(a, S.IntLit) and a.suffix is None:
            self.err("T003", f"the literal `{a.text}` needs a width here", a.span, f"write e.g. `{a.text}u8`")
            return None
        t = self.expr(a, ctx, None)
        if t is None:
            return None
        if not t.is_int:
            self.err("T008", f"`{e.func}` needs an integer, found `{t}`", a.span, f"`{_short(a)} as uN` gives "
                     "an enum's encoding")
            return None
        return uint(popcount_width(t.width)) if e.func == "popcount" else BOOL

    def call_fn(self, e: S.Call, ctx: Ctx):
        info = self.fns.get(e.func)
        if info is None:
            if e.func not in self.broken:
                self.unknown_function(e, ctx)
            for a in e.args:
                self.expr(a, ctx, None, quiet_literal=True)
            return None
        if len(e.args) != len(info.params):
            sig = ", ".join(f"{n}: {t}" for n, t in info.params)
            self.err("T009", f"`{e.func}` takes {len(info.params)} argument(s), got {len(e.args)}", e.span,
                     f"it is declared `fn {e.func}({sig}) -> {info.ret}`")
        for a, (pname, pt) in zip(e.args, info.params):
            at = self.operand(a, ctx, pt)
            if at is not None and pt is not None and at != pt:
                self.err("T001", f"argument `{pname}` of `{e.func}` has type `{pt}`, found `{at}`", a.span,
                         *self.conversion_note(at, pt))
        if ctx.where not in SPEC_WHERE and ctx.where != "fn" and e.func in self.quant_fns:
            self.err("S006", f"`{e.func}` uses a quantifier, so it may be called only from properties", e.span,
                     "in logic, compute the value with a `for` loop in a `comb` block")
        return info.ret

    def unknown_function(self, e: S.Call, ctx: Ctx) -> None:
        pool = list(self.fns) + list(BUILTINS) + ["prev"]
        hint = ()
        if e.func in self.signals or e.func in ctx.scope or e.func in self.consts:
            hint = (f"`{e.func}` is a value, not a function; to index it write `{e.func}[i]`",)
        elif not _suggest(e.func, pool):
            hint = ("the builtins are " + ", ".join(f"`{b}`" for b in BUILTINS) + " and `prev`; "
                    "declare others with `fn`",)
        self.err_once(("fn", e.func), "N005", f"unknown function `{e.func}`" + _suggest(e.func, pool),
                      e.name_span, *hint)

    def e_Quant(self, e: S.Quant, ctx: Ctx, expected):
        if ctx.where not in SPEC_WHERE and ctx.where != "fn":
            self.err("S006", f"`{e.kind}` may be used only in properties (and fns called from them)", e.span,
                     "in design logic, write a `for` loop")
        t = self.resolve_type(e.ty)
        if t is not None and (t.kind != "uint" or t.width > MAX_QUANT_BITS):
            self.err("T008", f"a quantified variable ranges over an unsigned type of at most {MAX_QUANT_BITS} bits, "
                             f"not `{t}`", e.ty.span)
            t = None
        local = Local(e.var, t or uint(1), "quant", e.var_span)
        self.refs[id(e)] = local
        self.expr(e.body, ctx.bind(local), BOOL, cond=True)
        return BOOL


def _nodes(e, cls):
    """Every node of class `cls` in a syntax subtree (expressions, statements, declarations)."""
    if isinstance(e, cls):
        yield e
    if isinstance(e, (S.TypeRef, S.Span)) or not hasattr(e, "__dataclass_fields__"):
        return
    for name in e.__dataclass_fields__:
        v = getattr(e, name)
        for x in (v if isinstance(v, tuple) else (v,)):
            if hasattr(x, "__dataclass_fields__"):
                yield from _nodes(x, cls)


def _reachable(start: str, calls: dict[str, set[str]]) -> set[str]:
    """The fns that `start` calls, directly or through others (itself only if on a cycle)."""
    seen: set[str] = set()
    todo = list(calls.get(start, ()))
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo += calls.get(n, ())
    return seen


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


def _short(e) -> str:
    """How to show an expression in a suggestion: its name, or `x` when it is not a plain name."""
    return e.name if isinstance(e, S.Name) else "x"


def _has_hole(e) -> bool:
    return any(True for _ in _nodes(e, S.Hole))


def _fn_parts(f: S.FnDecl) -> list:
    return [let.value for let in f.lets] + [f.body]


def check_names_types(tree: S.SourceFile) -> tuple[Design | None, list[Diagnostic]]:
    c = Checker(tree)
    design = c.run()
    return design, c.diags
