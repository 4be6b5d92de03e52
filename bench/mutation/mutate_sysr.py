"""Source-level mutation of sysr designs: the slips models make, injected into the logic only.

Mutants are made on the syntax tree (`sysr.front.syntax`) and written back with the printer
(`sysr.front.printer`), so every mutant is a well-formed file and its diff against the printed
original shows the one change. The operators (`OPERATORS`):

- `operator`: `+`/`-`, `*` to `+`, `&`/`|`/`^`, `<<`/`>>`, `&&`/`||`;
- `comparison`: `==`/`!=`, `<` to `<=` or `>` (and the like);
- `constant`: an integer literal off by one (up and down), `true`/`false`, an enum variant
  changed to the next one;
- `negate`: the condition of an `if` (statement or expression) negated;
- `swap-branches`: the then and else parts of an `if` swapped;
- `swap-conditions`: `if a {A} else if b {B}` to `if b {B} else if a {A}` (a wrong priority);
- `swap-arms`: the bodies of two neighbouring `match` arms swapped (a wrong case);
- `drop-assign`: an assignment removed (in `comb` this is usually a latch, which the static
  checks reject: such mutants are discarded);
- `dup-assign`: an assignment repeated after the statement that follows it when that one
  assigns the same target (a default that overrides), or after the `if`/`match` that encloses
  it (an update that escapes its condition);
- `index`: a constant bit index off by one, a slice moved by one bit (its width kept), a
  dynamic index `x[i]` read or written as `x[i + 1]`;
- `reset`: a register's reset value changed (off by one, flipped, the next variant);
- `late`: a module-level combinational assignment (`y = e;`, `wire w: T = e;`) registered, one
  cycle late (only in a module with a clock and a reset);
- `early`: a register written by one unconditional `r <= e;` made a wire `r = e`, one cycle
  early.

Only logic is mutated: never `requires`, `ensures`, `invariant` or `assert`, ghost state or
ghost blocks, and never a spec function. A `fn` or `const` is mutated only when nothing but
logic uses it (directly or through other fns and consts); one that a property, ghost logic or an
enum encoding also uses is part of the specification and is left alone, since changing it would
change what the properties say as well as what the logic does. The logic's uses of it (the
arguments at its call sites) are still mutated. Declarations (types, widths, array sizes) are
never mutated.

`mutants(text, n, seed)` gives up to n mutants in the deterministic order of
`bench.mutation.ordered`; a mutant that fails the static checks (`sysr.pipeline.analyze`: it
says nothing about the properties) is discarded and recorded with its codes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from sysr.diagnostics import Severity
from sysr.front import syntax as S
from sysr.front.parse import parse
from sysr.front.printer import expr as show, print_file
from sysr.pipeline import analyze

from .sites import Candidate, Discarded, Site, candidates

OPERATORS = ("operator", "comparison", "constant", "negate", "swap-branches", "swap-conditions", "swap-arms",
             "drop-assign", "dup-assign", "index", "reset", "late", "early")

SWAPS = {"+": ("-",), "-": ("+",), "*": ("+",), "&": ("|", "^"), "|": ("&", "^"), "^": ("|", "&"),
         "<<": (">>",), ">>": ("<<",), "&&": ("||",), "||": ("&&",)}
COMPARISONS = {"==": ("!=",), "!=": ("==",), "<": ("<=", ">"), "<=": ("<", ">="), ">": (">=", "<"),
               ">=": (">", "<=")}
NO_SPAN = S.Span.unknown()


class MutateError(Exception):
    """The design cannot be mutated: it does not parse."""


@dataclass(frozen=True)
class MutantSet:
    original: str  # the design as the printer writes it: what every diff is against
    mutants: tuple[Candidate, ...]
    discarded: tuple[Discarded, ...]  # failed the static checks on the way to n mutants
    sites: int  # every mutation the design offers


# ---- trees -----------------------------------------------------------------------------------

def _children(node):
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        if isinstance(v, tuple):
            yield from (x for x in v if dataclasses.is_dataclass(x) and not isinstance(x, S.Span))
        elif dataclasses.is_dataclass(v) and not isinstance(v, S.Span):
            yield v


def substitute(node, old, new):
    """The tree with the node `old` (by identity) replaced by `new`; untouched parts are shared."""
    if node is old:
        return new
    if isinstance(node, tuple):
        items = tuple(substitute(x, old, new) for x in node)
        return items if any(a is not b for a, b in zip(items, node)) else node
    if not dataclasses.is_dataclass(node) or isinstance(node, S.Span):
        return node
    changed = {}
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        w = substitute(v, old, new)
        if w is not v:
            changed[f.name] = w
    return dataclasses.replace(node, **changed) if changed else node


def names_in(node) -> set[str]:
    """Every name a subtree reads or calls."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, S.Name):
            out.add(n.name)
        elif isinstance(n, S.Call):
            out.add(n.func)
        stack.extend(_children(n))
    return out


