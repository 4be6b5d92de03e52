"""Names, enum paths and calls: what a name refers to, and the errors for one that is unknown.

A name resolves to a local (`let`, loop or quantified variable, parameter), a const or a signal,
in that order; where a signal may not be read (a fn, a constant) or does not exist the error
says what to write instead. Calls go to `prev`, a builtin or a declared fn.
"""

from __future__ import annotations

from ...diagnostics import Related
from ...types import BOOL, BUILTINS, Ty, popcount_width, uint
from .. import syntax as S
from .context import CheckerBase, Ctx, short_name


class Names(CheckerBase):
    """Resolving names, enum paths and calls."""

    def e_Path(self, e: S.Path, ctx, expected):
        return self.path(e)

    def path(self, e: S.Path) -> Ty | None:
        info = self.enums.get(e.enum)
        if info is None:
            self.err_once(("enum", e.enum), "N004", f"unknown enum `{S.written(e.enum)}`" + self.suggest(e.enum, self.enums),
                          e.span)
            return None
        if e.variant not in info.variants:
            self.err_once(("variant", e.enum, e.variant), "N004",
                          f"`{S.written(e.enum)}` has no variant `{S.written(e.variant)}`"
                          + self.suggest(e.variant, info.variants), e.span,
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
            self.err("N001", f"`{S.written(e.name)}` is a signal; a fn sees only its parameters and consts", e.span,
                     "pass it as an argument")
            return None
        if sig is not None and ctx.where in ("const", "init"):
            self.err("T010", f"`{S.written(e.name)}` is a signal; a constant is needed here", e.span)
            return None
        if sig is None:
            self.unknown_name(e, ctx)
            return None
        self.refs[id(e)] = sig
        self.read_rules(sig, e.span, ctx)
        if sig.kind in S.RESET_KINDS and ctx.where in ("seq", "ghost_seq") and not ctx.in_prev \
                and sig.name == getattr(self, "seq_reset", None):
            kw = "seq" if ctx.where == "seq" else "ghost seq"
            active = ("!" if sig.kind.endswith("_n") else "") + S.written(sig.name)
            self.err_once(("A021", sig.name), "A021",
                          f"`{S.written(sig.name)}` is never active here: a `{kw}` block does nothing at an edge "
                          "with the reset active, so it always reads the reset as inactive", e.span,
                          "registers reset implicitly: give the register a reset value (`reg r: u8 = 0;`); "
                          "to force an output during the reset, read it outside `seq`: "
                          f"`y = if {active} then 0 else ...;`", warning=True)
        if sig.kind == "clock" and ctx.where in ("seq", "ghost_seq"):
            self.err_once(("clock", sig.name), "A008",
                          f"the clock `{S.written(sig.name)}` cannot be read in a `seq` block; it times the "
                          "block", e.span, "read its level outside `seq` (`y = if clk then a else b;`), as a "
                          "both-edges design does (§4.1)")
            return None
        if sig.kind == "clock":
            return BOOL
        if sig.is_array:
            self.err("T012", f"{sig.describe()} cannot be read whole; read one element, "
                             f"`{S.written(sig.name)}[i]`", e.span)
            return None
        return sig.ty

    def unknown_name(self, e: S.Name, ctx: Ctx) -> None:
        pool = list(ctx.scope) + list(self.consts)
        if ctx.where not in ("fn", "const", "init"):
            pool += list(self.signals)
        hint = ()
        if e.name in self.enums:
            hint = (f"an enum is used through its variants: `{S.written(e.name)}::VARIANT`",)
        elif e.name in self.fns or e.name in BUILTINS or e.name in S.TEMPORAL:
            hint = (f"`{S.written(e.name)}` is a function; call it: `{S.written(e.name)}(...)`",)
        self.err_once(("name", e.name), "N001", f"unknown name `{S.written(e.name)}`" + self.suggest(e.name, pool),
                      e.span, *hint)

    def unknown_target(self, name: str, span: S.Span, ctx: Ctx) -> None:
        """An assignment to something that is not a signal: a local, a const, another global, or nothing."""
        local = ctx.scope.get(name)
        if name in self.broken_signals:
            return  # declared twice or clashing: reported at the declaration
        if local is not None:
            what = {"let": "a `let` binding", "for": "a loop variable", "quant": "a quantified variable",
                    "param": "a parameter"}[local.kind]
            self.err("A004", f"`{S.written(name)}` is {what} and cannot be assigned", span,
                     "bind a new name with another `let`, or declare a wire: `wire NAME: TYPE;`")
        elif name in self.global_spans:
            self.err("A004", f"`{S.written(name)}` is {self.global_kind(name)} and cannot be assigned", span,
                     "only wires and outputs take `=`, and registers `<=`",
                     related=[Related(self.global_spans[name], "defined here")])
        else:
            self.err_once(("name", name), "N001", f"unknown name `{S.written(name)}`" + self.suggest(name, self.signals),
                          span,
                          "declare it first: an output port, `wire NAME: TYPE;` or `reg NAME: TYPE = INIT;`")

    def e_Call(self, e: S.Call, ctx: Ctx, expected):
        if e.func == "prev":
            return self.call_prev(e, ctx, expected)
        if e.func in S.FUTURE and e.func not in self.fns:  # a fn of the file's takes the name
            return self.call_future(e, ctx, expected)
        if e.func in BUILTINS:
            return self.call_builtin(e, ctx)
        return self.call_fn(e, ctx)

    def call_builtin(self, e: S.Call, ctx: Ctx):
        if len(e.args) != 1:
            self.err("T009", f"`{S.written(e.func)}` takes one argument, got {len(e.args)}", e.span)
            return None
        a = e.args[0]
        if isinstance(a, S.IntLit) and a.suffix is None:
            self.err("T003", f"the literal `{a.text}` needs a width here", a.span, f"write e.g. `{a.text}u8`")
            return None
        t = self.expr(a, ctx, None)
        if t is None:
            return None
        if not t.is_int:
            self.err("T008", f"`{S.written(e.func)}` needs an integer, found `{t}`", a.span,
                     f"`{short_name(a)} as uN` gives "
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
            sig = ", ".join(f"{S.written(n)}: {t}" for n, t in info.params)
            self.err("T009", f"`{S.written(e.func)}` takes {len(info.params)} argument(s), got {len(e.args)}", e.span,
                     f"it is declared `fn {S.written(e.func)}({sig}) -> {info.ret}`")
        for a, (pname, pt) in zip(e.args, info.params):
            at = self.operand(a, ctx, pt)
            if at is not None and pt is not None and at != pt:
                self.err("T001", f"argument `{S.written(pname)}` of `{S.written(e.func)}` has type `{pt}`, "
                                 f"found `{at}`", a.span,
                         *self.conversion_note(at, pt))
        self.quant_fn_call(e, ctx)
        return info.ret

    def unknown_function(self, e: S.Call, ctx: Ctx) -> None:
        pool = list(self.fns) + list(BUILTINS) + list(S.TEMPORAL)
        hint = ()
        if e.func in self.structs:
            ty = self.structs[e.func].ty
            hint = (f"`{S.written(e.func)}` is a struct: build one with its fields named, "
                    f"`{S.written(e.func)} {{ {', '.join(f'{S.written(n)}: ...' for n, _ in ty.fields)} }}`",)
        elif e.func in self.signals or e.func in ctx.scope or e.func in self.consts:
            hint = (f"`{S.written(e.func)}` is a value, not a function; to index it write `{S.written(e.func)}[i]`",)
        elif not self.suggest(e.func, pool):
            hint = ("the builtins are " + ", ".join(f"`{b}`" for b in BUILTINS) + " and `prev`; "
                    "declare others with `fn`",)
        self.err_once(("fn", e.func), "N005", f"unknown function `{S.written(e.func)}`" + self.suggest(e.func, pool),
                      e.name_span, *hint)
