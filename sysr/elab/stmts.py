"""Elaboration of statements: `let`, `=`, `<=`, `if`, `match` and `for` over an `Env`.

A comb block's statements update the values of the signals it drives (`Env.own`), a seq block's
the next values of its registers (`Env.pending`), last write winning; the branches of an `if`
or `match` are merged with `Ite`. `StmtElaborator` is the statement half of
`sysr.elab.module.Elaborator`.
"""

from __future__ import annotations

from ..front import syntax as S
from ..types import BOOL, bits_for, uint
from .exprs import Env
from .ir import Bin, Cast, Cat, Const, ElabError, Ite, Slice, Store, mk_ite, mk_not


class StmtElaborator:
    """Statements to updated environments (see the module's docstring)."""

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
            outs = [self.stmts(arm.body, self.guarded(env, g))
                    for arm, g in zip(st.arms, self.arm_guards(conds, subject))]
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