def _targets(stmt) -> set[str]:
    """The names a statement assigns, anywhere inside it."""
    out: set[str] = set()
    stack = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, (S.Assign, S.NbAssign)):
            out.add(n.target.name)
        stack.extend(_children(n))
    return out


def _short(e, limit: int = 48) -> str:
    text = show(e).replace("\n", " ")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _stmt_text(s) -> str:
    op = "=" if isinstance(s, S.Assign) else "<="
    return f"{_lvalue_text(s.target)} {op} {_short(s.value)};"


def _lvalue_text(lv: S.LValue) -> str:
    if lv.fields:
        return ".".join((lv.name,) + lv.fields)
    if lv.index is not None:
        return f"{lv.name}[{_short(lv.index)}]"
    if lv.hi is not None:
        return f"{lv.name}[{_short(lv.hi)}:{_short(lv.lo)}]"
    return lv.name


def _int(old: S.IntLit, value: int) -> S.IntLit:
    """A literal of the same base and suffix as `old` with another value."""
    suffix = old.suffix or ""
    body = old.text[:len(old.text) - len(suffix)] if suffix else old.text
    if body.startswith("0x"):
        digits = format(value, "X" if any(c.isupper() for c in body[2:]) else "x")
        text = "0x" + digits
    elif body.startswith("0b"):
        text = "0b" + format(value, "b").rjust(len(body[2:].replace("_", "")), "0")
    else:
        text = str(value)
    return S.IntLit(value, old.suffix, text + suffix, old.span)


# ---- which fns and consts belong to the logic ---------------------------------------------------

def logic_only(tree: S.SourceFile, module: S.Module) -> set[str]:
    """The fns and consts that only logic uses (through other fns and consts too): the logic of
    `module`, and no property, ghost logic or enum of any module of the file."""
    defs = {it.name: it for it in tree.items if isinstance(it, (S.FnDecl, S.ConstDecl))}
    defs.update({it.name: it for it in module.items if isinstance(it, S.ConstDecl)})
    spec_roots, logic_roots = [], []
    for it in tree.items:
        if isinstance(it, S.EnumDecl):
            spec_roots.append(it)
    for m in _modules(tree):
        spec, logic = _roots(m)
        spec_roots += spec
        if m is module:
            logic_roots += logic

    def reach(roots) -> set[str]:
        seen: set[str] = set()
        todo = [n for r in roots for n in names_in(r)]
        while todo:
            n = todo.pop()
            if n in seen or n not in defs:
                continue
            seen.add(n)
            todo.extend(names_in(defs[n]))
        return seen

    return reach(logic_roots) - reach(spec_roots)


def _modules(tree: S.SourceFile) -> list[S.Module]:
    return [it for it in tree.items if isinstance(it, S.Module)]


def _roots(module: S.Module) -> tuple[list, list]:
    """(the items and reset values of a module that are specification, those that are logic)."""
    ghosts = {it.name for it in module.items if isinstance(it, (S.RegDecl, S.WireDecl)) and it.ghost}
    spec, logic = [], [p.init for p in module.ports if p.init is not None]
    for it in module.items:
        if isinstance(it, S.Spec) or getattr(it, "ghost", False):
            spec.append(it)
        elif isinstance(it, S.ModAssign):
            (spec if it.target in ghosts else logic).append(it)
        elif not isinstance(it, S.ConstDecl):
            logic.append(it)
    return spec, logic


# ---- the sites -------------------------------------------------------------------------------

