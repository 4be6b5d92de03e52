"""One module's transition system: the `Elaborator`, and `System` built from its logic and specs.

It runs the comb items in their evaluation order, the seq blocks into each register's next
value, and the specs into properties (guarded by the history flag where they use `prev`); the
expression and statement halves are `sysr.elab.exprs` and `sysr.elab.stmts`.
"""

from __future__ import annotations

from .. import overrun
from ..front import syntax as S
from ..model import Design, Signal
from ..types import BOOL
from .clocks import Clocking, clocking
from .exprs import Env, ExprElaborator
from .ir import FALSE, TRUE, ArrVar, Const, ConstArr, ElabError, Var, mk_and, mk_implies, mk_ite, mk_not
from .stmts import StmtElaborator
from .system import Prop, StateVar, System, pending_default, reset_condition, variant_registers


class Elaborator(ExprElaborator, StmtElaborator):
    """One module's transition system. `prefix` names everything of an instance inside
    another module (`u.` for instance `u`: its signals `u.x`, its state `u.r`); `ghost_only`
    builds only the specification part (ghost state and logic, `prev`, `requires` and
    `ensures`), as an instance's contract does; `budget` is shared by a whole flattened
    hierarchy. Instances themselves are `sysr.elab.flat`'s and `sysr.elab.contract`'s."""

    def __init__(self, d: Design, prefix: str = "", budget: overrun.Budget | None = None,
                 ghost_only: bool = False, clocks: tuple[Clocking, dict[str, str]] | None = None) -> None:
        self.d = d
        # the design's clocks, and the top clock of each of this module's (`sysr.elab.clocks`)
        self.top = clocks is None
        self.clocking, self.nets = clocks if clocks is not None else (clocking(d), {c: c for c in d.clocks})
        self.prefix = prefix
        self.ghost_only = ghost_only
        self.state: list[StateVar] = []
        self.hist_count = 0
        self.obligations: list[Prop] = []
        self.divisions: list[tuple] = []  # (dividend, divisor, syntax node) of every `/` and `%`
        self.antecedents: dict[int, object] = {}  # id(`a ==> b` node) -> `a` elaborated
        self.reset_active = reset_condition(d, prefix)
        # the cycles in which a property that reads n cycles back is checked (`valid(n)`): the
        # n cycles before exist and had no reset; with an asynchronous reset, not this one either
        self.deepest = 0  # the largest n asked for
        self.visible: dict[str, object] = {}  # asynchronous reset: register -> its value as read
        self.inst_values: dict[str, object] = {}  # `u.y` -> its value, where it is not Var(`u.y`)
        self.source_text: str = ""
        self.size = budget or overrun.design_size_budget()
        self.quants = overrun.quant_budget()
        self.quant_scale = 1  # instances of the quantifiers being expanded, multiplied
        self.nesting = 0

    def keeps(self, item) -> bool:
        """Whether the system has this signal or item: everything, or with `ghost_only` the
        ghost state and logic and the contract (`requires`, `ensures`)."""
        if not self.ghost_only:
            return True
        if isinstance(item, Signal):
            return item.ghost
        if isinstance(item, S.Spec):
            return item.kind in ("requires", "ensures")
        if isinstance(item, S.ModAssign):
            return self.d.signals[item.target].ghost
        return getattr(item, "ghost", False)

    def validity_flags(self, deepest: int) -> None:
        """`prev#valid` (the cycle before exists and had no reset), then `prev#valid2` up to
        `prev#valid<deepest>`, each the one before delayed a cycle and without reset."""
        p, earlier = self.prefix, None
        for n in range(1, deepest + 1):
            name = p + "prev#valid" + (str(n) if n > 1 else "")
            nxt = mk_not(self.reset_active) if earlier is None else mk_and(earlier, mk_not(self.reset_active))
            self.state.append(StateVar(name, BOOL, None, 0, True, "pv", nxt))
            earlier = Var(name, BOOL)

    def system(self) -> System:
        d, p = self.d, self.prefix
        inputs = [(p + s.name, s.ty) for s in d.signals.values() if s.is_input or s.kind == "inst_out"]
        free = {p + s.name for s in d.signals.values() if s.kind == "inst_out"}
        regs = [s for s in d.signals.values() if s.is_state and self.keeps(s)]
        for s in regs:
            self.state.append(StateVar(p + s.name, s.ty, s.size, s.init, s.ghost, s.kind, powerup=s.powerup))
        reset_active = self.reset_active
        comb: dict[str, object] = {}
        comb_ghost: set[str] = set()
        for item in d.comb_order:
            if not self.keeps(item):
                continue
            driven = [n for n, drv in d.drivers.items() if drv is item]
            if isinstance(item, S.WireDecl):
                comb[p + item.name] = self.ex(item.value, Env())
            elif isinstance(item, S.ModAssign):
                comb[p + item.target] = self.ex(item.value, Env())
            elif isinstance(item, S.Binding):
                comb[p + driven[0]] = self.ex(item.value, Env())
            elif isinstance(item, S.CombBlock):
                own = {n: None for n in driven}
                out = self.stmts(item.body, Env({}, own, None))
                for n in own:
                    if out.own[n] is None:
                        raise ElabError(f"{n} not assigned on every path")
                    comb[p + n] = out.own[n]
            comb_ghost.update(p + n for n in driven if d.signals[n].ghost)
        pending: dict[str, object] = {}
        for s in regs:
            pending[s.name] = ArrVar(p + s.name, s.ty, s.size) if s.is_array else Var(p + s.name, s.ty)
        for item in d.module.items:
            if isinstance(item, S.SeqBlock) and self.keeps(item):
                out = self.stmts(item.body, Env({}, None, pending))
                pending = out.pending
        for sv, s in zip(self.state, regs):
            nxt = pending[s.name]
            edge = self.edge(d.domains.get(s.name))
            reset_active, is_async = self.reset_of(s.name)
            if sv.init is not None:
                init = ConstArr(sv.init, sv.ty, sv.size) if sv.size is not None else Const(sv.init, sv.ty)
                if is_async:  # (the reset acts at once, edge or not)
                    nxt = mk_ite(reset_active, init, _at(edge, nxt, pending_default(sv)))
                else:
                    nxt = _at(edge, mk_ite(reset_active, init, nxt), pending_default(sv))
            else:
                nxt = _at(edge, mk_ite(reset_active, pending_default(sv), nxt), pending_default(sv))
            sv.next = nxt
        reset_active = self.reset_active
        requires, props, covers = [], [], []
        for spec in d.specs():
            if not self.keeps(spec):
                continue
            depth = S.prev_depth(spec.expr, d.const_values)
            uses_prev = depth > 0
            expr = self.ex(spec.expr, Env())
            implication = isinstance(spec.expr, S.Binary) and spec.expr.op == "==>"
            antecedent = self.antecedents.get(id(spec.expr)) if implication and spec.kind != "requires" else None
            if uses_prev:  # a cover or a condition is reached only where the property is checked
                valid = self.valid(depth)
                guard = mk_and if spec.kind == "cover" else mk_implies
                expr = guard(valid, expr)
                antecedent = mk_and(valid, antecedent) if antecedent is not None else None
            form = d.bounded_form(spec)
            bounded = None if form is None else (form.right.func, S.prev_cycles(form.right, d.const_values),
                                                 form.left.span, form.right.args[0].span)
            prop = Prop(spec.kind, expr, spec.span, "", spec.expr.span, antecedent=antecedent,
                        antecedent_span=spec.expr.left.span if antecedent is not None else None, bounded=bounded)
            (requires if spec.kind == "requires" else covers if spec.kind == "cover" else props).append(prop)
        self.validity_flags(max(self.deepest, 1 if self.hist_count else 0))
        self.gate_history()
        props += self.obligations
        if self.divisions:
            requires.append(Prop("lemma", self.division_lemmas(), d.module.name_span, "",
                                 self.divisions[0][2].span))
        enum_inputs = [(n, t) for n, t in inputs if t.kind == "enum" and n not in free]
        for s in regs:  # registers nothing reads are still shown as reset
            self.state_read(s)
        if self.top and not self.ghost_only:  # the clocks' ticks and levels
            inputs = inputs + self.clocking.inputs()
            self.state += self.clocking.state()
        system = System(d, inputs, self.state, comb, comb_ghost, requires, props, reset_active, enum_inputs,
                        dict(self.visible), free_outputs=free, covers=covers)
        system.enum_state = variant_registers(system)
        return system

    def reset_of(self, reg: str):
        """The bool IR that says register `reg`'s reset is active (its block's: §4.10), and
        whether that reset is asynchronous."""
        rst, _, is_async = self.d.reset_kind(reg)
        if rst is None:
            return FALSE, False
        if rst == self.d.reset:
            return self.reset_active, is_async
        return reset_condition(self.d, self.prefix, rst), is_async

    def edge(self, domain: tuple[str, str] | None):
        """The bool IR that says this domain's edge ends the step (TRUE with one fixed clock)."""
        if domain is None:
            return TRUE
        clock, edge = domain
        return self.clocking.edge(self.nets[clock], edge)

    def gate_history(self) -> None:
        """`prev`'s history registers and flag take their values at the edges of the module's one
        domain (a module that uses `prev` has one: A008)."""
        domains = set(self.d.block_domain.values()) or ({(self.d.clocks[0], "rising")} if self.d.clocks else set())
        if len(domains) != 1:
            return
        edge = self.edge(next(iter(domains)))
        if edge is TRUE:
            return
        for sv in self.state:
            if sv.kind in ("hist", "pv") and sv.name.startswith(self.prefix + "prev#"):
                sv.next = _at(edge, sv.next, Var(sv.name, sv.ty))


def _at(edge, nxt, stored):
    """A state variable's next value when its edge happens, else what it stored."""
    return nxt if edge is TRUE else mk_ite(edge, nxt, stored)
