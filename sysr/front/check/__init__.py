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
and blocks), `spec` (specification rules and holes), `instances` (modules, instances, the top),
`externs` (what an extern module may hold), `structs` (packed structs and their fields) and `params` (parameters and `int` consts: one copy of a module per binding, §4.8).

Modules are checked from a work list: every module without parameters, and every root (a
module no other instantiates: the top, with `--param`, and those the top does not reach) with
its defaults; checking an instance of a module with parameters adds that binding to the list.
A diagnostic found in some bindings of a module but not all gets a note naming them.
"""

from __future__ import annotations

from ... import limits, overrun
from ...diagnostics import Diagnostic
from ...model import Design, Hierarchy
from .. import syntax as S
from .consts import Constants
from .context import Ctx
from .decls import Declarations
from .exprs import Expressions
from .externs import Externs
from .fnbody import FnBodies
from .instances import Instances
from .names import Names
from .params import Parameters, binding_key
from .patterns import Patterns
from .spec import SpecRules
from .stmts import Statements
from .structs import Structs
from .temporal import Temporal


class Checker(Declarations, Names, Expressions, Constants, Patterns, Statements, SpecRules, Temporal, Instances,
              Parameters, Externs, FnBodies, Structs):
    """The whole check of one file: `run` walks it in declaration order."""

    def __init__(self, tree: S.SourceFile, top: str | None = None,
                 params: dict[str, int] | None = None) -> None:
        super().__init__(tree)
        self.top = top
        self.top_params = params or {}  # `--param NAME=VALUE` for the top module
        self.current: S.Module | None = None  # the module being checked
        self.current_key = ""  # the binding being specialized or checked ("" outside one)
        self.diag_binding: dict[int, str] = {}  # index into diags -> the binding it was found in

    def run(self) -> Hierarchy | None:
        modules = [i for i in self.tree.items if isinstance(i, S.Module)]
        if not modules:
            what = "has no module" if self.tree.items else "is empty (no code outside comments)"
            self.err("P005", f"the file {what}; a design is one `module NAME(ports) {{ ... }}`",
                     S.Span(1, 1, 1, 2))
            return None
        self.int_globals()
        for item in self.tree.items:
            if isinstance(item, S.EnumDecl):
                self.enum_decl(item)
        self.struct_decls()
        for item in self.tree.items:
            if isinstance(item, S.ConstDecl) and item.ty.name != "int":
                self.const_decl(item, Ctx("const"))
            elif isinstance(item, S.FnDecl):
                self.fn_signature(item)
        self.fn_calls()
        for item in self.tree.items:
            if isinstance(item, S.FnDecl) and item.name in self.fns:
                self.fn_body(item)
        modules = [m for m in self.tree.items if isinstance(m, S.Module)]
        modules = self.declare_modules(modules)
        top = self.choose_top(modules, self.top)
        self.port_types = {}
        self.designs: dict[str, Design] = {}
        self.todo: list[tuple[S.Module, str, tuple]] = []
        self.start_bindings(modules, top)
        designs = self.designs
        for d in designs.values():
            for inst in d.instances.values():
                inst.child = designs.get(inst.key)
        looping = self.recursion(designs)
        self.depth(designs, looping)
        self.binding_notes()
        self.add_repeat_notes()
        if top is None:
            return None
        order = {m.name: i for i, m in enumerate(modules)}
        ordered = dict(sorted(designs.items(), key=lambda kv: order[kv[1].module.name]))
        top_key = next((k for k, d in ordered.items() if d.module.name == top), None)
        return Hierarchy(self.tree, ordered, top_key) if top_key is not None else None

    def start_bindings(self, modules: list[S.Module], top: str | None) -> None:
        """Check every module without parameters, the roots with their defaults (the top with
        `--param`), then every binding their instances ask for, until none is left."""
        used = {i.module for m in modules for i in m.items if isinstance(i, S.InstDecl)}
        self.cyclic = self.cyclic_modules(modules)
        for m in modules:
            if not self.param_decls(m) and m.params:
                continue
            if m.name == top and self.top_params:
                given = {k: (v, m.name_span) for k, v in self.top_params.items()}
            elif m.params and m.name in used and m.name != top:
                continue  # checked for the bindings its instances ask for
            else:
                given = {}
            who = "`--param`" if m.name == top else ""
            binding = self.binding(m, given, m.name_span, who)
            if binding is not None:
                self.bind(m, binding)
            while self.todo:
                self.check_binding(*self.todo.pop(0))
        for m in modules:  # only instantiated on a cycle of instances (A012): its defaults, if it has them
            if m.params and m.name not in self.bindings and all(p.default is not None for p in m.params):
                binding = self.binding(m, {}, m.name_span, "")
                if binding is not None:
                    self.bind(m, binding)
                while self.todo:
                    self.check_binding(*self.todo.pop(0))

    def bind(self, m: S.Module, binding: tuple) -> tuple[S.Module, str]:
        """The copy of `m` for `binding` and its key; queued for checking when new."""
        key = binding_key(m.name, binding) if m.params else m.name
        known = self.bindings.setdefault(m.name, [])
        saved, self.current_key = self.current_key, key if m.params else ""
        copy = self.specialize(m, binding)
        if key not in known and not (known and m.name in self.cyclic):
            if sum(map(len, self.bindings.values())) >= limits.MAX_INSTANCES:
                raise overrun.exceeded("L009", f"the file's modules are used with more than {limits.MAX_INSTANCES} "
                                              "bindings of their parameters", m.name_span,
                                      "use fewer distinct parameter values")
            known.append(key)
            self.module_signatures([copy])
            self.todo.append((copy, key, binding))
        self.current_key = saved
        return copy, key

    def check_binding(self, m: S.Module, key: str, binding: tuple) -> None:
        saved, self.current_key = self.current_key, key if m.params else ""
        self.designs[key] = self.check_module(m, key if m.params else "", binding)
        self.current_key = saved

    def check_module(self, m: S.Module, key: str = "", binding: tuple = ()) -> Design:
        """Declarations, then bodies, of one module; its consts stay its own."""
        saved = dict(self.consts), dict(self.global_spans), set(self.broken)
        outer = self.signals, self.broken_signals, self.holes, self.instances, self.current
        self.signals, self.broken_signals, self.holes, self.instances = {}, set(), [], {}
        self.current = m
        self.module_decls(m)
        self.extern_rules(m)
        self.module_bodies(m)
        design = Design(self.tree, m, self.enums, dict(self.consts), self.fns, self.signals,
                        self.types, self.refs, self.const_values, self.holes, instances=self.instances,
                        binding=binding, key=key, expanded=self.expanded,
                        ints=self.__dict__.get("ints", {}).get(key or m.name, {}), structs=self.structs)
        self.consts, self.global_spans, self.broken = saved
        self.signals, self.broken_signals, self.holes, self.instances, self.current = outer
        return design

    def err(self, code: str, msg: str, span: S.Span, *notes: str, related=(), warning: bool = False) -> None:
        super().err(code, msg, span, *notes, related=related, warning=warning)
        if self.current_key:
            self.diag_binding[len(self.diags) - 1] = self.current_key

    def err_once(self, key: tuple, *args, **kwargs) -> None:
        """Within a module, a root cause is one per module (two modules may reuse a name), and
        one per binding of a module with parameters."""
        if self.current is not None:
            key = ("module", self.current_key or self.current.name) + key
        super().err_once(key, *args, **kwargs)


def check_names_types(tree: S.SourceFile, top: str | None = None,
                      params: dict[str, int] | None = None) -> tuple[Hierarchy | None, list[Diagnostic]]:
    c = Checker(tree, top, params)
    hierarchy = c.run()
    return hierarchy, c.diags
