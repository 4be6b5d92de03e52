"""Module parameters and `int` constants (§4.8): one specialized copy of a module per binding.

A parameter (`module fifo<W: int = 8>`), an `int` const (`const AW: int = clog2(DEPTH);`) and
`clog2` make *int expressions*: built from them, unsuffixed literals, arithmetic, comparisons,
`&& || !` and `if then else`, computed exactly (`fold`). For each binding of a module (its
parameters' values) `specialize` copies the module's syntax tree with every int expression that
uses a parameter, an `int` const or `clog2` replaced by a plain literal of its value (an `IntLit`
whose `origin` is the expression's text), `u[e]` by `uN`, and an `if` whose condition is such
an expression by its branch taken. The copy is an ordinary module: every later stage (types,
structure, proofs, lowering) sees literals only, and each binding is checked on its own.
Expressions of literals alone are left as they are: they keep their wrapping meaning (§3.1).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace

from ...diagnostics import Related
from ...types import MAX_WIDTH
from .. import printer
from .. import syntax as S
from .context import CheckerBase, subnodes

MAX_SHIFT = 4096  # `1 << n` in an int expression: n at most this (a wider value fits no type)
EXPRS = (S.IntLit, S.BoolLit, S.Name, S.Path, S.Hole, S.Unary, S.Binary, S.Cast, S.IfExpr, S.MatchExpr,
         S.Index, S.Slice, S.Concat, S.Call, S.Quant, S.InstPort)


@dataclass(frozen=True)
class Folded:
    value: int | bool
    uses: bool  # whether a parameter, an `int` const or `clog2` is in it (else: literals only)


class FoldError(Exception):
    def __init__(self, code: str, msg: str, span: S.Span) -> None:
        super().__init__(msg)
        self.code, self.msg, self.span = code, msg, span


def clog2(n: int) -> int:
    """The least k with 2**k >= n (0 for n <= 1), as Verilog's `$clog2`."""
    return 0 if n <= 1 else (n - 1).bit_length()


def binding_key(name: str, binding: tuple[tuple[str, int], ...]) -> str:
    """How a binding is named in messages: `fifo<W = 16, DEPTH = 5>` (the module's name without parameters)."""
    if not binding:
        return name
    return f"{S.written(name)}<" + ", ".join(f"{S.written(p)} = {v}" for p, v in binding) + ">"


def fold(e, env: dict[str, int], memo: dict | None = None) -> Folded | None:
    """The exact value of an int expression, or None when `e` is not one. FoldError for a constant
    that has no value (a division by zero, a negative `clog2`, a shift out of range). `memo`
    keeps results by node, so that folding every subtree of a tree stays linear."""
    if memo is None:
        memo = {}
    key = id(e)
    if key not in memo:
        memo[key] = _fold(e, env, memo)
    return memo[key]


def _fold(e, env: dict[str, int], memo: dict) -> Folded | None:
    if isinstance(e, S.IntLit):
        return Folded(e.value, e.origin is not None) if e.suffix is None else None
    if isinstance(e, S.BoolLit):
        return Folded(e.value, False)
    if isinstance(e, S.Name):
        return Folded(env[e.name], True) if e.name in env else None
    if isinstance(e, S.Unary):
        a = fold(e.operand, env, memo)
        if a is None or isinstance(a.value, bool) != (e.op == "!"):
            return None
        value = {"-": lambda v: -v, "~": lambda v: ~v, "!": lambda v: not v}[e.op](a.value)
        return Folded(value, a.uses)
    if isinstance(e, S.Binary):
        return _fold_binary(e, env, memo)
    if isinstance(e, S.IfExpr):
        c = fold(e.cond, env, memo)
        if c is None or not isinstance(c.value, bool):
            return None
        a, b = fold(e.then, env, memo), fold(e.else_, env, memo)
        if a is None or b is None or isinstance(a.value, bool) != isinstance(b.value, bool):
            return None
        return Folded(a.value if c.value else b.value, c.uses or a.uses or b.uses)
    if isinstance(e, S.Call) and e.func == "clog2":
        if len(e.args) != 1:
            raise FoldError("T009", f"`clog2` takes one argument, found {len(e.args)}", e.span)
        a = fold(e.args[0], env, memo)
        if a is None or isinstance(a.value, bool):
            raise FoldError("T010", f"`clog2` needs a constant: parameters, `int` consts and literals, not "
                                    f"`{_text(e.args[0])}`", e.args[0].span)
        if a.value < 0:
            raise FoldError("T002", f"`clog2` of a negative number ({a.value})", e.span)
        return Folded(clog2(a.value), True)
    return None


