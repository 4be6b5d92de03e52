"""Elaboration: a checked design -> a transition system over a small typed expression IR.

This is the one place where sysr's cycle semantics are spelled out. Both the z3 encoder
(`sysr.smt.encode`) and the concrete evaluator (`sysr.evaluate`) interpret the IR built here,
operator by operator, so they agree by construction; the lowering is checked against the
evaluator by differential simulation.

Semantics: in cycle t the state (registers, memories, ghost registers, the history registers
behind `prev`) and the inputs determine every wire and output; properties are evaluated on
those values; at the clock edge every register takes its next value, or its reset value when
the reset is active (memories then keep their contents). `fn` calls are inlined, `for` loops
unrolled, quantifiers expanded, comb blocks executed in order, seq blocks with last-write-wins.
An out-of-range read gives 0 and an out-of-range write does nothing; each dynamic index is also
a proof obligation, so a proven design never relies on that.

What elaboration builds is bounded (`sysr.limits`): operations in all (L007), quantifier
instances (L005) and nesting once fns are inlined (L003), each raised as `LimitExceeded` at the
construct where the budget ran out.

Asynchronous reset (`areset`, `areset_n`): the state variable of a register is what it stored
at the last edge, and every read of it (logic, properties, ghost logic, `prev`) goes through
`System.visible[name]` = `Ite(reset_active, init, stored)`: while the reset is active the
register reads as its reset value in that same cycle, and it still holds it after the edge
(the next-state function is the same as for a synchronous reset). Memories are never reset. A
property that mentions `prev` is then also skipped in a cycle with the reset active.

Division: `Bin("/")` and `Bin("%")` take two operands of one type and mean Verilog's `/` and
`%` at that width (`sysr.types.op_divide`: unsigned, or signed truncating toward zero with the
remainder taking the dividend's sign). Each division records a `divisor` obligation (the
divisor is not zero wherever the division is evaluated, under the guards of `if`, `match`,
`&&`, `||` and `==>`), since Verilog gives x there; the value of a division by zero follows
SMT-LIB (`bvudiv`, `bvurem`, `bvsdiv`, `bvsrem`) and no proven design reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import limits
from .front import syntax as S
from .model import Design, Local, Signal
from .types import BOOL, BUILTINS, Ty, bits_for, uint


class ElabError(Exception):
    """An inconsistency the static checks should have excluded: a bug in sysr."""


# ---- the IR ------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Const:
    value: int
    ty: Ty


@dataclass(frozen=True, eq=False)
class Var:
    """The value in the current cycle of an input, scalar state variable or comb signal."""
    name: str
    ty: Ty


@dataclass(frozen=True, eq=False)
class ArrVar:
    name: str
    ty: Ty  # element type
    size: int


@dataclass(frozen=True, eq=False)
class Un:
    op: str  # "-", "~"
    a: object
    ty: Ty


@dataclass(frozen=True, eq=False)
class Bin:
    op: str  # + - * / % & | ^ << >> == != < <= > >= ; operands share a type except shift amounts
    a: object
    b: object
    ty: Ty  # result type (bool for comparisons)


@dataclass(frozen=True, eq=False)
class Ite:
    c: object
    a: object
    b: object
    ty: Ty | None  # None for array-valued
    size: int | None = None


@dataclass(frozen=True, eq=False)
class Cast:
    a: object
    ty: Ty


@dataclass(frozen=True, eq=False)
class Slice:
    a: object
    hi: int
    lo: int
    ty: Ty


@dataclass(frozen=True, eq=False)
class BitIdx:
    a: object
    i: object  # dynamic index; out of range gives 0
    ty: Ty = BOOL


@dataclass(frozen=True, eq=False)
class Cat:
    parts: tuple
    ty: Ty


@dataclass(frozen=True, eq=False)
class Builtin:
    name: str
    a: object
    ty: Ty


@dataclass(frozen=True, eq=False)
class Read:
    arr: object  # array-valued
    i: object
    ty: Ty


@dataclass(frozen=True, eq=False)
class Store:
    arr: object
    i: object
    v: object
    ty: Ty | None = None
    size: int | None = None


@dataclass(frozen=True, eq=False)
class ConstArr:
    value: int
    ty: Ty  # element type
    size: int


TRUE = Const(1, BOOL)
FALSE = Const(0, BOOL)


def children(n) -> tuple:
    """The operands of an IR node (comb signals named by `Var` are not followed)."""
    if isinstance(n, (Const, Var, ArrVar, ConstArr)):
        return ()
    if isinstance(n, (Un, Cast, Slice, Builtin)):
        return (n.a,)
    if isinstance(n, Bin):
        return (n.a, n.b)
    if isinstance(n, Ite):
        return (n.c, n.a, n.b)
    if isinstance(n, BitIdx):
        return (n.a, n.i)
    if isinstance(n, Cat):
        return n.parts
    if isinstance(n, Read):
        return (n.arr, n.i)
    if isinstance(n, Store):
        return (n.arr, n.i, n.v)
    raise TypeError(f"unknown IR node {type(n).__name__}")


def postorder(root, done: dict, follow=None):
    """Yield the nodes under `root` not yet in `done`, every node after its operands, without
    recursion (designs unroll into deep expressions). `follow(var)` gives the expression behind a
    comb signal's Var, or None."""
    stack = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in done:
            continue
        if expanded:
            yield node
            continue
        stack.append((node, True))
        kids = children(node)
        if follow is not None and isinstance(node, Var):
            behind = follow(node)
            kids = (behind,) if behind is not None else ()
        for k in kids:
            if id(k) not in done:
                stack.append((k, False))


