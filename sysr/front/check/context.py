"""What every part of the checker shares: the checking context, the collected state, reporting.

`CheckerBase` holds what the checks build up (signals, enums, consts, fns, the type and
reference of every node, the holes) and the diagnostics, with `err` and `err_once`: a root
cause (an unknown name, a ghost read) is reported once and its later sites become a note. `Ctx`
says where an expression is read (design logic, ghost logic, a specification, a fn, a constant,
a reset value) and what is in scope. The mixins beside this module add the checks; the
package's `__init__` assembles them.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace

from ... import limits
from ...diagnostics import Diagnostic, Severity, error
from ...model import EnumInfo, FnInfo, Local, Signal, StructInfo
from ...types import Ty
from .. import syntax as S


SPEC_WHERE = ("requires", "ensures", "invariant", "assert", "cover")
DESIGN_WHERE = ("logic", "seq")
GHOST_WHERE = ("ghost_logic", "ghost_seq")
ARITH = ("+", "-", "*", "/", "%", "&", "|", "^")
COMPARE = ("==", "!=", "<", "<=", ">", ">=")
LOGICAL = ("&&", "||", "==>")


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


def suggest(name: str, names) -> str:
    close = difflib.get_close_matches(name, list(names), n=1)
    return f"; did you mean `{S.written(close[0])}`?" if close else ""


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
    if isinstance(e, S.Call) and e.func == "prev" and len(e.args) in (1, 2):
        return has_own_type(e.args[0])
    return True


def subnodes(e, cls):
    """Every node of class `cls` in a syntax subtree (expressions, statements, declarations)."""
    if isinstance(e, cls):
        yield e
    if isinstance(e, (S.TypeRef, S.Span)) or not hasattr(e, "__dataclass_fields__"):
        return
    for name in e.__dataclass_fields__:
        v = getattr(e, name)
        for x in (v if isinstance(v, tuple) else (v,)):
            if hasattr(x, "__dataclass_fields__"):
                yield from subnodes(x, cls)


def short_name(e) -> str:
    """How to show an expression in a suggestion: its name, or `x` when it is not a plain name."""
    return e.name if isinstance(e, S.Name) else "x"


def has_hole(e) -> bool:
    return any(True for _ in subnodes(e, S.Hole))


class CheckerBase:
    """The state the checks share, and how they report."""

    def __init__(self, tree: S.SourceFile) -> None:
        self.tree = tree
        self.diags: list[Diagnostic] = []
        self.enums: dict[str, EnumInfo] = {}
        self.structs: dict[str, StructInfo] = {}
        self.struct_decl_of: dict[str, S.StructDecl] = {}  # every struct declared once, by name
        self.consts: dict[str, tuple[Ty, int]] = {}
        self.fns: dict[str, FnInfo] = {}
        self.signals: dict[str, Signal] = {}
        self.instances: dict = {}  # the current module's, by name (`sysr.model.Instance`)
        self.types: dict[int, Ty] = {}
        self.refs: dict[int, object] = {}
        self.const_values: dict[int, int] = {}
        self.future_ok: set[int] = set()  # id of each `next`/`within` call where a bounded form may stand
        self.expanded: dict[int, S.Spec] = {}  # id(spec) -> the spec in `prev` terms (`temporal`)
        self.holes: list[tuple[S.Hole, Ty | None]] = []
        self.global_spans: dict[str, S.Span] = {}
        self.broken: set[str] = set()  # consts and fns whose declaration has an error
        self.broken_signals: set[str] = set()  # signals not declared because the name was taken
        self.quant_fns: set[str] = set()  # fns that use a quantifier, directly or through calls
        self.first_report: dict[tuple, int] = {}  # key -> index into diags
        self.repeats: dict[tuple, list[tuple[S.Span, str]]] = {}  # key -> (site, what) reported
        self.suggest_work = 0  # names compared for "did you mean" suggestions
        self.suggested: dict[tuple, str] = {}

    # ---- reporting -------------------------------------------------------------------
    def suggest(self, name: str, names) -> str:
        """`suggest`, until the check has compared `limits.MAX_SUGGEST_WORK` names in all (a
        file with thousands of unknown names would otherwise take minutes)."""
        key = (name, tuple(names))
        if key not in self.suggested:  # a name misspelt the same way many times is looked up once
            self.suggest_work += len(key[1])
            self.suggested[key] = suggest(name, key[1]) if self.suggest_work <= limits.MAX_SUGGEST_WORK else ""
        return self.suggested[key]

    def err(self, code: str, msg: str, span: S.Span, *notes: str, related=(), warning: bool = False) -> None:
        d = error(code, msg, span, *notes, related=tuple(related))
        self.diags.append(replace(d, severity=Severity.WARNING) if warning else d)

    def err_once(self, key: tuple, code: str, msg: str, span: S.Span, *notes: str, what: str = "",
                 warning: bool = False) -> None:
        """Report one root cause (an unknown name, a ghost read) once; later sites become a note.

        `what` names the thing at this site when the key covers several (a spec naming two registers).
        """
        if key in self.first_report:
            self.repeats[key].append((span, what))
            return
        self.first_report[key] = len(self.diags)
        self.repeats[key] = [(span, what)]
        self.err(code, msg, span, *notes, warning=warning)

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
