"""Static checks: names, types and widths, specification rules and holes -> a `Design` and diagnostics.

`check_names_types(tree)` resolves every name, types every expression (literals take their
type from context), evaluates constants, and enforces the S rules that depend on where a name is
read. Structure (drivers, latches, loops, clock and reset) is `sysr.front.structure`, run
afterwards on the resolved design. Errors are collected; nothing here raises on user input.

One mistake should give one error: a name that is unknown (or ghost, or declared twice) is
reported once with its other uses as a note, a type that could not be worked out (None) silences
the checks that depend on it, and a declaration with an error makes its uses unchecked.

The checker is one class assembled from mixins over the shared state of `context.CheckerBase`:
`decls` (declarations and scopes), `names` (names, paths, calls), `exprs` (expression and
literal typing), `consts` (constant evaluation), `patterns` (match arms), `stmts` (statements
and blocks) and `spec` (specification rules and holes).
"""

from __future__ import annotations

from ...diagnostics import Diagnostic, Related
from ...model import Design
from .. import syntax as S
from .consts import Constants
from .context import Ctx
from .decls import Declarations
from .exprs import Expressions
from .names import Names
from .patterns import Patterns
from .spec import SpecRules
from .stmts import Statements


class Checker(Declarations, Names, Expressions, Constants, Patterns, Statements, SpecRules):
    """The whole check of one file: `run` walks it in declaration order."""

    def run(self) -> Design | None:
        modules = [i for i in self.tree.items if isinstance(i, S.Module)]
        if not modules:
            what = "has no module" if self.tree.items else "is empty (no code outside comments)"
            self.err("P005", f"the file {what}; a design is one `module NAME(ports) {{ ... }}`",
                     S.Span(1, 1, 1, 2))
            return None
        for extra in modules[1:]:
            self.err("P005", f"a file holds exactly one module; `{S.written(extra.name)}` is a second one",
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


def check_names_types(tree: S.SourceFile) -> tuple[Design | None, list[Diagnostic]]:
    c = Checker(tree)
    design = c.run()
    return design, c.diags