def is_array(x) -> bool:
    return isinstance(x, (ArrVar, Store, ConstArr)) or (isinstance(x, Ite) and x.ty is None)


def array_size(x) -> int:
    return x.size  # every array-valued node carries its size


def mk_and(a, b):
    if a is TRUE:
        return b
    if b is TRUE:
        return a
    return Bin("&", a, b, BOOL)


def mk_or(a, b):
    if a is FALSE:
        return b
    if b is FALSE:
        return a
    return Bin("|", a, b, BOOL)


def mk_not(a):
    return Un("~", a, BOOL)


def mk_implies(a, b):
    return mk_or(mk_not(a), b)


def mk_ite(c, a, b):
    if a is b:
        return a
    if a is None or b is None:
        return None
    if is_array(a):
        return Ite(c, a, b, None, array_size(a))
    return Ite(c, a, b, a.ty)


# ---- the transition system ---------------------------------------------------------------

@dataclass
class StateVar:
    name: str
    ty: Ty  # element type for arrays
    size: int | None
    init: int | None  # None: arbitrary initial value (memories, history registers)
    ghost: bool
    kind: str  # "reg", "out_reg", "mem", "hist", "pv"
    next: object = None


@dataclass
class Prop:
    """A property to prove in every cycle: a spec (`ensures`, `invariant`, `assert`) or an
    obligation the elaboration found: `index` (a dynamic index below `limit`; `what` says what
    is indexed) or `divisor` (the divisor of a `/` or `%` is not zero; `span` is the divisor,
    `text_span` the whole division, `what` the operator). In `System.requires`: `requires`, and
    one `lemma` when the design divides: facts true in every state by the operators' meaning
    (`Elaborator.division_lemmas`), assumed to help the solver; a back end may leave it out.
    With instances (`sysr.hier`): `instance`, a requirement of an instance's module that this
    module must meet (`span` is the instance, `text_span` the child's clause), and in
    `System.assumes` `contract`, what an instance's module ensures, assumed here."""
    kind: str  # ensures, invariant, assert, index, divisor, instance; requires, lemma; contract
    expr: object  # bool IR, already guarded by the prev-validity flag where needed
    span: S.Span
    text: str
    text_span: S.Span | None = None  # where the property's expression is, for quoting it
    what: str = ""  # index obligations: what is indexed; divisor obligations: the operator
    limit: int = 0  # index obligations: the index must be below this
    inst: str = ""  # `instance` and `contract`: the instance; `module`: its module
    module: str = ""


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
    # Instances not flattened (`sysr.hier`): their outputs `u.y` are in `inputs`, free in each
    # cycle; `assumes` are their contracts (what they ensure), `valid_outputs` their enum
    # outputs that hold a variant by construction.
    free_outputs: set[str] = field(default_factory=set)
    assumes: list[Prop] = field(default_factory=list)
    valid_outputs: set[str] = field(default_factory=set)

    def state_var(self, name: str) -> StateVar:
        for s in self.state:
            if s.name == name:
                return s
        raise KeyError(name)