class _Sites:
    """Every mutation site of one design, in source order."""

    def __init__(self, tree: S.SourceFile) -> None:
        self.tree = tree
        self.out: list[Site] = []
        self.enums = {it.name: [v.name for v in it.variants] for it in tree.items if isinstance(it, S.EnumDecl)}
        self.names = names_in(tree) | {getattr(n, "name", "") for n in _walk(tree)}

    def add(self, operator: str, at, old, new, what: str) -> None:
        tree = self.tree
        self.out.append(Site(operator, at.span.line, what, lambda: print_file(substitute(tree, old, new))))

    def add_tree(self, operator: str, at, make, what: str) -> None:
        self.out.append(Site(operator, at.span.line, what, lambda: print_file(make())))

    # -- expressions
    def expr(self, e, role: str = "logic") -> None:
        """Sites in an expression; role "reset" for reset values, "bound" for a constant index."""
        if isinstance(e, S.IntLit):
            op = "reset" if role == "reset" else "constant" if role == "logic" else None
            if op:
                for v in (e.value + 1, e.value - 1):
                    if v >= 0:
                        self.add(op, e, e, _int(e, v), f"`{e.text}` -> `{_int(e, v).text}`")
        elif isinstance(e, S.BoolLit):
            if role in ("logic", "reset"):
                self.add("reset" if role == "reset" else "constant", e, e, S.BoolLit(not e.value, e.span),
                         f"`{show(e)}` -> `{'false' if e.value else 'true'}`")
        elif isinstance(e, S.Path):
            variants = self.enums.get(e.enum, [])
            if role in ("logic", "reset") and len(variants) > 1 and e.variant in variants:
                nxt = variants[(variants.index(e.variant) + 1) % len(variants)]
                self.add("reset" if role == "reset" else "constant", e, e, S.Path(e.enum, nxt, e.span),
                         f"`{show(e)}` -> `{e.enum}::{nxt}`")
        elif isinstance(e, S.Binary):
            table = COMPARISONS if e.op in COMPARISONS else SWAPS
            for op in table.get(e.op, ()):
                self.add("comparison" if table is COMPARISONS else "operator", e, e,
                         S.Binary(op, e.left, e.right, e.span), f"`{e.op}` -> `{op}` in `{_short(e)}`")
            self.expr(e.left, role)
            self.expr(e.right, role)
        elif isinstance(e, (S.Unary, S.Cast)):
            self.expr(e.operand, role)
        elif isinstance(e, S.IfExpr):
            self.add("negate", e, e, S.IfExpr(_negated(e.cond), e.then, e.else_, e.span),
                     f"condition `{_short(e.cond)}` negated")
            self.add("swap-branches", e, e, S.IfExpr(e.cond, e.else_, e.then, e.span),
                     f"then and else of `if {_short(e.cond)}` swapped")
            if isinstance(e.else_, S.IfExpr):
                inner = e.else_
                swapped = S.IfExpr(inner.cond, inner.then, S.IfExpr(e.cond, e.then, inner.else_, inner.span), e.span)
                self.add("swap-conditions", e, e, swapped,
                         f"`if {_short(e.cond)}` and `else if {_short(inner.cond)}` swapped")
            for part in (e.cond, e.then, e.else_):
                self.expr(part, role)
        elif isinstance(e, S.MatchExpr):
            for i in range(len(e.arms) - 1):
                a, b = e.arms[i], e.arms[i + 1]
                arms = list(e.arms)
                arms[i] = S.ExprArm(a.patterns, b.value, a.span)
                arms[i + 1] = S.ExprArm(b.patterns, a.value, b.span)
                self.add("swap-arms", a, e, S.MatchExpr(e.subject, tuple(arms), e.span),
                         f"values of arms `{_pats(a)}` and `{_pats(b)}` swapped")
            self.expr(e.subject, role)
            for arm in e.arms:
                self.patterns(arm.patterns)
                self.expr(arm.value, role)
        elif isinstance(e, S.Index):
            self.index(e, e.index, lambda i: S.Index(e.base, i, e.span), _short(e.base))
            self.expr(e.base, role)
            self.expr(e.index, "bound" if isinstance(e.index, S.IntLit) else role)
        elif isinstance(e, S.Slice):
            self.slice(e, e.hi, e.lo, lambda hi, lo: S.Slice(e.base, hi, lo, e.span), _short(e.base))
            self.expr(e.base, role)
            for b in (e.hi, e.lo):
                self.expr(b, "bound" if isinstance(b, S.IntLit) else role)
        elif isinstance(e, S.Concat):
            for p in e.parts:
                self.expr(p, role)
        elif isinstance(e, S.Call):
            for a in e.args:
                self.expr(a, role)

    def patterns(self, pats) -> None:
        for p in pats:
            if isinstance(p, S.PatInt):
                for v in (p.lit.value + 1, p.lit.value - 1):
                    if v >= 0:
                        self.add("constant", p, p, S.PatInt(_int(p.lit, v), p.span),
                                 f"pattern `{p.lit.text}` -> `{_int(p.lit, v).text}`")

    def index(self, at, idx, rebuild, base: str) -> None:
        """`x[i]` read or written with a constant off by one, or with `i + 1`."""
        if isinstance(idx, S.IntLit):
            for v in (idx.value + 1, idx.value - 1):
                if v >= 0:
                    self.add("index", at, at, rebuild(_int(idx, v)), f"`{base}[{idx.text}]` -> `{base}[{_int(idx, v).text}]`")
        elif isinstance(idx, S.Name):
            one = S.IntLit(1, None, "1", idx.span)
            self.add("index", at, at, rebuild(S.Binary("+", idx, one, idx.span)),
                     f"`{base}[{idx.name}]` -> `{base}[{idx.name} + 1]`")

    def slice(self, at, hi, lo, rebuild, base: str) -> None:
        """`x[hi:lo]` moved by one bit either way, its width kept."""
        if isinstance(hi, S.IntLit) and isinstance(lo, S.IntLit):
            for d in (1, -1):
                if lo.value + d >= 0:
                    h, l = _int(hi, hi.value + d), _int(lo, lo.value + d)
                    self.add("index", at, at, rebuild(h, l), f"`{base}[{hi.text}:{lo.text}]` -> `{base}[{h.text}:{l.text}]`")

    # -- statements
    def body(self, owner, field: str, outer=None) -> None:
        """Sites in the statements `getattr(owner, field)`; `outer` is (owner, field, index) of the
        if/match/for that holds them, for assignments repeated after it."""
        stmts = getattr(owner, field)
        for i, s in enumerate(stmts):
            if isinstance(s, (S.Assign, S.NbAssign)):
                self.assignment(owner, field, stmts, i, s, outer)
            elif isinstance(s, S.Let):
                self.expr(s.value)
            elif isinstance(s, S.If):
                self.if_stmt(s, (owner, field, i))
            elif isinstance(s, S.Match):
                self.match_stmt(s, (owner, field, i))
            elif isinstance(s, S.For):
                self.expr(s.start)
                self.expr(s.end)
                self.body(s, "body")

    def assignment(self, owner, field, stmts, i, s, outer) -> None:
        text = _stmt_text(s)
        self.add("drop-assign", s, owner, dataclasses.replace(owner, **{field: stmts[:i] + stmts[i + 1:]}),
                 f"`{text}` dropped")
        if i + 1 < len(stmts) and s.target.name in _targets(stmts[i + 1]):
            copy = stmts[:i + 2] + (s,) + stmts[i + 2:]
            self.add("dup-assign", s, owner, dataclasses.replace(owner, **{field: copy}),
                     f"`{text}` repeated after the next statement")
        if outer is not None:
            o, f, j = outer
            held = getattr(o, f)
            self.add("dup-assign", s, o, dataclasses.replace(o, **{f: held[:j + 1] + (s,) + held[j + 1:]}),
                     f"`{text}` repeated after its enclosing `{type(held[j]).__name__.lower()}`")
        lv = s.target
        rebuild_lv = lambda **kw: dataclasses.replace(s, target=dataclasses.replace(lv, **kw))
        if lv.index is not None:
            self.index(s, lv.index, lambda i: rebuild_lv(index=i), lv.name)
            self.expr(lv.index, "bound" if isinstance(lv.index, S.IntLit) else "logic")
        if lv.hi is not None:
            self.slice(s, lv.hi, lv.lo, lambda hi, lo: rebuild_lv(hi=hi, lo=lo), lv.name)
        self.expr(s.value)

    def if_stmt(self, s: S.If, outer) -> None:
        self.add("negate", s, s, dataclasses.replace(s, cond=_negated(s.cond)), f"condition `{_short(s.cond)}` negated")
        if s.else_ is not None:
            self.add("swap-branches", s, s, dataclasses.replace(s, then=s.else_, else_=s.then),
                     f"then and else of `if {_short(s.cond)}` swapped")
            if len(s.else_) == 1 and isinstance(s.else_[0], S.If):
                inner = s.else_[0]
                swapped = dataclasses.replace(inner, else_=(dataclasses.replace(s, else_=inner.else_),))
                self.add("swap-conditions", s, s, swapped,
                         f"`if {_short(s.cond)}` and `else if {_short(inner.cond)}` swapped")
        self.expr(s.cond)
        self.body(s, "then", outer)
        if s.else_ is not None:
            if len(s.else_) == 1 and isinstance(s.else_[0], S.If):  # else if: the same chain
                self.if_stmt(s.else_[0], outer)
            else:
                self.body(s, "else_", outer)

    def match_stmt(self, s: S.Match, outer) -> None:
        for i in range(len(s.arms) - 1):
            a, b = s.arms[i], s.arms[i + 1]
            arms = list(s.arms)
            arms[i] = dataclasses.replace(a, body=b.body)
            arms[i + 1] = dataclasses.replace(b, body=a.body)
            self.add("swap-arms", a, s, dataclasses.replace(s, arms=tuple(arms)),
                     f"bodies of arms `{_pats(a)}` and `{_pats(b)}` swapped")
        self.expr(s.subject)
        for arm in s.arms:
            self.patterns(arm.patterns)
            self.body(arm, "body", outer)

    # -- the module
    def module(self, module: S.Module, mutable: set[str]) -> None:
        ghosts = {it.name for it in module.items if isinstance(it, (S.RegDecl, S.WireDecl)) and it.ghost}
        for p in module.ports:
            if p.init is not None:
                self.expr(p.init, "reset")
        for it in module.items:
            if isinstance(it, S.Spec) or getattr(it, "ghost", False):
                continue
            if isinstance(it, S.RegDecl) and it.init is not None:
                self.expr(it.init, "reset")
            elif isinstance(it, S.WireDecl) and it.value is not None:
                self.expr(it.value)
            elif isinstance(it, S.ModAssign) and it.target not in ghosts:
                self.expr(it.value)
            elif isinstance(it, (S.CombBlock, S.SeqBlock)):
                self.body(it, "body")
            elif isinstance(it, S.ConstDecl) and it.name in mutable:
                self.expr(it.value)
            elif isinstance(it, S.InstDecl):  # what drives an instance's inputs is logic
                for b in it.bindings:
                    self.expr(b.value)
        _Cycles(self, module).sites()

    def file(self) -> list[Site]:
        """Sites in the file's fns and consts, then in each module (all of a file with several)."""
        modules = _modules(self.tree)
        mutable = {m.name: logic_only(self.tree, m) for m in modules}
        shared = set().union(*mutable.values()) if modules else set()
        for it in self.tree.items:
            if isinstance(it, S.ConstDecl) and it.name in shared:
                self.expr(it.value)
            elif isinstance(it, S.FnDecl) and it.name in shared:
                for let in it.lets:
                    self.expr(let.value)
                self.expr(it.body)
        for m in modules:
            self.module(m, mutable[m.name])
        return self.out


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(_children(n))