_INT_OPS = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
}
_COMPARE = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _fold_binary(e: S.Binary, env, memo) -> Folded | None:
    a, b = fold(e.left, env, memo), fold(e.right, env, memo)
    if a is None or b is None:
        return None
    uses = a.uses or b.uses
    x, y = a.value, b.value
    logical = e.op in ("&&", "||", "==>")
    if logical != isinstance(x, bool) or logical != isinstance(y, bool):
        return None if not (e.op in ("==", "!=") and isinstance(x, bool) and isinstance(y, bool)) \
            else Folded(_COMPARE[e.op](x, y), uses)
    if logical:
        return Folded({"&&": x and y, "||": x or y, "==>": (not x) or y}[e.op], uses)
    if e.op in _COMPARE:
        return Folded(_COMPARE[e.op](x, y), uses)
    if e.op in _INT_OPS:
        return Folded(_INT_OPS[e.op](x, y), uses)
    if e.op in ("/", "%"):
        if y == 0:
            if not uses:
                return None  # a literal division by zero: the checker's T020
            raise FoldError("T020", f"`{_text(e)}` divides by zero", e.span)
        q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)  # toward zero, as Verilog and Rust
        return Folded(q if e.op == "/" else x - q * y, uses)
    if e.op in ("<<", ">>"):
        if not 0 <= y <= MAX_SHIFT:
            if not uses:
                return None
            raise FoldError("T011", f"the shift amount of `{_text(e)}` is {y}; in a constant it goes from 0 "
                                    f"to {MAX_SHIFT}", e.span)
        return Folded(x << y if e.op == "<<" else x >> y, uses)
    return None


def _text(e) -> str:
    try:
        return printer.expr(e)
    except Exception:  # a construct the printer does not know: still say something
        return type(e).__name__


def literal_of(value: int, origin: str, span: S.Span, suffix: str | None = None):
    """The literal that stands for a folded int expression (negated for a negative value)."""
    lit = S.IntLit(abs(value), suffix, str(abs(value)), span, origin)
    return S.Unary("-", lit, span) if value < 0 else lit


