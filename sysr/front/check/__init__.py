"""Static checks: names, types and widths, specification rules and holes -> a `Hierarchy` and diagnostics.

`check_names_types(tree, top)` resolves every name, types every expression (literals take their
type from context), evaluates constants, and enforces the S rules that depend on where a name is
read, for every module of the file; each module becomes a `Design`, and the `Hierarchy` says
which one is the top. Structure (drivers, latches, loops, clock and reset) is
`sysr.front.structure`, run afterwards on the resolved modules. Errors are collected; nothing
here raises on user input.

One mistake should give one error: a name that is unknown (or ghost, or declared twice) is
reported once with its other uses as a note, a type that could not be worked out (None) silences
the checks that depend on it, and a declaration with an error makes its uses unchecked.

The checker is one class assembled from mixins over the shared state of `context.CheckerBase`:
`decls` (declarations and scopes), `names` (names, paths, calls), `exprs` (expression and
literal typing), `consts` (constant evaluation), `patterns` (match arms), `stmts` (statements
and blocks), `spec` (specification rules and holes), `instances` (modules, instances, the top)
and `externs` (what an extern module may hold).
"""

from __future__ import annotations

from ...diagnostics import Diagnostic
from ...model import Design, Hierarchy
from .. import syntax as S
from .consts import Constants
from .context import Ctx
from .decls import Declarations
from .exprs import Expressions
from .externs import Externs
from .instances import Instances
from .names import Names
from .patterns import Patterns
from .spec import SpecRules
from .stmts import Statements


class Checker(Declarations, Names, Expressions, Constants, Patterns, Statements, SpecRules, Instances, Externs):
    """The whole check of one file: `run` walks it in declaration order."""

    def __init__(self, tree: S.SourceFile, top: str | None = None) -> None:
        super().__init__(tree)
        self.top = top
        self.current: S.Module | None = None  # the module being checked

    def run(self) -> Hierarchy | None:
        modules = [i for i in self.tree.items if isinstance(i, S.Module)]
        if not modules:
            what = "has no module" if self.tree.items else "is empty (no code outside comments)"
            self.err("P005", f"the file {what}; a design is one `module NAME(ports) {{ ... }}`",
                     S.Span(1, 1, 1, 2))
            return None
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
        modules = self.declare_modules(modules)
        self.module_signatures(modules)
        designs = {m.name: self.check_module(m) for m in modules}
        for d in designs.values():
            for inst in d.instances.values():
                inst.child = designs.get(inst.module)
        looping = self.recursion(designs)
        self.depth(designs, looping)
        top = self.choose_top(modules, designs, self.top)
        self.add_repeat_notes()
        return Hierarchy(self.tree, designs, top) if top is not None else None

    def check_module(self, m: S.Module) -> Design:
        """Declarations, then bodies, of one module; its consts stay its own."""
        saved = dict(self.consts), dict(self.global_spans), set(self.broken)
        self.signals, self.broken_signals, self.holes, self.instances = {}, set(), [], {}
        self.current = m
        self.module_decls(m)
        self.extern_rules(m)
        self.module_bodies(m)
        design = Design(self.tree, m, self.enums, dict(self.consts), self.fns, self.signals,
                        self.types, self.refs, self.const_values, self.holes, instances=self.instances)
        self.consts, self.global_spans, self.broken = saved
        self.current = None
        return design

    def err_once(self, key: tuple, *args, **kwargs) -> None:
        """Within a module, a root cause is one per module (two modules may reuse a name)."""
        if self.current is not None:
            key = ("module", self.current.name) + key
        super().err_once(key, *args, **kwargs)


def check_names_types(tree: S.SourceFile, top: str | None = None) -> tuple[Hierarchy | None, list[Diagnostic]]:
    c = Checker(tree, top)
    hierarchy = c.run()
    return hierarchy, c.diags