def _negated(cond):
    if isinstance(cond, S.Unary) and cond.op == "!":
        return cond.operand
    return S.Unary("!", cond, cond.span)


def _pats(arm) -> str:
    from sysr.front.printer import patterns

    return patterns(arm.patterns)


class _Cycles:
    """`late` and `early`: logic moved by a cycle, where the language allows it."""

    def __init__(self, sites: _Sites, module: S.Module) -> None:
        self.s = sites
        self.m = module
        kinds = {p.kind for p in module.ports}
        self.clocked = "clock" in kinds and any(k not in ("in", "out", "out_reg", "clock") for k in kinds)
        self.types = {p.name: p.ty for p in module.ports if p.ty is not None}
        self.types.update({it.name: it.ty for it in module.items if isinstance(it, (S.WireDecl, S.RegDecl))})

    def fresh(self, base: str) -> str:
        name, k = f"{base}_late", 1
        while name in self.s.names:
            k += 1
            name = f"{base}_late{k}"
        return name

    def zero(self, ty: S.TypeRef):
        if ty.name == "bool":
            return S.BoolLit(False, NO_SPAN)
        if ty.name in self.s.enums:
            return S.Path(ty.name, self.s.enums[ty.name][0], NO_SPAN)
        return S.IntLit(0, None, "0", NO_SPAN)

    def with_items(self, items) -> S.SourceFile:
        return substitute(self.s.tree, self.m, dataclasses.replace(self.m, items=tuple(items)))

    def sites(self) -> None:
        if not self.clocked:
            return
        ghosts = {it.name for it in self.m.items if isinstance(it, (S.RegDecl, S.WireDecl)) and it.ghost}
        items = list(self.m.items)
        for i, it in enumerate(items):
            if isinstance(it, S.ModAssign) and it.target not in ghosts and it.target in self.types:
                self.late(i, it, it.target, lambda reg, it=it: dataclasses.replace(it, value=reg))
            elif isinstance(it, S.WireDecl) and not it.ghost and it.value is not None:
                self.late(i, it, it.name, lambda reg, it=it: dataclasses.replace(it, value=reg))
        self.early()

    def late(self, i: int, it, target: str, rewired) -> None:
        ty = self.types[target]
        value = it.value
        reg = self.fresh(target)
        decl = S.RegDecl(reg, ty, None, self.zero(ty), False, NO_SPAN, NO_SPAN)
        seq = S.SeqBlock((S.NbAssign(S.LValue(reg, None, None, None, NO_SPAN, NO_SPAN), value, NO_SPAN),), False,
                         NO_SPAN)

        def make():
            items = list(self.m.items)
            items[i:i + 1] = [rewired(S.Name(reg, NO_SPAN)), decl, seq]
            return self.with_items(items)

        self.s.add_tree("late", it, make, f"`{target}` registered: one cycle late")

    def early(self) -> None:
        writes: dict[str, list] = {}
        for it in self.m.items:
            if isinstance(it, S.SeqBlock) and not it.ghost:
                for n in _walk(it):
                    if isinstance(n, S.NbAssign):
                        writes.setdefault(n.target.name, []).append((it, n))
        regs = {it.name: it for it in self.m.items if isinstance(it, S.RegDecl) and not it.ghost and it.size is None}
        outs = {p.name: p for p in self.m.ports if p.kind == "out_reg"}
        for name, ws in writes.items():
            if len(ws) != 1 or (name not in regs and name not in outs):
                continue
            block, w = ws[0]
            if w not in block.body or w.target.index is not None or w.target.hi is not None:
                continue  # written under a condition, or in part
            self.s.add_tree("early", w, lambda name=name, block=block, w=w: self.made_wire(name, block, w),
                            f"`{name}` combinational: one cycle early")

    def made_wire(self, name: str, block: S.SeqBlock, w: S.NbAssign) -> S.SourceFile:
        body = tuple(s for s in block.body if s is not w)
        items = []
        for it in self.m.items:
            if it is block:
                items.append(dataclasses.replace(block, body=body))
            elif isinstance(it, S.RegDecl) and it.name == name and not it.ghost:
                items.append(S.WireDecl(name, it.ty, w.value, False, it.span, it.name_span))
            else:
                items.append(it)
        module = dataclasses.replace(self.m, items=tuple(items))
        if any(p.name == name for p in self.m.ports):
            ports = tuple(S.Port(p.name, "out", p.ty, None, p.span, p.name_span) if p.name == name else p
                          for p in self.m.ports)
            module = dataclasses.replace(module, ports=ports,
                                         items=module.items + (S.ModAssign(name, w.value, NO_SPAN, NO_SPAN),))
        return substitute(self.s.tree, self.m, module)


# ---- the mutants -------------------------------------------------------------------------------

def sites(tree: S.SourceFile) -> list[Site]:
    """Every mutation the design offers, in source order."""
    return _Sites(tree).file()


def static_errors(text: str) -> list[str]:
    """The codes of the static checks' errors on a text (empty when it passes them)."""
    outcome = analyze(text)
    return sorted({d.code for d in outcome.diagnostics if d.severity == Severity.ERROR})


def mutants(text: str, n: int, seed: int = 1) -> MutantSet:
    """Up to n mutants of a design that pass the static checks, and those discarded on the way."""
    tree, diags = parse(text)
    if tree is None:
        raise MutateError("the design does not parse: " + "; ".join(d.message for d in diags[:1]))
    original = print_file(tree)
    all_sites = sites(tree)
    kept: list[Candidate] = []
    dropped: list[Discarded] = []
    for c in candidates(original, all_sites, seed, "design.sysr"):
        if len(kept) >= n:
            break
        codes = static_errors(c.text)
        if codes:
            dropped.append(Discarded(c.operator, c.line, c.what, " ".join(codes)))
        else:
            kept.append(c)
    return MutantSet(original, tuple(kept), tuple(dropped), len(all_sites))