class Specializer:
    """One binding's copy of a module (or of the file's fns and consts): see the module docstring."""

    def __init__(self, env: dict[str, int], report, where: str = "") -> None:
        self.env = env
        self.report = report  # (code, message, span, *notes) -> None
        self.where = where  # " in `fifo<W = 8>`" for messages
        self.memo: dict = {}

    def fold(self, e) -> Folded | None:
        try:
            return fold(e, self.env, self.memo)
        except FoldError as err:
            self.report(err.code, err.msg + self.where, err.span)
            return Folded(0, True)  # reported: 0 stands for it, so that nothing else reports it again

    def copy(self, node):
        if isinstance(node, tuple):
            return tuple(y for i, x in enumerate(node) for y in self.live(x, node[i + 1:]))
        if not dataclasses.is_dataclass(node) or isinstance(node, S.Span):
            return node
        if isinstance(node, EXPRS):
            folded = self.expr(node)
            if folded is not None:
                return folded
        if isinstance(node, S.TypeRef) and node.width is not None:
            return self.type_ref(node)
        return type(node)(**{f.name: self.copy(getattr(node, f.name)) for f in dataclasses.fields(node)})

    def live(self, node, after: tuple) -> tuple:
        """An element of a tuple, copied; a statement `if` whose condition is one of parameters is
        the branch it takes, in its place (the other branch may be ill-typed for this binding, as a
        slice past a narrow width): kept as an `if` only when the branch's `let`s would clash with
        a `let` after it, where a name must not be in scope already."""
        if isinstance(node, S.If):
            c = self.fold(node.cond)
            if c is not None and c.uses and isinstance(c.value, bool):
                branch = node.then if c.value else (node.else_ or ())
                lets = {x.name for x in branch if isinstance(x, S.Let)}
                if not lets & _let_names(after):
                    return self.copy(branch)
        return (self.copy(node),)

    def expr(self, e):
        """The literal for an int expression of parameters, the branch taken of an `if` whose
        condition is one, `P as T` as a typed literal; None for anything else (copied as usual)."""
        if isinstance(e, (S.IntLit, S.BoolLit)):
            return None
        f = self.fold(e)
        if f is not None and f.uses:
            if isinstance(f.value, bool):
                return S.BoolLit(f.value, e.span)
            return literal_of(f.value, _text(e), e.span)
        if isinstance(e, S.IfExpr):
            c = self.fold(e.cond)
            if c is not None and c.uses and isinstance(c.value, bool):
                return self.copy(e.then if c.value else e.else_)
        if isinstance(e, S.Cast):
            a = self.fold(e.operand)
            if a is not None and a.uses and not isinstance(a.value, bool):
                ty = self.copy(e.ty)
                if ty.width is None:
                    return literal_of(a.value, _text(e.operand), e.span, suffix=ty.name)
        return None

    def type_ref(self, t: S.TypeRef) -> S.TypeRef:
        """`u[e]` as `uN`; a width that is not a constant or is out of range is reported, and the
        type keeps its width expression (the checker then takes it as unknown, silently)."""
        f = self.fold(t.width)
        if f is None or isinstance(f.value, bool):
            self.report("T010", f"the width of `{t.name}[...]` must be a constant: parameters, `int` consts and "
                                f"literals, not `{_text(t.width)}`", t.width.span)
            return t
        if not 1 <= f.value <= MAX_WIDTH:
            self.report("T011", f"`{t.name}[{_text(t.width)}]` has width {f.value}{self.where}: widths go from 1 "
                                f"to {MAX_WIDTH}", t.span)
            return t
        return S.TypeRef(f"{t.name}{f.value}", t.span)


def _let_names(node) -> set[str]:
    """The names of every `let` in `node` (statements, at any depth)."""
    if isinstance(node, tuple):
        return set().union(*(_let_names(x) for x in node)) if node else set()
    if not dataclasses.is_dataclass(node) or isinstance(node, S.Span):
        return set()
    own = {node.name} if isinstance(node, S.Let) else set()
    return own.union(*(_let_names(getattr(node, f.name)) for f in dataclasses.fields(node)))


def int_const(c: S.ConstDecl) -> bool:
    return c.ty.name == "int" and c.ty.width is None


def mentions(node, names) -> bool:
    """Whether a subtree uses one of `names`, `clog2` or a `u[e]` type: whether it needs a copy."""
    for n in subnodes(node, (S.Name, S.Call, S.TypeRef, S.ConstDecl)):
        if isinstance(n, S.Name) and n.name in names:
            return True
        if isinstance(n, S.Call) and n.func == "clog2":
            return True
        if isinstance(n, S.ConstDecl) and int_const(n):
            return True
    return any(t.width is not None for t in _type_refs(node))


def _type_refs(node):
    if isinstance(node, S.TypeRef):
        yield node
        return
    if isinstance(node, tuple):
        for x in node:
            yield from _type_refs(x)
        return
    if not dataclasses.is_dataclass(node) or isinstance(node, S.Span):
        return
    for f in dataclasses.fields(node):
        yield from _type_refs(getattr(node, f.name))


