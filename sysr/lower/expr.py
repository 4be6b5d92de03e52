"""Expressions to Verilog text that means exactly what `sysr.types` says.

The discipline that makes widths and signedness exact:

- Every lowered expression is text whose *self-determined* width is the sysr width and which
  is *unsigned* in Verilog. Since sysr operands of an operator share one type and every
  assignment target has the value's width, Verilog's context width is always the sysr width,
  so `+ - * << ~` and unary `-` wrap exactly where sysr wraps.
- Signedness appears only where the result depends on it, and never leaks: signed comparisons
  are `$signed(a) < $signed(b)` (a 1-bit result), a signed `>>` is `{$signed(a) >>> n}` and a
  signed `/` or `%` is `{$signed(a) / $signed(b)}` (the braces make it self-determined, so that
  no unsigned operand around it turns it into an unsigned division, and unsigned again; a
  whole right-hand side drops them), and sign extension is a replication of the sign bit.
  Unsigned `/` and `%` need nothing: widening their operands does not change the result.
- Width changes are explicit: zero extension is `{8'd0, x}`; truncation and slices are part
  selects on a name (`x[3:0]`) or, on any other expression, a call of a small generated
  function (`bits9_7_0(a + b)`), since Verilog selects only from names.

fn calls are inlined; `for` loop variables are constants, and expressions built from them are
folded to literals with the reference operators.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..front import syntax as S
from ..model import Design, Local, Signal
from ..types import (BOOL, Ty, from_int, op_binary, op_builtin, op_cast, op_concat, op_slice,
                     op_unary)
from .builtins import Builtins
from .ir import Assign, Gen
from .names import Names
from .text import (ATOM, COND, EQ, LAND, MUL, PREC, REL, SHIFT, UNARY, V, _range, const_v, index_text, literal,
                   operand, select_digits, unary_operand)


@dataclass
class Ctx:
    """Where an expression is lowered."""
    mode: str  # "assign" (continuous), "comb" (an always @* block) or "seq" (a clocked block)
    env: dict[int, V] = field(default_factory=dict)  # id(Local) -> value: lets, loop variables
    params: dict[str, V] = field(default_factory=dict)  # a fn's parameters while inlining it
    block: frozenset[str] = frozenset()  # the signals the current comb block assigns
    pre: list | None = None  # statements to emit before the current one
    known: dict[str, V] | None = None  # constant values of signals (a comb block with no inputs)
    guard: V | None = None  # where the expression is evaluated (`--formal` index obligations); None: not tracked

    def bind(self, local: Local, v: V) -> "Ctx":
        return replace(self, env={**self.env, id(local): v})


class Exprs(Builtins):
    """Lowers expressions of one design."""

    def __init__(self, design: Design, names: Names, gen: Gen, flat: frozenset[str] = frozenset()) -> None:
        self.d = design
        self.names = names  # ("sig", n) / ("const", n) / ("variant", enum, v) -> Verilog name
        self.gen = gen
        self.flat = flat  # memories lowered as flat vectors, like register arrays

    def is_ram(self, sig: Signal) -> bool:
        """A memory lowered as a Verilog array (`reg [7:0] m [0:15]`)."""
        return sig.kind == "mem" and sig.name not in self.flat

    def ty(self, e) -> Ty:
        return self.d.types[id(e)]

    def __call__(self, e, ctx: Ctx) -> V:
        return getattr(self, "e_" + type(e).__name__)(e, ctx)

    # ---- leaves ----------------------------------------------------------------------
    def e_IntLit(self, e: S.IntLit, ctx: Ctx) -> V:
        ty = self.ty(e)
        value = from_int(e.value, ty.width)
        radix = "h" if e.text.startswith("0x") else "b" if e.text.startswith("0b") else "d"
        return V(literal(value, ty.width, radix), ATOM, ty.width, value)

    def e_BoolLit(self, e: S.BoolLit, ctx: Ctx) -> V:
        return V(literal(int(e.value), 1), ATOM, 1, int(e.value))

    def e_Path(self, e: S.Path, ctx: Ctx) -> V:
        info = self.d.enums[e.enum]
        return V(self.names[("variant", e.enum, e.variant)], ATOM, info.ty.width,
                 info.variants[e.variant])

    def e_Name(self, e: S.Name, ctx: Ctx) -> V:
        ref = self.d.refs[id(e)]
        if isinstance(ref, Local):
            return ctx.params[ref.name] if ref.kind == "param" else ctx.env[id(ref)]
        if isinstance(ref, str):
            ty, value = self.d.consts[ref]
            return V(self.names[("const", ref)], ATOM, ty.width, value)
        if ctx.known is not None:
            return ctx.known[ref.name]
        return V(self.signal_name(ref.name), ATOM, 1 if ref.ty is None else ref.ty.width, local=ref.name in ctx.block)

    def e_InstPort(self, e: S.InstPort, ctx: Ctx) -> V:
        sig = self.d.refs[id(e)]
        return V(self.signal_name(sig.name), ATOM, sig.ty.width)

    def signal_name(self, name: str) -> str:
        """The Verilog name a signal is read and written by."""
        return self.names[("sig", name)]

    def index_used(self, i: V, limit: int, ctx: Ctx, what: str, span) -> None:
        """A hook: index `i` must be below `limit` where `ctx` is evaluated (`--formal` asserts it)."""

    def divisor_used(self, d: V, ctx: Ctx, e: S.Binary) -> None:
        """A hook: the divisor `d` of `e` must not be zero where `ctx` is evaluated (`--formal`
        asserts it)."""

    def narrow(self, ctx: Ctx, cond: V, holds: bool = True) -> Ctx:
        """`ctx` for an operand evaluated only where `cond` holds (or, with holds=False, fails)."""
        if ctx.guard is None:
            return ctx
        if not holds:
            cond = V("1'b1", ATOM, 1, 1) if cond.value == 0 else V("!" + unary_operand(cond), UNARY, 1)
        if ctx.guard.value == 1 or cond.value == 0:
            return replace(ctx, guard=cond)
        return replace(ctx, guard=self.binop("&&", ctx.guard, cond, 1))

    # ---- operators -------------------------------------------------------------------
    def fold(self, ty: Ty, value: int | None, parts) -> V | None:
        """The constant, when the expression is built from a loop variable and is constant."""
        if value is not None and any(p.loopy for p in parts):
            return const_v(value, ty, loopy=True)
        return None

    @staticmethod
    def flags(parts) -> dict:
        return {"local": any(p.local for p in parts)}

    def binop(self, op: str, l: V, r: V, width: int, value: int | None = None) -> V:
        p = PREC[op]
        text = f"{operand(l, p)} {op} {operand(r, p, right=True)}"
        return V(text, p, width, value, **self.flags((l, r)))

    def e_Unary(self, e: S.Unary, ctx: Ctx) -> V:
        a = self(e.operand, ctx)
        ty = self.ty(e)
        value = op_unary(e.op, a.value, ty) if a.value is not None else None
        folded = self.fold(ty, value, [a])
        if folded:
            return folded
        return V(e.op + unary_operand(a), UNARY, ty.width, value, **self.flags([a]))

    def e_Binary(self, e: S.Binary, ctx: Ctx) -> V:
        l = self(e.left, ctx)
        r = self(e.right, self.narrow(ctx, l, e.op != "||") if e.op in ("&&", "||", "==>") else ctx)
        lt, ty = self.ty(e.left), self.ty(e)
        if e.op in ("/", "%"):
            self.divisor_used(r, ctx, e)
        value = None
        if l.value is not None and r.value is not None:
            value = op_binary(e.op, l.value, r.value, lt, self.ty(e.right))
        folded = self.fold(ty, value, [l, r])
        if folded:
            return folded
        op, flags = e.op, self.flags((l, r))
        if op in ("&&", "||", "==>") and l.loopy and l.value is not None:
            # a left side built from a loop (or quantified) variable decides or drops out
            decides = l.value == (1 if op == "||" else 0)
            return const_v(int(op != "&&"), BOOL, loopy=True) if decides else r
        if op == "==>":
            return self.binop("||", V("!" + unary_operand(l), UNARY, 1), r, 1, value)
        if op in ("<<", ">>") and r.value is not None and r.value >= ty.width:
            # a constant shift by the width or more: fold it here, as Icarus would (an always @*
            # block must not keep a read that the simulator folds away, or it never runs)
            if op == ">>" and lt.signed:
                return l if ty.width == 1 else self.sign_fill(l, ty, value, flags)
            return const_v(0, ty, l.loopy)
        if op in ("<<", ">>"):
            amount = index_text(r) if r.value is not None else operand(r, SHIFT, right=True)
            if r.value is None and "[" in amount and not amount.startswith("{"):
                amount = "{" + amount + "}"  # Icarus 11 miscompiles `x >> mem[i]` in an assign
            if op == ">>" and lt.signed:
                inner = f"$signed({l.text}) >>> {amount}"
                return V("{" + inner + "}", ATOM, ty.width, value, top=(inner, SHIFT), **flags)
            return V(f"{operand(l, SHIFT)} {op} {amount}", SHIFT, ty.width, value, **flags)
        if op in ("/", "%") and lt.signed:  # braced: self-determined, so nothing around it
            inner = f"$signed({l.text}) {op} $signed({r.text})"  # can make it unsigned
            return V("{" + inner + "}", ATOM, ty.width, value, top=(inner, MUL), **flags)
        if op in ("<", "<=", ">", ">=") and lt.signed:
            text = f"$signed({l.text}) {op} $signed({r.text})"
            return V(text, REL, 1, value, **flags)
        return self.binop(op, l, r, ty.width, value)

    def sign_fill(self, l: V, ty, value: int | None, flags) -> V:
        """Every bit a copy of the sign bit: `{$signed(l) >>> (w - 1)}`."""
        inner = f"$signed({l.text}) >>> {ty.width - 1}"
        return V("{" + inner + "}", ATOM, ty.width, value, top=(inner, SHIFT), **flags)

    def e_Cast(self, e: S.Cast, ctx: Ctx) -> V:
        a = self(e.operand, ctx)
        src, dst = self.ty(e.operand), self.ty(e)
        value = op_cast(a.value, src, dst) if a.value is not None else None
        if value is not None:
            return const_v(value, dst, a.loopy)
        flags = self.flags([a])
        if dst.width == src.width:
            return a
        if dst.width < src.width:
            return self.select(a, dst.width - 1, 0, None)
        ext = dst.width - src.width
        if not src.signed:
            return V(f"{{{literal(0, ext)}, {a.text}}}", ATOM, dst.width, **flags)
        if src.width == 1:
            return V(f"{{{dst.width}{{{a.text}}}}}", ATOM, dst.width, **flags)
        if a.base:
            sign = f"{a.base[0]}[{a.base[1] + src.width - 1}]"
            return V(f"{{{{{ext}{{{sign}}}}}, {a.text}}}", ATOM, dst.width, **flags)
        return self.call_helper(self.sext_helper(src.width, dst.width), [a], dst.width, None)

    def e_IfExpr(self, e: S.IfExpr, ctx: Ctx) -> V:
        c = self(e.cond, ctx)
        if c.value is not None:  # a constant condition: emit only the branch taken
            return self(e.then if c.value else e.else_, ctx)
        t, f = self(e.then, self.narrow(ctx, c)), self(e.else_, self.narrow(ctx, c, False))
        return self.mux(c, t, f, self.ty(e).width)

    def mux(self, c: V, t: V, f: V, width: int) -> V:
        if c.value is not None:  # a constant condition: only the branch taken (Icarus folds it too)
            return t if c.value else f
        value = None
        ct = c.text if c.prec > LAND else f"({c.text})"
        tt = t.text if t.prec > COND else f"({t.text})"
        ft = f.text if f.prec >= COND else f"({f.text})"
        chain = ((((ct, tt),) + f.chain[0], f.chain[1]) if f.chain else (((ct, tt),), ft))
        return V(f"{ct} ? {tt} : {ft}", COND, width, value, chain=chain, **self.flags((c, t, f)))

    def e_MatchExpr(self, e: S.MatchExpr, ctx: Ctx) -> V:
        s = self(e.subject, ctx)
        sty = self.ty(e.subject)
        arms = self.live_arms(e.arms)
        if s.value is not None and s.loopy:
            for arm in arms:
                if arm is arms[-1] or s.value in self.pattern_values(arm.patterns, sty):
                    return self(arm.value, ctx)
        ctxs = self.arm_contexts(ctx, s, arms, sty)
        result = self(arms[-1].value, ctxs[-1])
        for arm, actx in zip(reversed(arms[:-1]), reversed(ctxs[:-1])):
            cond = self.pattern_test(s, arm.patterns, sty)
            result = self.mux(cond, self(arm.value, actx), result, result.width)
        return result

    def arm_contexts(self, ctx: Ctx, s: V, arms, sty: Ty) -> list[Ctx]:
        """The context of each arm: reached when its patterns match and no earlier arm's did."""
        if ctx.guard is None:
            return [ctx] * len(arms)
        out, taken = [], None
        for i, arm in enumerate(arms):
            wild = any(isinstance(p, S.PatWild) for p in arm.patterns) or (
                i == len(arms) - 1 and i > 0 and self.loose_enum(sty))  # the default reached by non-variants too
            c = V("1'b1", ATOM, 1, 1) if wild else self.pattern_test(s, arm.patterns, sty)
            out.append(self.narrow(self.narrow(ctx, taken, False), c) if taken else self.narrow(ctx, c))
            taken = c if taken is None else self.binop("||", taken, c, 1)
        return out

    @staticmethod
    def live_arms(arms):
        """The arms up to the first wildcard; the last one is the default."""
        out = []
        for arm in arms:
            out.append(arm)
            if any(isinstance(p, S.PatWild) for p in arm.patterns):
                break
        return out

    def pattern_values(self, pats, sty: Ty) -> list[int]:
        out = []
        for p in pats:
            if isinstance(p, S.PatInt):
                out.append(from_int(p.lit.value, sty.width))
            elif isinstance(p, S.PatBool):
                out.append(int(p.value))
            elif isinstance(p, S.PatVariant):
                out.append(self.d.enums[p.path.enum].variants[p.path.variant])
        return out

    def pattern_label(self, p, sty: Ty) -> str:
        if isinstance(p, S.PatVariant):
            return self.names[("variant", p.path.enum, p.path.variant)]
        return literal(self.pattern_values([p], sty)[0], sty.width)

    def pattern_test(self, s: V, pats, sty: Ty) -> V:
        """`s == P1 || s == P2`, with its value when `s` is constant."""
        out = None
        for p in pats:
            (v,) = self.pattern_values([p], sty)
            eq = self.binop("==", s, V(self.pattern_label(p, sty), ATOM, sty.width), 1,
                            None if s.value is None else int(s.value == v))
            out = eq if out is None else self.binop(
                "||", out, eq, 1, None if s.value is None else out.value | eq.value)
        return out

    # ---- selects -----------------------------------------------------------------------
    def select(self, a: V, hi: int, lo: int, value: int | None) -> V:
        """Bits hi..lo of `a`: a part select of a name, else a helper call."""
        if hi == a.width - 1 and lo == 0:
            return a
        if a.base:
            name, off = a.base
            return V(name + select_digits(off + hi, off + lo), ATOM, hi - lo + 1, value,
                     **self.flags([a]))
        return self.call_helper(self.bits_helper(a.width, hi, lo), [a], hi - lo + 1, value)

    def e_Slice(self, e: S.Slice, ctx: Ctx) -> V:
        a = self(e.base, ctx)
        hi, lo = self.d.const_values[id(e.hi)], self.d.const_values[id(e.lo)]
        if a.value is not None:
            return const_v(op_slice(a.value, hi, lo), self.ty(e), a.loopy)
        return self.select(a, hi, lo, None)

    def e_Index(self, e: S.Index, ctx: Ctx) -> V:
        ref = self.d.refs.get(id(e.base)) if isinstance(e.base, S.Name) else None
        if isinstance(ref, Signal) and ref.is_array:
            i = self(e.index, ctx)
            self.index_used(i, ref.size, ctx, f"index into `{ref.name}`", e.index.span)
            return self.element(ref, i, ctx)
        a, i = self(e.base, ctx), self(e.index, ctx)
        self.index_used(i, a.width, ctx, "bit index", e.index.span)
        if a.value is not None and i.value is not None:
            return const_v((a.value >> i.value) & 1, self.ty(e), a.loopy or i.loopy)
        if i.value is not None or a.width == 1:  # a dynamic index into one bit can only be 0
            return self.select(a, i.value or 0, i.value or 0, None)
        if a.base:
            name, off = a.base
            at = index_text(i) if not off else f"{off} + {index_text(i)}"
            return V(f"{name}[{at}]", ATOM, 1, local=a.local or i.local)
        return self.call_helper(self.bit_helper(a.width, i.width), [a, i], 1, None)

    def element(self, sig: Signal, i: V, ctx: Ctx) -> V:
        """An element of a memory (a Verilog array) or a register array (a flat vector)."""
        name, w = self.signal_name(sig.name), sig.ty.width
        if not self.is_ram(sig):
            if i.value is not None:
                text = name + select_digits(i.value * w + w - 1, i.value * w)
                return V(text, ATOM, w, at=(name, i.value * w))
            if w == 1:
                text = f"{name}[{index_text(i)}]"
            else:
                text = f"{name}[{index_text(i)} * {w} +: {w}]"
            return V(text, ATOM, w, local=i.local)
        text = f"{name}[{index_text(i)}]"
        if ctx.mode != "comb":
            return V(text, ATOM, w, local=i.local)
        return self.hoisted_read(sig, name, i, ctx)

    def hoisted_read(self, sig: Signal, name: str, i: V, ctx: Ctx) -> V:
        """A memory read in an always @* block, moved out to a wire.

        Icarus warns when an always @* block reads an array word (it becomes sensitive to the
        whole array). A continuous wire reads it instead; when the address depends on what the
        block computed, the block first stores the address in a temporary.
        """
        w = sig.ty.width
        if not i.local:
            return V(self.gen.wire(f"{name}_rd", w, f"{name}[{index_text(i)}]"), ATOM, w)
        addr = self.gen.temp(f"{name}_addr", i.width)
        ctx.pre.append(Assign(addr, i.rhs, "=", "temp", addr))
        return V(self.gen.wire(f"{name}_rd", w, f"{name}[{addr}]"), ATOM, w, local=True)

    e_Field = e_Slice  # `s.f`: a part select of the struct's vector (§2)

    def loose_enum(self, ty: Ty) -> bool:
        """Whether a value of type `ty` may be an enum's non-variant: an enum where the file's
        structs have enum fields (as `sysr.elab`'s `arm_guards` says)."""
        return ty.kind == "enum" and any(t.kind == "enum" for s in self.d.structs.values() for _, t in s.ty.fields)

    def e_StructLit(self, e: S.StructLit, ctx: Ctx) -> V:
        """A concatenation of the fields, the first most significant; the fields not set are one
        part select of the base per run of adjacent ones."""
        ty = self.ty(e)
        given = {i.name: i.value for i in e.inits}
        base = self(e.base, ctx) if e.base is not None else None
        parts: list[V] = []
        run: list[int] | None = None  # [hi, lo] of the base's bits being gathered
        for name, _ in ty.fields:
            hi, lo, _ = ty.field(name)
            if name not in given:
                run = [run[0] if run else hi, lo]
                continue
            if run:
                parts.append(self.select(base, run[0], run[1], _bits(base.value, run)))
                run = None
            parts.append(self(given[name], ctx))
        if run:
            parts.append(self.select(base, run[0], run[1], _bits(base.value, run)))
        return self.concat(parts, ty)

    def e_Concat(self, e: S.Concat, ctx: Ctx) -> V:
        return self.concat([self(p, ctx) for p in e.parts], self.ty(e))

    def concat(self, parts: list[V], ty: Ty) -> V:
        if len(parts) == 1:
            return parts[0]
        value = None
        if all(p.value is not None for p in parts):
            value = op_concat([(p.value, p.width) for p in parts])
        folded = self.fold(ty, value, parts)
        if folded:
            return folded
        text = "{" + ", ".join(p.text for p in parts) + "}"
        return V(text, ATOM, sum(p.width for p in parts), value, **self.flags(parts))

    # ---- calls -------------------------------------------------------------------------
    def e_Call(self, e: S.Call, ctx: Ctx) -> V:
        if e.func in self.d.fns:
            return self.inline(e, ctx)
        a = self(e.args[0], ctx)
        ty, aty = self.ty(e), self.ty(e.args[0])
        value = op_builtin(e.func, a.value, aty) if a.value is not None else None
        folded = self.fold(ty, value, [a])
        if folded:
            return folded
        return getattr(self, "b_" + e.func)(a, value)

    def inline(self, e: S.Call, ctx: Ctx) -> V:
        info = self.d.fns[e.func]
        uses = _param_uses(info.decl)
        params = {}
        for (name, _), arg in zip(info.params, e.args):
            v = self(arg, ctx)
            params[name] = self.name_value(f"{e.func}_{name}", v, ctx) if uses.get(name, 0) > 1 else v
        inner = replace(ctx, env={}, params=params)
        for let in info.decl.lets:
            v = self(let.value, inner)
            base = let.name.split("#")[0]  # an unrolled fn's `let`s are `x#3` (sysr.front.check.fnbody)
            inner = inner.bind(self.d.refs[id(let)], self.name_value(f"{e.func}_{base}", v, ctx))
        return self(info.decl.body, inner)

    def name_value(self, base: str, v: V, ctx: Ctx) -> V:
        """A value an inlined fn reads by name (a `let`, a parameter used twice): a temporary
        assigned before the statement in a block, a wire in a continuous assignment; a name or
        a constant stays as it is."""
        if v.value is not None or v.ident:
            return v
        if ctx.pre is not None:
            tok = self.gen.temp(base, v.width)
            ctx.pre.append(Assign(tok, v.rhs, "=", "temp", tok))
            return V(tok, ATOM, v.width, local=True)
        if ctx.mode == "assign":
            return V(self.gen.wire(base, v.width, v.rhs), ATOM, v.width)
        return v

def _bits(value: int | None, run: list[int]) -> int | None:
    return None if value is None else op_slice(value, run[0], run[1])


def syntax_nodes(node):
    """Every syntax node in `node` (a node or a tuple of them), depth first."""
    if isinstance(node, tuple):
        for x in node:
            yield from syntax_nodes(x)
    elif hasattr(node, "__dataclass_fields__") and not isinstance(node, (S.Span, S.TypeRef)):
        yield node
        for name in node.__dataclass_fields__:
            yield from syntax_nodes(getattr(node, name))


def _param_uses(f: S.FnDecl) -> dict[str, int]:
    """How often each name is read in a fn (parameters are the names not bound by its lets)."""
    counts: dict[str, int] = {}
    for node in syntax_nodes((f.lets, f.body)):
        if isinstance(node, S.Name):
            counts[node.name] = counts.get(node.name, 0) + 1
    return counts
