"""The transition system elaboration builds: its state variables, properties and `System`,
and what can be read off a built system (the reset condition, the enum registers that always
hold a variant).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..front import syntax as S
from ..model import Design
from ..types import BOOL, Ty
from .ir import ArrVar, Const, ConstArr, FALSE, Ite, Read, Store, Var, mk_not


@dataclass
class StateVar:
    name: str
    ty: Ty  # element type for arrays
    size: int | None
    init: int | None  # None: arbitrary initial value (memories, history registers)
    ghost: bool
    kind: str  # "reg", "out_reg", "mem", "hist", "pv"
    next: object = None
    powerup: int | None = None  # a register without a reset value: its value in cycle 0 (`initial V`)


@dataclass
class Prop:
    """A property to prove in every cycle: a spec (`ensures`, `invariant`, `assert`) or an
    obligation the elaboration found: `index` (a dynamic index below `limit`; `what` says what
    is indexed) or `divisor` (the divisor of a `/` or `%` is not zero; `span` is the divisor,
    `text_span` the whole division, `what` the operator). In `System.requires`: `requires`, and
    one `lemma` when the design divides: facts true in every state by the operators' meaning
    (`Elaborator.division_lemmas`), assumed to help the solver; a back end may leave it out.
    With instances (`sysr.elab.contract`): `instance`, a requirement of an instance's module that this
    module must meet (`span` is the instance, `text_span` the child's clause), and in
    `System.assumes` `contract`, what an instance's module ensures, assumed here. In
    `System.covers`: `cover`, a condition that some run from reset must reach (not proven in every
    cycle). `antecedent`: for a property written `a ==> b`, the condition `a` (with the prev
    guard), which must hold in some cycle from reset for the property to say anything (vacuity)."""
    kind: str  # ensures, invariant, assert, index, divisor, instance; requires, lemma; contract
    expr: object  # bool IR, already guarded by the prev-validity flag where needed
    span: S.Span
    text: str
    text_span: S.Span | None = None  # where the property's expression is, for quoting it
    what: str = ""  # index obligations: what is indexed; divisor obligations: the operator
    limit: int = 0  # index obligations: the index must be below this
    inst: str = ""  # `instance` and `contract`: the instance; `module`: its module
    module: str = ""
    antecedent: object = None  # bool IR or None
    # a bounded form `a ==> next(b, n)` or `within(b, n)`: (func, n, span of a, span of b), for the trace's note
    bounded: tuple | None = None

    def deadline_note(self, t: int, lines: list[str]) -> str | None:
        """For a bounded form that fails in cycle t: when its trigger held and what was owed
        (`lines`: the source, for the trigger's and the target's text)."""
        if self.bounded is None:
            return None
        func, n, a, b = self.bounded
        a, b = S.source_snippet(lines, a), S.source_snippet(lines, b)
        if func == "next":
            return f"`{a}` held in cycle {t - n}, so `{b}` had to hold {n} cycle{'s' if n > 1 else ''} later, in cycle {t}"
        return f"`{a}` held in cycle {t - n}, and `{b}` held in none of cycles {t - n} to {t}"
    antecedent_span: S.Span | None = None


@dataclass
class System:
    design: Design
    inputs: list[tuple[str, Ty]]
    state: list[StateVar]
    comb: dict[str, object]  # name -> IR, in evaluation order
    comb_ghost: set[str]
    requires: list[Prop]
    props: list[Prop]
    reset_active: object  # bool IR
    enum_inputs: list[tuple[str, Ty]]
    # With an asynchronous reset: each register (and register array) with a reset value -> its
    # value as read in a cycle, `Ite(reset_active, init, stored)`; the IR reads registers
    # through these nodes. Empty for a synchronous reset (registers are read as `Var`/`ArrVar`).
    visible: dict[str, object] = field(default_factory=dict)
    enum_state: set[str] = field(default_factory=set)  # scalar enum registers that always hold a variant
    # Instances not flattened (`sysr.elab.contract`): their outputs `u.y` are in `inputs`, free in each
    # cycle; `assumes` are their contracts (what they ensure), `valid_outputs` their enum
    # outputs that hold a variant by construction.
    free_outputs: set[str] = field(default_factory=set)
    assumes: list[Prop] = field(default_factory=list)
    valid_outputs: set[str] = field(default_factory=set)
    covers: list[Prop] = field(default_factory=list)  # `cover` statements: reached from reset?

    def state_var(self, name: str) -> StateVar:
        for s in self.state:
            if s.name == name:
                return s
        raise KeyError(name)


def reset_condition(d: Design, prefix: str = "", reset: str | None = None):
    """The bool IR that says the reset is active in this cycle (FALSE without a reset): the
    module's first reset, or the reset port `reset` (§4.10: one per domain)."""
    reset = reset or d.reset
    if reset is None:
        return FALSE
    rst = Var(prefix + reset, BOOL)
    return mk_not(rst) if d.resets.get(reset, "").endswith("_n") else rst


def history_depth(system: System) -> int:
    """How many cycles back the properties read: the deepest `prev(e, n)` (with the bounded
    forms' n), from the validity flags `prev#valid`, `prev#valid2`, ... (0 without `prev`)."""
    deepest = 0
    for s in system.state:
        if s.kind == "pv":
            tail = s.name.rsplit("prev#valid", 1)[1]
            deepest = max(deepest, int(tail) if tail else 1)
    return deepest


def induction_depth(system: System, k: int) -> int:
    """The k of k-induction for a system: at least one more than the history that its properties
    read (a `prev(e, 3)` needs the step to see the three cycles it looks back over, else its
    history registers start unrelated to the design's), at least `k` (`--induction`)."""
    deepest = history_depth(system)
    return max(k, deepest + 1) if deepest > 1 else k


def pending_default(sv: StateVar):
    return ArrVar(sv.name, sv.ty, sv.size) if sv.size is not None else Var(sv.name, sv.ty)


def _variants(system: System):
    """The scalar enum registers that hold a variant in every reachable state, by construction:
    reset to a variant, and only ever loaded with variants, enum inputs (assumed to hold one), such
    registers, outputs of instances that hold one (`System.valid_outputs`), and elements of enum
    register arrays of the same kind. Not so: a register loaded from a memory (its contents are
    arbitrary until written), from `prev` (arbitrary before the first cycle), or written bit by
    bit. Returns them and the test of a value (an IR node) built that way."""
    d = system.design
    codes = {name: set(info.variants.values()) for name, info in d.enums.items()}
    inputs = {n for n, _ in system.inputs} - (system.free_outputs - system.valid_outputs)

    def valid_init(sv: StateVar) -> bool:  # (without a reset value, its power-up value: it holds at a reset)
        start = sv.init if sv.init is not None else sv.powerup
        return start is not None and start in codes[sv.ty.enum]

    enum_state = [sv for sv in system.state if sv.ty is not None and sv.ty.kind == "enum"
                  and sv.kind in ("reg", "out_reg")]
    scalars = {sv.name for sv in enum_state if sv.size is None and valid_init(sv)}
    arrays = {sv.name for sv in enum_state if sv.size is not None and valid_init(sv)}

    def value_ok(n, memo: dict) -> bool:
        key = id(n)
        if key in memo:
            return memo[key]
        memo[key] = False  # a comb signal read while it is being judged (cannot happen: no cycles)
        if isinstance(n, Const):
            ok = n.ty.kind == "enum" and n.value in codes[n.ty.enum]
        elif isinstance(n, Var):
            if n.name in inputs:
                ok = True
            elif n.name in system.comb:
                ok = value_ok(system.comb[n.name], memo)
            else:
                ok = n.name in scalars
        elif isinstance(n, Ite):
            ok = value_ok(n.a, memo) and value_ok(n.b, memo)
        elif isinstance(n, Read):
            ok = value_ok(n.arr, memo)
        elif isinstance(n, ArrVar):
            ok = n.name in arrays
        elif isinstance(n, ConstArr):
            ok = n.ty.kind == "enum" and n.value in codes[n.ty.enum]
        elif isinstance(n, Store):
            ok = value_ok(n.arr, memo) and value_ok(n.v, memo)
        else:
            ok = False  # a cast or splice: any bit pattern
        memo[key] = ok
        return ok

    changed = True
    while changed:
        changed = False
        memo: dict = {}
        for sv in enum_state:
            keep = scalars if sv.size is None else arrays
            if sv.name in keep and not value_ok(sv.next, memo):
                keep.discard(sv.name)
                changed = True
    return scalars, lambda n: value_ok(n, memo)


def variant_registers(system: System) -> set[str]:
    """The scalar enum registers that hold a variant in every reachable state, by construction
    (`_variants`). Induction may assume the validity of these only."""
    return _variants(system)[0]


def variant_outputs(system: System) -> set[str]:
    """The enum outputs of a module that hold a variant by construction (as `_variants` says of
    registers): what a module that instantiates it may assume about them."""
    scalars, ok = _variants(system)
    out = set()
    for s in system.design.signals.values():
        if s.ty is None or s.ty.kind != "enum" or s.kind not in ("out", "out_reg"):
            continue
        if s.name in scalars or (s.kind == "out" and ok(system.comb[s.name])):
            out.add(s.name)
    return out