@dataclass
class Env:
    locals: dict[str, object] = field(default_factory=dict)
    own: dict[str, object] | None = None  # comb block: values assigned so far (None = not yet)
    pending: dict[str, object] | None = None  # seq block: next values assigned so far
    guard: object = TRUE


class Elaborator:
    """One module's transition system. `prefix` names everything of an instance inside
    another module (`u.` for instance `u`: its signals `u.x`, its state `u.r`); `ghost_only`
    builds only the specification part (ghost state and logic, `prev`, `requires` and
    `ensures`), as an instance's contract does; `budget` is shared by a whole flattened
    hierarchy. Instances themselves are `sysr.hier`'s."""

    def __init__(self, d: Design, prefix: str = "", budget: limits.Budget | None = None,
                 ghost_only: bool = False) -> None:
        self.d = d
        self.prefix = prefix
        self.ghost_only = ghost_only
        self.state: list[StateVar] = []
        self.hist_count = 0
        self.obligations: list[Prop] = []
        self.divisions: list[tuple] = []  # (dividend, divisor, syntax node) of every `/` and `%`
        self.reset_active = reset_condition(d, prefix)
        # the cycles in which a property that mentions `prev` is checked: the previous cycle
        # exists and had no reset; with an asynchronous reset, not this one either
        self.prev_valid = Var(prefix + "prev#valid", BOOL)
        if d.reset_async:
            self.prev_valid = mk_and(self.prev_valid, mk_not(self.reset_active))
        self.visible: dict[str, object] = {}  # asynchronous reset: register -> its value as read
        self.inst_values: dict[str, object] = {}  # `u.y` -> its value, where it is not Var(`u.y`)
        self.source_text: str = ""
        self.size = budget or limits.design_size_budget()
        self.quants = limits.quant_budget()
        self.quant_scale = 1  # instances of the quantifiers being expanded, multiplied
        self.nesting = 0

    # ---- expressions -------------------------------------------------------------------
    def ty(self, e) -> Ty:
        try:
            return self.d.types[id(e)]
        except KeyError:
            raise ElabError(f"no type recorded for {type(e).__name__} at {e.span}") from None

    def ex(self, e, env: Env):
        m = getattr(self, "x_" + type(e).__name__, None)
        if m is None:
            raise ElabError(f"cannot elaborate {type(e).__name__}")
        self.size.spend(1, e.span)
        self.nesting += 1
        if self.nesting > limits.MAX_INLINED_NESTING:
            raise limits.exceeded("L003", f"the design nests more than {limits.MAX_INLINED_NESTING} levels deep "
                                          "here once fns are inlined into their calls", e.span,
                                  "call fns inside fns less deeply, or split their bodies with `let`s")
        value = m(e, env)
        self.nesting -= 1  # (on an exception elaboration stops altogether)
        return value

    def x_IntLit(self, e: S.IntLit, env):
        ty = self.ty(e)
        return Const(e.value & ((1 << ty.width) - 1), ty)

    def x_BoolLit(self, e, env):
        return TRUE if e.value else FALSE

    def x_Path(self, e: S.Path, env):
        info = self.d.enums[e.enum]
        return Const(info.variants[e.variant], info.ty)

    def x_Hole(self, e, env):
        raise ElabError("a hole reached elaboration")

    def x_Name(self, e: S.Name, env: Env):
        ref = self.d.refs.get(id(e))
        if isinstance(ref, Local):
            if ref.name not in env.locals:
                raise ElabError(f"unbound local {ref.name}")
            return env.locals[ref.name]
        if isinstance(ref, str):
            ty, value = self.d.consts[ref]
            return Const(value, ty)
        if isinstance(ref, Signal):
            return self.read_signal(ref, env)
        raise ElabError(f"unresolved name {e.name}")

    def read_signal(self, sig: Signal, env: Env):
        if env.own is not None and sig.name in env.own:
            v = env.own[sig.name]
            if v is None:
                raise ElabError(f"{sig.name} read before assignment")
            return v
        if sig.is_state:
            return self.state_read(sig)
        got = self.inst_values.get(sig.name)
        return got if got is not None else Var(self.prefix + sig.name, sig.ty)

    def state_read(self, sig: Signal):
        """A register, register array or memory as logic and properties read it in a cycle: what
        it stored at the last edge, except that with an asynchronous reset a register (or
        register array) reads as its reset value while the reset is active. One node per signal,
        shared by every read."""
        name = self.prefix + sig.name
        stored = ArrVar(name, sig.ty, sig.size) if sig.is_array else Var(name, sig.ty)
        if not self.d.reset_async or sig.init is None:
            return stored
        if name not in self.visible:
            init = ConstArr(sig.init, sig.ty, sig.size) if sig.is_array else Const(sig.init, sig.ty)
            self.visible[name] = mk_ite(self.reset_active, init, stored)
        return self.visible[name]

    def x_Unary(self, e: S.Unary, env):
        a = self.ex(e.operand, env)
        op = "~" if e.op == "!" else e.op
        return Un(op, a, self.ty(e))

    def x_Binary(self, e: S.Binary, env: Env):
        a = self.ex(e.left, env)
        op = e.op
        if op in ("&&", "||", "==>"):
            g = a if op in ("&&", "==>") else mk_not(a)
            b = self.ex(e.right, Env(env.locals, env.own, env.pending, mk_and(env.guard, g)))
            if op == "&&":
                return Bin("&", a, b, BOOL)
            if op == "||":
                return Bin("|", a, b, BOOL)
            return mk_implies(a, b)
        b = self.ex(e.right, env)
        if op in ("/", "%"):
            self.divisor_obligation(b, env, e)
            self.divisions.append((a, b, e))
        return Bin(op, a, b, self.ty(e))

    def division_lemmas(self):
        """`b != 0 ==> a % b == a - (a / b) * b` (at the operands' width) for every division in
        the design, as one bool.

        True in every state by the meaning of `/` and `%` (the guard keeps it true for Verilog
        too, where a zero divisor gives x), so assuming it changes nothing; it is there for the
        solver, whose bit-level division circuits alone make `q * b + r == a` hard to prove
        beyond 8 bits."""
        out = TRUE
        seen: set[tuple] = set()
        for a, b, _ in self.divisions:
            ty = a.ty
            key = (_ir_key(a), _ir_key(b))
            if key in seen:
                continue
            seen.add(key)
            q, r = Bin("/", a, b, ty), Bin("%", a, b, ty)
            fact = Bin("==", r, Bin("-", a, Bin("*", q, b, ty), ty), BOOL)
            out = mk_and(out, mk_implies(Bin("!=", b, Const(0, ty), BOOL), fact))
        return out

    def divisor_obligation(self, b, env: Env, e: S.Binary) -> None:
        """Record that the divisor `b` of `e` is not zero wherever this code runs (`env.guard`):
        Verilog's `/` and `%` give x for a zero divisor."""
        if isinstance(b, Const):
            if b.value == 0:  # e.g. a loop variable: fails wherever it is reached
                self.obligations.append(Prop("divisor", mk_implies(env.guard, FALSE), e.right.span, "",
                                             e.span, e.op))
            return
        cond = Bin("!=", b, Const(0, b.ty), BOOL)
        self.obligations.append(Prop("divisor", mk_implies(env.guard, cond), e.right.span, "", e.span, e.op))

    def x_Cast(self, e: S.Cast, env):
        return Cast(self.ex(e.operand, env), self.ty(e))

    def x_IfExpr(self, e: S.IfExpr, env: Env):
        c = self.ex(e.cond, env)
        a = self.ex(e.then, self.guarded(env, c))
        b = self.ex(e.else_, self.guarded(env, mk_not(c)))
        return Ite(c, a, b, self.ty(e))

    def guarded(self, env: Env, c) -> Env:
        return Env(env.locals, env.own, env.pending, mk_and(env.guard, c))

    def pattern_cond(self, pats, subject):
        cond = FALSE
        for p in pats:
            if isinstance(p, S.PatWild):
                return TRUE
            if isinstance(p, S.PatInt):
                v = Const(p.lit.value & ((1 << subject.ty.width) - 1), subject.ty)
            elif isinstance(p, S.PatBool):
                v = TRUE if p.value else FALSE
            else:
                info = self.d.enums[p.path.enum]
                v = Const(info.variants[p.path.variant], info.ty)
            cond = mk_or(cond, Bin("==", subject, v, BOOL))
        return cond

    def x_MatchExpr(self, e: S.MatchExpr, env: Env):
        subject = self.ex(e.subject, env)
        conds = [self.pattern_cond(a.patterns, subject) for a in e.arms]
        vals = []
        taken = FALSE
        for arm, c in zip(e.arms, conds):
            vals.append(self.ex(arm.value, self.guarded(env, mk_and(mk_not(taken), c))))
            taken = mk_or(taken, c)
        result = vals[-1]
        for c, v in zip(reversed(conds[:-1]), reversed(vals[:-1])):
            result = Ite(c, v, result, self.ty(e))
        return result

    def x_Index(self, e: S.Index, env: Env):
        base = e.base
        if isinstance(base, S.Name):
            sig = self.d.refs.get(id(base))
            if isinstance(sig, Signal) and sig.is_array:
                i = self.ex(e.index, env)
                self.obligation(i, sig.size, env, e.index.span, f"index into `{S.written(sig.name)}`")
                return Read(self.state_read(sig), i, sig.ty)
        a = self.ex(base, env)
        i = self.ex(e.index, env)
        self.obligation(i, a.ty.width, env, e.index.span, "bit index")
        if isinstance(i, Const):  # constant here, perhaps only once a loop is unrolled
            return Slice(a, i.value, i.value, BOOL) if i.value < a.ty.width else FALSE
        return BitIdx(a, i)

    def obligation(self, i, limit: int, env: Env, span: S.Span, what: str) -> None:
        """Record that index `i` must be below `limit` wherever this code runs (`env.guard`)."""
        if isinstance(i, Const):
            if i.value >= limit:  # e.g. a loop variable out of range: fails wherever it is reached
                self.obligations.append(Prop("index", mk_implies(env.guard, FALSE), span, "", span, what, limit))
            return
        if limit >= (1 << i.ty.width):
            return  # every value of the index type is in range
        cond = Bin("<", Cast(i, uint(max(i.ty.width, bits_for(limit)))),
                   Const(limit, uint(max(i.ty.width, bits_for(limit)))), BOOL)
        self.obligations.append(Prop("index", mk_implies(env.guard, cond), span, "", span, what, limit))

    def x_Slice(self, e: S.Slice, env):
        a = self.ex(e.base, env)
        hi = self.d.const_values[id(e.hi)]
        lo = self.d.const_values[id(e.lo)]
        return Slice(a, hi, lo, self.ty(e))

    def x_Concat(self, e: S.Concat, env):
        return Cat(tuple(self.ex(p, env) for p in e.parts), self.ty(e))

    def x_Call(self, e: S.Call, env: Env):
        if e.func == "prev":
            return self.x_prev(e, env)
        if e.func in BUILTINS:
            a = self.ex(e.args[0], env)
            return Builtin(e.func, a, self.ty(e))
        info = self.d.fns[e.func]
        args = [self.ex(a, env) for a in e.args]
        local = {name: v for (name, _), v in zip(info.params, args)}
        fenv = Env(local, None, None, env.guard)
        for let in info.decl.lets:
            fenv.locals = dict(fenv.locals)
            fenv.locals[let.name] = self.ex(let.value, fenv)
        return self.ex(info.decl.body, fenv)

    def x_prev(self, e: S.Call, env: Env):
        """`prev(x)`: a history register that stores `x` at each edge. The index and divisor
        obligations inside `x` are about the previous cycle, so each is kept in a history
        register of its own and checked, under the guard around `prev`, where a property with
        `prev` is (`prev_valid`)."""
        outer, self.obligations = self.obligations, []
        inner = self.ex(e.args[0], Env(env.locals, env.own, env.pending, TRUE))
        inside, self.obligations = self.obligations, outer
        for p in inside:
            held = self.history(p.expr)
            self.obligations.append(replace(p, expr=mk_implies(mk_and(env.guard, self.prev_valid), held)))
        return self.history(inner)

    def history(self, x):
        name = f"{self.prefix}prev#{self.hist_count}"
        self.hist_count += 1
        self.state.append(StateVar(name, x.ty, None, None, True, "hist", x))
        return Var(name, x.ty)

    def x_InstPort(self, e: S.InstPort, env: Env):
        return self.read_signal(self.d.refs[id(e)], env)

    def x_Quant(self, e: S.Quant, env: Env):
        local = self.d.refs[id(e)]
        acc = TRUE if e.kind == "forall" else FALSE
        n = 1 << local.ty.width
        self.quants.ensure(self.quant_scale * n, e.span)  # this one, over all the enclosing instances
        self.quants.spend(n, e.span)
        self.quant_scale *= n
        for v in range(n):
            locals_ = dict(env.locals)
            locals_[e.var] = Const(v, local.ty)
            body = self.ex(e.body, Env(locals_, env.own, env.pending, env.guard))
            acc = mk_and(acc, body) if e.kind == "forall" else mk_or(acc, body)
        self.quant_scale //= n
        return acc

    # ---- statements --------------------------------------------------------------------
    def stmts(self, stmts, env: Env) -> Env:
        for st in stmts:
            env = self.stmt(st, env)
        return env

    def stmt(self, st, env: Env) -> Env:
        if isinstance(st, S.Let):
            v = self.ex(st.value, env)
            locals_ = dict(env.locals)
            locals_[st.name] = v
            return Env(locals_, env.own, env.pending, env.guard)
        if isinstance(st, S.Assign):
            return self.assign(st, env)
        if isinstance(st, S.NbAssign):
            return self.nb_assign(st, env)
        if isinstance(st, S.If):
            c = self.ex(st.cond, env)
            a = self.stmts(st.then, self.guarded(env, c))
            b = self.stmts(st.else_ or (), self.guarded(env, mk_not(c)))
            return self.merge(c, a, b, env, st.span)
        if isinstance(st, S.Match):
            subject = self.ex(st.subject, env)
            conds = [self.pattern_cond(a.patterns, subject) for a in st.arms]
            outs = []
            taken = FALSE
            for arm, c in zip(st.arms, conds):
                outs.append(self.stmts(arm.body, self.guarded(env, mk_and(mk_not(taken), c))))
                taken = mk_or(taken, c)
            if not outs:
                return env
            result = outs[-1]
            for c, o in zip(reversed(conds[:-1]), reversed(outs[:-1])):
                result = self.merge(c, o, result, env, st.span)
            return result
        if isinstance(st, S.For):
            local = self.d.refs[id(st)]
            start = self.d.const_values[id(st.start)]
            end = self.d.const_values[id(st.end)]
            for i in range(start, end):
                locals_ = dict(env.locals)
                locals_[st.var] = Const(i, local.ty)
                inner = self.stmts(st.body, Env(locals_, env.own, env.pending, env.guard))
                env = Env(env.locals, inner.own, inner.pending, env.guard)
            return env
        raise ElabError(f"unknown statement {type(st).__name__}")

    def merge(self, c, a: Env, b: Env, base: Env, span: S.Span) -> Env:
        # Copying every signal's value: cheap per signal (a thirty-second of an operation), but
        # thousands of ifs over thousands of registers add up.
        self.size.spend((len(base.own or ()) + len(base.pending or ())) // 32, span)
        own = pending = None
        if base.own is not None:
            own = {k: mk_ite(c, a.own[k], b.own[k]) for k in base.own}
        if base.pending is not None:
            pending = {k: mk_ite(c, a.pending[k], b.pending[k]) for k in base.pending}
        return Env(base.locals, own, pending, base.guard)

    def update_bits(self, old, st_target: S.LValue, value, env: Env, width: int):
        """`old` with bit `index` or slice [hi:lo] replaced by `value`."""
        if st_target.index is not None:
            i = self.ex(st_target.index, env)
            self.obligation(i, width, env, st_target.index.span, f"bit index into `{S.written(st_target.name)}`")
            if isinstance(i, Const):
                return self.splice(old, i.value, i.value, value) if i.value < width else old
            acc = old
            self.size.spend(width, st_target.span)
            for k in range(width):
                hit = Bin("==", Cast(i, uint(max(i.ty.width, bits_for(width)))),
                          Const(k, uint(max(i.ty.width, bits_for(width)))), BOOL)
                acc = Ite(hit, self.splice(acc, k, k, value), acc, old.ty)
            return acc
        hi = self.d.const_values[id(st_target.hi)]
        lo = self.d.const_values[id(st_target.lo)]
        return self.splice(old, hi, lo, value)

    def splice(self, old, hi: int, lo: int, value):
        w = old.ty.width
        parts = []
        if hi < w - 1:
            parts.append(Slice(old, w - 1, hi + 1, uint(w - 1 - hi)))
        parts.append(value)
        if lo > 0:
            parts.append(Slice(old, lo - 1, 0, uint(lo)))
        if len(parts) == 1:
            return Cast(value, old.ty) if value.ty != old.ty else value
        return Cast(Cat(tuple(parts), uint(w)), old.ty)

    def assign(self, st: S.Assign, env: Env) -> Env:
        lv = st.target
        value = self.ex(st.value, env)
        own = dict(env.own)
        if lv.index is None and lv.hi is None:
            own[lv.name] = value
        else:
            sig = self.d.signals[lv.name]
            old = own.get(lv.name)
            if old is None:
                raise ElabError(f"partial assignment to unassigned {lv.name}")
            own[lv.name] = self.update_bits(old, lv, value, env, sig.ty.width)
        return Env(env.locals, own, env.pending, env.guard)

    def nb_assign(self, st: S.NbAssign, env: Env) -> Env:
        lv = st.target
        sig = self.d.signals[lv.name]
        value = self.ex(st.value, env)
        pending = dict(env.pending)
        old = pending[lv.name]
        if sig.is_array:
            i = self.ex(lv.index, env)
            self.obligation(i, sig.size, env, lv.index.span, f"index into `{S.written(sig.name)}`")
            pending[lv.name] = Store(old, i, value, None, sig.size)
        elif lv.index is None and lv.hi is None:
            pending[lv.name] = value
        else:
            pending[lv.name] = self.update_bits(old, lv, value, env, sig.ty.width)
        return Env(env.locals, env.own, pending, env.guard)

    # ---- the whole design --------------------------------------------------------------
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

    def system(self) -> System:
        d, p = self.d, self.prefix
        inputs = [(p + s.name, s.ty) for s in d.signals.values() if s.is_input or s.kind == "inst_out"]
        free = {p + s.name for s in d.signals.values() if s.kind == "inst_out"}
        regs = [s for s in d.signals.values() if s.is_state and self.keeps(s)]
        for s in regs:
            self.state.append(StateVar(p + s.name, s.ty, s.size, s.init, s.ghost, s.kind))
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
            if sv.init is not None:
                init = ConstArr(sv.init, sv.ty, sv.size) if sv.size is not None else Const(sv.init, sv.ty)
                nxt = mk_ite(reset_active, init, nxt)
            else:
                nxt = mk_ite(reset_active, pending_default(sv), nxt)
            sv.next = nxt
        requires, props = [], []
        pv_needed = False
        for spec in d.specs():
            if not self.keeps(spec):
                continue
            uses_prev = mentions_prev(spec.expr)
            expr = self.ex(spec.expr, Env())
            if uses_prev:
                pv_needed = True
                expr = mk_implies(self.prev_valid, expr)
            prop = Prop(spec.kind, expr, spec.span, "", spec.expr.span)
            (requires if spec.kind == "requires" else props).append(prop)
        if self.hist_count or pv_needed:
            self.state.append(StateVar(p + "prev#valid", BOOL, None, 0, True, "pv", mk_not(reset_active)))
        props += self.obligations
        if self.divisions:
            requires.append(Prop("lemma", self.division_lemmas(), d.module.name_span, "",
                                 self.divisions[0][2].span))
        enum_inputs = [(n, t) for n, t in inputs if t.kind == "enum" and n not in free]
        for s in regs:  # registers nothing reads are still shown as reset
            self.state_read(s)
        system = System(d, inputs, self.state, comb, comb_ghost, requires, props, reset_active, enum_inputs,
                        dict(self.visible), free_outputs=free)
        system.enum_state = variant_registers(system)
        return system


def _ir_key(n) -> tuple:
    """A structural key of a small IR expression (variables and constants by name and value),
    to state one lemma per distinct division; other nodes by identity."""
    if isinstance(n, Var):
        return ("var", n.name)
    if isinstance(n, Const):
        return ("const", n.value, n.ty)
    return ("node", id(n))


def reset_condition(d: Design, prefix: str = ""):
    """The bool IR that says the reset is active in this cycle (FALSE without a reset)."""
    if d.reset is None:
        return FALSE
    rst = Var(prefix + d.reset, BOOL)
    return mk_not(rst) if d.reset_active_low else rst


def pending_default(sv: StateVar):
    return ArrVar(sv.name, sv.ty, sv.size) if sv.size is not None else Var(sv.name, sv.ty)


def mentions_prev(e) -> bool:
    if isinstance(e, S.Call) and e.func == "prev":
        return True
    for name in getattr(e, "__dataclass_fields__", {}):
        v = getattr(e, name)
        if isinstance(v, tuple):
            if any(mentions_prev(x) for x in v if hasattr(x, "__dataclass_fields__")):
                return True
        elif hasattr(v, "__dataclass_fields__") and not isinstance(v, (S.Span, S.TypeRef)):
            if mentions_prev(v):
                return True
    return False


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

    def valid_init(sv: StateVar) -> bool:
        return sv.init is not None and sv.init in codes[sv.ty.enum]

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


def source_snippet(lines: list[str], span: S.Span) -> str:
    """The source text under a span, on one line (whitespace runs folded)."""
    if not (1 <= span.line <= span.end_line <= len(lines)):
        return ""
    if span.line == span.end_line:
        text = lines[span.line - 1][span.column - 1: span.end_column - 1]
    else:
        parts = [lines[span.line - 1][span.column - 1:]]
        parts += lines[span.line: span.end_line - 1]
        parts.append(lines[span.end_line - 1][: span.end_column - 1])
        text = " ".join(parts)
    return " ".join(text.split())


def elaborate(d: Design, mode: str = "flat") -> System:
    """The transition system of a module. With instances, `mode` says what they are:
    "flat" (the default) their whole logic, inlined under their names (`u.count`): the module's
    real behaviour, what the evaluator and simulations run; "contract" their contracts only,
    as the proofs use them (`sysr.hier.contract`); "shallow" nothing (their outputs are free
    inputs), as a back end that keeps the hierarchy needs."""
    if not d.instances or mode == "shallow":
        return Elaborator(d).system()
    from .hier import flatten, with_contracts
    return flatten(d) if mode == "flat" else with_contracts(d)
