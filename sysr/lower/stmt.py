"""Statements of `comb` and `seq` blocks to the lowering's IR (`sysr.lower.ir`).

A `let` becomes a temporary (a module-level `reg`) assigned with a blocking `=`; `for` loops
are unrolled with the loop variable as a constant; `match` becomes `case` whose last arm is
the `default` (an exhaustive match needs no other value, and Verilog then sees no latch),
except in a comb block where every signal the arms assign already has a value from the
statements above the match (`nx = Idle; match st {...}`): there every arm keeps its labels and
an empty `default` keeps those values, so that a code no variant has, or an `x` state in
simulation before a reset, takes the value written first, as the Verilog idiom
`default: next = IDLE` does (upstream testbenches that release the reset at a clock edge rely
on it).
Assignments keep their source form: `=` in comb blocks, `<=` in seq blocks, with bit, slice
and element targets as Verilog selects.
"""

from __future__ import annotations

from dataclasses import replace

from ..front import syntax as S
from ..model import Design, Signal
from ..types import mask
from .expr import ATOM, Ctx, Exprs, V, const_v, index_text, literal, select_digits
from .ir import Arm, Assign, Case, Gen, Group, If, assignments


class Stmts:
    def __init__(self, design: Design, exprs: Exprs, gen: Gen) -> None:
        self.d = design
        self.x = exprs
        self.gen = gen
        self.written: frozenset[str] = frozenset()  # signals a comb block has assigned whole so far

    def block(self, stmts, ctx: Ctx) -> list:
        out: list = []
        outer = self.written
        for st in stmts:
            pre: list = []
            ir, ctx = self.stmt(st, replace(ctx, pre=pre))
            out += pre + ir
            if ctx.mode == "comb":
                self.written |= {a.lhs for a in pre + ir if isinstance(a, Assign) and a.kind == "reg"}
        self.written = outer
        return out

    def stmt(self, st, ctx: Ctx) -> tuple[list, Ctx]:
        if isinstance(st, S.Let):
            return self.let(st, ctx)
        if isinstance(st, (S.Assign, S.NbAssign)):
            return self.assign(st, ctx), ctx
        if isinstance(st, S.If):
            return self.if_(st, ctx), ctx
        if isinstance(st, S.Match):
            return self.match(st, ctx), ctx
        if isinstance(st, S.For):
            return self.for_(st, ctx), ctx
        raise TypeError(f"unknown statement {type(st).__name__}")

    def let(self, st: S.Let, ctx: Ctx) -> tuple[list, Ctx]:
        local = self.d.refs[id(st)]
        v = self.x(st.value, ctx)
        if v.value is not None and v.loopy:
            return [], ctx.bind(local, v)
        tok = self.gen.temp(st.name, local.ty.width)
        return [Assign(tok, v.rhs, "=", "temp", tok)], ctx.bind(local, V(tok, ATOM, v.width, local=True))

    def assign(self, st, ctx: Ctx) -> list:
        lv: S.LValue = st.target
        sig: Signal = self.d.refs[id(lv)]
        v = self.x(st.value, ctx)
        rhs, chain = v.rhs, v.chain
        op = "=" if isinstance(st, S.Assign) else "<="
        name = self.x.signal_name(sig.name)
        if sig.is_array:
            i = self.x(lv.index, ctx)
            self.x.index_used(i, sig.size, ctx, f"index into `{sig.name}`", lv.index.span)
            if self.x.is_ram(sig):
                lhs = self.x.element(sig, i, replace(ctx, mode="seq")).text
                return [Assign(lhs, rhs, op, "mem", chain=chain, signal=sig.name)]
            if i.value is None:
                return self.element_write(sig, i, v, op)
            lhs = self.x.element(sig, i, replace(ctx, mode="seq")).text
            return [Assign(lhs, rhs, op, "reg", chain=chain, signal=sig.name)]
        i = self.x(lv.index, ctx) if lv.index is not None else None
        if i is not None:
            self.x.index_used(i, sig.ty.width, ctx, f"bit index into `{sig.name}`", lv.index.span)
        if sig.ty.width == 1:  # a scalar: its only bit or slice is itself
            pass
        elif i is not None:
            name += f"[{index_text(i)}]"
        elif lv.hi is not None:
            name += select_digits(self.d.const_values[id(lv.hi)], self.d.const_values[id(lv.lo)])
        return [Assign(name, rhs, op, "reg", chain=chain, signal=sig.name)]

    def element_write(self, sig: Signal, i: V, v: V, op: str) -> list:
        """`a[i] <= v` with a dynamic `i` into a register array (a flat vector): a `case` on `i`
        with one constant part select an element, so that each element is a register of its own
        with its own enable (the value computed once, in a temporary unless it is a name or a
        constant). Yosys makes a dynamic part select `a[i * W +: W] <= v` a shifter across the
        whole vector instead, about three times the cells for four 32-bit elements."""
        name, w = self.x.signal_name(sig.name), sig.ty.width
        pre: list = []
        rhs = v.rhs
        if v.prec != ATOM:
            tok = self.gen.temp(f"{name}_d", w)
            pre.append(Assign(tok, v.rhs, "=", "temp", tok, chain=v.chain))
            rhs = tok
        arms = [Arm([literal(k, i.width)], [Assign(name + select_digits(k * w + w - 1, k * w), rhs, op, "reg",
                                                   signal=sig.name)])
                for k in range(min(sig.size, 1 << i.width))]
        return pre + [Case(i.text, arms, compact=True)]

    def if_(self, st: S.If, ctx: Ctx) -> list:
        c = self.x(st.cond, ctx)
        if c.value is not None:  # a constant condition: only one branch exists (Icarus would fold
            return self.block(st.then if c.value else (st.else_ or ()), ctx)  # the other away too)
        then = self.block(st.then, ctx)
        else_ = self.block(st.else_ or (), ctx)
        # `c.rhs` drops the braces of a signed `/`, `%`, `>>` (`top`): no longer atomic, so a
        # negated condition (an empty `then`) needs parentheses
        return [If(c.rhs, c.prec == ATOM and c.top is None, then, else_)]

    def match(self, st: S.Match, ctx: Ctx) -> list:
        s = self.x(st.subject, ctx)
        sty = self.x.ty(st.subject)
        arms = Exprs.live_arms(st.arms)
        if s.value is not None:  # a constant subject: only the arm it selects exists
            for arm in arms:
                if arm is arms[-1] or s.value in self.x.pattern_values(arm.patterns, sty):
                    return self.block(arm.body, ctx)
        last = arms[-1]
        if ctx.guard is not None and not any(isinstance(p, S.PatWild) for p in last.patterns) \
                and not self.x.loose_enum(sty):
            # the default arm is reached only by its own patterns (the same for any valid value;
            # an enum field of a struct may hold another, and reaches it too: `sysr.elab` says so)
            lctx = self.x.narrow(ctx, self.x.pattern_test(s, last.patterns, sty))
        else:
            lctx = ctx
        if len(arms) == 1:
            return self.block(arms[0].body, lctx)
        out = [Arm([self.x.pattern_label(p, sty) for p in arm.patterns], self.block(arm.body, ctx))
               for arm in arms[:-1]]
        named = [self.x.pattern_label(p, sty) for p in last.patterns if not isinstance(p, S.PatWild)]
        body = self.block(last.body, lctx)
        if ctx.mode == "comb" and len(named) == len(last.patterns) and self.preset(out + [Arm(None, body)]) \
                and not self.x.loose_enum(sty):  # (a struct's enum field may be no variant: the last arm takes it)
            return [Case(s.text, out + [Arm(named, body), Arm(None, [], "no variant: the values set above")])]
        out.append(Arm(None, body, ", ".join(named) or None))
        return [Case(s.text, out)]

    def preset(self, arms: list[Arm]) -> bool:
        """Whether every signal the arms assign was assigned whole above the match."""
        return all(a.kind == "temp" or a.lhs in self.written for arm in arms for a in assignments(arm.body))  # .text keeps a signed shift self-determined (`{... >>> n}`)

    def for_(self, st: S.For, ctx: Ctx) -> list:
        local = self.d.refs[id(st)]
        start, end = self.d.const_values[id(st.start)], self.d.const_values[id(st.end)]
        body: list = []
        for i in range(start, end):
            body += self.block(st.body, ctx.bind(local, const_v(i, local.ty, loopy=True)))
        return [Group(f"for {st.var} in {start}..{end}, unrolled", body)]

    # ---- comb blocks that read no signal ---------------------------------------------------
    def evaluate(self, stmts, ctx: Ctx) -> Ctx:
        """Run a comb block whose values are all constants: `ctx.known` ends up holding what it
        assigns. (An always @* block that reads no signal never runs in simulation, so such a
        block is lowered to continuous assignments of these constants.)"""
        for st in stmts:
            ctx = self.eval_stmt(st, ctx)
        return ctx

    def eval_stmt(self, st, ctx: Ctx) -> Ctx:
        if isinstance(st, S.Let):
            local = self.d.refs[id(st)]
            return ctx.bind(local, const_v(self.x(st.value, ctx).value, local.ty, loopy=True))
        if isinstance(st, S.Assign):
            return self.eval_assign(st, ctx)
        if isinstance(st, S.If):
            branch = st.then if self.x(st.cond, ctx).value else (st.else_ or ())
            return replace(ctx, known=self.evaluate(branch, ctx).known)
        if isinstance(st, S.Match):
            s = self.x(st.subject, ctx).value
            sty = self.x.ty(st.subject)
            arms = Exprs.live_arms(st.arms)
            arm = next((a for a in arms if s in self.x.pattern_values(a.patterns, sty)), arms[-1])
            return replace(ctx, known=self.evaluate(arm.body, ctx).known)
        if isinstance(st, S.For):
            local = self.d.refs[id(st)]
            for i in range(self.d.const_values[id(st.start)], self.d.const_values[id(st.end)]):
                inner = ctx.bind(local, const_v(i, local.ty, loopy=True))
                ctx = replace(ctx, known=self.evaluate(st.body, inner).known)
            return ctx
        raise TypeError(f"unknown statement {type(st).__name__}")

    def eval_assign(self, st: S.Assign, ctx: Ctx) -> Ctx:
        lv: S.LValue = st.target
        sig: Signal = self.d.refs[id(lv)]
        value = self.x(st.value, ctx).value
        if sig.ty.width > 1 and (lv.index is not None or lv.hi is not None):
            if lv.index is not None:
                hi = lo = self.x(lv.index, ctx).value
            else:
                hi, lo = self.d.const_values[id(lv.hi)], self.d.const_values[id(lv.lo)]
            bits = mask(hi - lo + 1) << lo
            value = (ctx.known[sig.name].value & ~bits) | ((value << lo) & bits)
        return replace(ctx, known={**ctx.known, sig.name: const_v(value, sig.ty, loopy=True)})