class Parameters(CheckerBase):
    """Bindings of modules with parameters, and the file's `int` consts."""

    def int_globals(self) -> None:
        """Evaluate the file's `int` consts (in order) and copy its fns and typed consts with them
        replaced. Sets `self.int_env`, the values every module sees."""
        self.int_env: dict[str, int] = {}
        self.bindings: dict[str, list] = {}  # module name -> its designs' keys, in order found
        self.binding_diags: dict[int, str] = {}  # id(diagnostic) -> the key of the binding it came from
        items = []
        for item in self.tree.items:
            if isinstance(item, S.ConstDecl) and int_const(item):
                self.declare_global(item.name, item.name_span)
                self.int_const(item, self.int_env, "")
                items.append(item)
            elif isinstance(item, (S.ConstDecl, S.FnDecl, S.EnumDecl, S.StructDecl)) and self.int_env \
                    and mentions(item, self.int_env):
                if isinstance(item, S.FnDecl):
                    self.fn_int_names(item)
                items.append(Specializer(self.int_env, self.err).copy(item))
            else:
                items.append(item)
        self.tree = S.SourceFile(tuple(items), self.tree.span)

    def fn_int_names(self, f: S.FnDecl) -> None:
        """N002 for a fn parameter or `let` named like an `int` const (it would be replaced)."""
        lets = [x for st in f.stmts for x in subnodes(st, S.Let)] if f.stmts is not None else f.lets
        for name, span in [(p.name, p.span) for p in f.params] + [(x.name, x.name_span) for x in lets]:
            if name in self.int_env:
                self.err("N002", f"`{S.written(name)}` is already the name of an `int` const", span,
                         "it stands for its value everywhere: give this one a name of its own",
                         related=[Related(self.global_spans[name], "defined here")])

    def int_const(self, c: S.ConstDecl, env: dict[str, int], where: str) -> None:
        f = Specializer(env, self.err, where).fold(c.value)
        if f is None or isinstance(f.value, bool):
            self.err("T010", f"the value of the `int` const `{S.written(c.name)}` must be a constant: parameters, "
                             "`int` consts, literals and `clog2`", c.value.span,
                     "a typed const (`const N: u8 = ...;`) holds any other constant")
            return
        env[c.name] = f.value

    # ---- bindings ----------------------------------------------------------------------
    def param_decls(self, m: S.Module) -> bool:
        """Check a module's parameter declarations once: names and types. False on an error."""
        ok = True
        seen: dict[str, S.ModParam] = {}
        for p in m.params:
            if p.name in seen:
                self.err("N002", f"parameter `{S.written(p.name)}` is declared twice", p.name_span,
                         related=[Related(seen[p.name].name_span, "first declared here")])
                ok = False
            seen[p.name] = p
            if p.ty.name != "int" or p.ty.width is not None:
                self.err("N003", f"a parameter's type is `int`, not `{printer.type_ref(p.ty)}`", p.ty.span,
                         f"write `{S.written(p.name)}: int`; its value takes a type where it is used (§4.8)")
                ok = False
        ints = {i.name: i.name_span for i in m.items if isinstance(i, S.ConstDecl) and int_const(i)}
        mine = {p.name: p.name_span for p in m.params} | ints
        for name, span in mine.items():
            if name in self.global_spans:
                self.err("N002", f"`{S.written(name)}` is already the name of {self.global_kind(name)}", span,
                         "a parameter or `int` const needs a name of its own",
                         related=[Related(self.global_spans[name], "defined here")])
                ok = False
        constants = set(mine) | set(self.int_env)
        others = [(p.name, p.name_span) for p in m.ports]
        others += [(i.name, i.name_span) for i in m.items if hasattr(i, "name_span") and hasattr(i, "name")
                   and not (isinstance(i, S.ConstDecl) and int_const(i))]
        for node in subnodes(m, (S.Let, S.For, S.Quant)):
            others.append((node.name, node.name_span) if isinstance(node, S.Let) else (node.var, node.var_span))
        for name, span in others:
            if name in constants:
                first = mine.get(name) or self.global_spans.get(name)
                what = "a parameter" if any(p.name == name for p in m.params) else "an `int` const"
                self.err("N002", f"`{S.written(name)}` is already the name of {what}", span,
                         "it stands for its value everywhere in the module: give this one a name of its own",
                         related=[Related(first, "defined here")] if first else [])
                ok = False
        return ok

    def binding(self, m: S.Module, given: dict[str, tuple[int, S.Span]], site: S.Span, who: str):
        """The values of `m`'s parameters: `given` (name -> value, where it was set), then the
        defaults. None after an error (N008 for an unknown name, A013 for one without a value)."""
        names = {p.name for p in m.params}
        ok = True
        for name, (_, span) in given.items():
            if name not in names:
                known = ", ".join(f"`{S.written(p.name)}`" for p in m.params) or "none"
                self.err("N008", f"`{S.written(m.name)}` has no parameter `{S.written(name)}`"
                         + self.suggest(name, list(names)), span, f"its parameters: {known}")
                ok = False
        env = dict(self.int_env)
        values = []
        for p in m.params:
            if p.name in given:
                value = given[p.name][0]
            elif p.default is not None:
                f = Specializer(env, self.err).fold(p.default)
                if f is None or isinstance(f.value, bool):
                    self.err_once(("param-default", m.name, p.name), "T010",
                                  f"the default of parameter `{S.written(p.name)}` must be a constant: earlier "
                                  "parameters, `int` consts, literals and `clog2`", p.default.span)
                    return None
                value = f.value
            else:
                fix = f"give it a default (`{S.written(p.name)}: int = 8`)"
                if who == "`--param`":
                    fix = f"pass `--param {p.name}=VALUE`, or {fix}"
                elif who:
                    fix = f"set it (`{S.written(m.name)}<{S.written(p.name)} = ...>(...)`), or {fix}"
                else:
                    who = (f"`{S.written(m.name)}` is instantiated by no other module, so it is checked with its "
                           "defaults, but it")
                self.err("A013", f"{who} does not set the parameter `{S.written(p.name)}` of `{S.written(m.name)}`, "
                                 "which has no default", site, fix)
                ok = False
                continue
            env[p.name] = value
            values.append((p.name, value))
        return tuple(values) if ok else None

    def inst_params(self, item: S.InstDecl) -> dict[str, tuple[int, S.Span]] | None:
        """An instance's parameter settings, by name (in the parent's copy, already folded)."""
        given: dict[str, tuple[int, S.Span]] = {}
        ok = True
        for ps in item.params:
            if ps.name in given:
                self.err("A013", f"parameter `{S.written(ps.name)}` of instance `{S.written(item.name)}` is set twice",
                         ps.name_span, related=[Related(given[ps.name][1], "first set here")])
                ok = False
                continue
            f = Specializer({}, self.err).fold(ps.value)
            if f is None or isinstance(f.value, bool):
                self.err("T010", f"the value of parameter `{S.written(ps.name)}` must be a constant: parameters, "
                                 f"`int` consts, literals and `clog2`, not `{_text(ps.value)}`", ps.value.span,
                         "a parameter is fixed when the design is built; a value that changes is an input port")
                ok = False
                continue
            given[ps.name] = (f.value, ps.name_span)
        return given if ok else None

    def specialize(self, m: S.Module, binding: tuple[tuple[str, int], ...]) -> S.Module:
        """The copy of `m` for one binding (memoized), with its `int` consts folded in and removed."""
        key = binding_key(m.name, binding)
        cache = self.__dict__.setdefault("specialized", {})
        if key in cache:
            return cache[key]
        if not m.params and not mentions(m, self.int_env):
            cache[key] = m  # nothing to replace: the module as written
            self.__dict__.setdefault("ints", {})[key] = dict(self.int_env)
            return m
        env = dict(self.int_env)
        env.update(binding)
        where = f" in `{key}`" if binding else ""
        for item in m.items:
            if isinstance(item, S.ConstDecl) and int_const(item):
                self.int_const(item, env, where)
        sp = Specializer(env, self.err, where)
        items = tuple(sp.copy(i) for i in m.items if not (isinstance(i, S.ConstDecl) and int_const(i)))
        copy = S.Module(m.name, sp.copy(m.ports), items, m.span, m.name_span, m.params, m.extern)
        cache[key] = copy
        self.__dict__.setdefault("ints", {})[key] = env
        return copy

    def binding_notes(self) -> None:
        """A diagnostic found in some bindings of a module but not in all: a note naming them."""
        groups: dict[tuple, list] = {}
        for i, key in self.diag_binding.items():
            d = self.diags[i]
            groups.setdefault((d.code, d.span, d.message), [i, []])[1].append(key)
        module_of = {key: name for name, keys in self.bindings.items() for key in keys}
        for i, keys in groups.values():
            keys = list(dict.fromkeys(keys))
            if set(keys) == set(self.bindings.get(module_of.get(keys[0]), ())):
                continue  # in every binding: the parameters' values do not matter
            d = self.diags[i]
            if len(keys) == 1 and f"`{keys[0]}`" in d.message:
                continue  # the message names it
            self.diags[i] = replace(d, notes=d.notes + ("in " + " and ".join(f"`{k}`" for k in keys),))
