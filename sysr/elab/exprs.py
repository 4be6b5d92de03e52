"""Elaboration of expressions: each syntax node to IR, with the index and divisor obligations it carries.

`ExprElaborator` is the expression half of `sysr.elab.module.Elaborator` (which sets up the
state it reads: the design `d`, the `prefix`, the budgets, the obligations found so far); `Env`
is what a statement or expression is elaborated in.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .. import limits, overrun
from ..front import syntax as S
from ..model import Local, Signal
from ..types import BOOL, BUILTINS, Ty, bits_for, uint
from .ir import (FALSE, TRUE, ArrVar, Bin, BitIdx, Builtin, Cast, Cat, Const, ConstArr, ElabError, Ite, Read,
                 Slice, Un, Var, _ir_key, mk_and, mk_implies, mk_ite, mk_not, mk_or)
from .system import Prop, StateVar


@dataclass
class Env:
    locals: dict[str, object] = field(default_factory=dict)
    own: dict[str, object] | None = None  # comb block: values assigned so far (None = not yet)
    pending: dict[str, object] | None = None  # seq block: next values assigned so far
    guard: object = TRUE



class ExprElaborator:
    """Expressions to IR: `ex(e, env)` dispatches on the node's class to `x_<class>`."""

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
            raise overrun.exceeded("L003", f"the design nests more than {limits.MAX_INLINED_NESTING} levels deep "
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
        if sig.kind == "clock":  # its level (§4.1: a clock read as a value has one)
            return self.clocking.level(self.nets[sig.name])
        got = self.inst_values.get(sig.name)
        return got if got is not None else Var(self.prefix + sig.name, sig.ty)

    def state_read(self, sig: Signal):
        """A register, register array or memory as logic and properties read it in a cycle: what
        it stored at the last edge, except that with an asynchronous reset a register (or
        register array) reads as its reset value while the reset is active. One node per signal,
        shared by every read."""
        name = self.prefix + sig.name
        stored = ArrVar(name, sig.ty, sig.size) if sig.is_array else Var(name, sig.ty)
        reset_active, is_async = self.reset_of(sig.name)
        if not is_async or sig.init is None:
            return stored
        if name not in self.visible:
            init = ConstArr(sig.init, sig.ty, sig.size) if sig.is_array else Const(sig.init, sig.ty)
            self.visible[name] = mk_ite(reset_active, init, stored)
        return self.visible[name]

    def x_Unary(self, e: S.Unary, env):
        a = self.ex(e.operand, env)
        op = "~" if e.op == "!" else e.op
        return Un(op, a, self.ty(e))

    def x_Binary(self, e: S.Binary, env: Env):
        a = self.ex(e.left, env)
        op = e.op
        if op in ("&&", "||", "==>"):
            if op == "==>":  # the condition of an implication, for the vacuity check of a spec
                self.antecedents[id(e)] = a
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

    def arm_guards(self, conds: list, subject) -> list:
        """Where each arm of a match runs: its patterns and none of the earlier arms'. The last
        arm is the default (its value is taken for a value no pattern names, as in Verilog),
        and runs for such a value too where one is possible: an enum value that may not be a
        variant, in a file whose structs have enum fields (a struct's field is bits, §2)."""
        guards, taken = [], FALSE
        for i, c in enumerate(conds):
            last = i == len(conds) - 1 and len(conds) > 1
            guards.append(mk_not(taken) if last and self.loose_enum(subject) else mk_and(mk_not(taken), c))
            taken = mk_or(taken, c)
        return guards

    def loose_enum(self, subject) -> bool:
        return subject.ty.kind == "enum" and any(
            t.kind == "enum" for s in self.d.structs.values() for _, t in s.ty.fields)

    def x_MatchExpr(self, e: S.MatchExpr, env: Env):
        subject = self.ex(e.subject, env)
        conds = [self.pattern_cond(a.patterns, subject) for a in e.arms]
        vals = []
        for arm, g in zip(e.arms, self.arm_guards(conds, subject)):
            vals.append(self.ex(arm.value, self.guarded(env, g)))
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

    x_Field = x_Slice  # `s.f`: the field's bits, typed as the field (§2)

    def x_StructLit(self, e: S.StructLit, env):
        """The fields in declaration order, the first most significant; those not set from the base."""
        ty = self.ty(e)
        given = {i.name: self.ex(i.value, env) for i in e.inits}
        base = self.ex(e.base, env) if e.base is not None else None
        parts = []
        for name, fty in ty.fields:
            if name in given:
                parts.append(given[name])
            else:
                hi, lo, _ = ty.field(name)
                parts.append(Slice(base, hi, lo, fty))
        return Cat(tuple(parts), ty)

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
        """`prev(x, n)`: a chain of n history registers, each storing the one before at each
        edge (the first stores `x`). The index and divisor obligations inside `x` are about the
        cycle n back, so each is kept in a chain of its own and checked, under the guard around
        `prev`, where a property that reads n cycles back is (`valid(n)`)."""
        n = S.prev_cycles(e, self.d.const_values)
        self.size.spend(n, e.span)  # a history register per cycle back, counted in the design's size (L007)
        outer, self.obligations = self.obligations, []
        inner = self.ex(e.args[0], Env(env.locals, env.own, env.pending, TRUE))
        inside, self.obligations = self.obligations, outer
        for p in inside:
            held = self.history(p.expr, n)
            self.obligations.append(replace(p, expr=mk_implies(mk_and(env.guard, self.valid(n)), held)))
        return self.history(inner, n)

    def history(self, x, n: int = 1):
        for _ in range(n):
            name = f"{self.prefix}prev#{self.hist_count}"
            self.hist_count += 1
            self.state.append(StateVar(name, x.ty, None, None, True, "hist", x))
            x = Var(name, x.ty)
        return x

    def valid(self, n: int):
        """Whether the n cycles before this one exist and had no reset (with an asynchronous
        reset, this one has none either): where a property that reads n cycles back is checked.
        `prev#valid` for one cycle, `prev#valid2`... for more (`Elaborator.validity_flags`)."""
        self.deepest = max(self.deepest, n)
        flag = Var(self.prefix + "prev#valid" + (str(n) if n > 1 else ""), BOOL)
        return mk_and(flag, mk_not(self.reset_active)) if self.d.reset_async else flag

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
