"""Expressions of the random design generator (tests/gen_designs.py): names, types, literals,
and type-directed expressions.

`ExprGen.expr(ty, depth, scope)` returns source text of type `ty`, choosing among the
productions that can make it (`p_*`: every operator, casts, slices (and indexed part-selects), bit indexes in range or
guarded, concatenation, if and match expressions, builtins, fn calls, guarded division,
quantifiers and `prev` in properties); each production knows which of its operands must
carry a type of their own and which may be a bare literal that takes its type from context.
Statements, declarations and modules build on it in `DesignGen` (tests/gen_designs.py).
"""

from __future__ import annotations

import random

from dataclasses import replace

from gen_base import LOWERING_NAMES, SYSR_WORDS, VERILOG_WORDS, WIDTHS, Chooser, Scope, Val, split_width
from sysr.types import BOOL, Ty, sint, to_signed, uint


class ExprGen:
    """Names, types, literals and expressions (the part of `DesignGen` that writes no statement)."""

    def __init__(self, ch: Chooser, module: str = "dut", depth: int = 3,
                 comb_mem_reads: bool = True, structs: bool = False, clocks: bool = True,
                 resets: bool = True) -> None:
        self.ch = ch
        self.clocks = clocks  # some designs get several clocks or edges (tests/gen_clocks.py)
        self.resets = resets  # ... and some of those a reset per domain (not for Amaranth: one reset)
        self.module_name = module
        self.depth = depth
        self.comb_mem_reads = comb_mem_reads
        self.counter = 0
        self.enums: list[tuple[Ty, list[tuple[str, int]]]] = []
        self.with_structs = structs  # packed structs: declared, in ports, state, fns (opt-in: other seeds keep their designs)
        self.structs: list[Ty] = []
        self.words = list(VERILOG_WORDS)
        self.traps = list(LOWERING_NAMES)
        self.keywords = list(SYSR_WORDS)

    # ---- names and types ---------------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def signal_name(self, prefix: str) -> str:
        """A fresh name; now and then a Verilog keyword or a name the lowering might make up
        (each used once)."""
        if self.words and self.ch.chance(0.06):
            return self.words.pop(self.ch.int(0, len(self.words) - 1))
        if self.traps and self.ch.chance(0.03):
            return self.traps.pop(self.ch.int(0, len(self.traps) - 1))
        if self.keywords and self.ch.chance(0.05):
            return self.keywords.pop(self.ch.int(0, len(self.keywords) - 1))
        return self.fresh(prefix)

    def width(self, wide: bool = False) -> int:
        if wide and self.ch.chance(0.05):
            return self.ch.int(65, 128)
        if self.ch.chance(0.7):
            return self.ch.pick(WIDTHS)
        return self.ch.int(1, 64)

    def int_type(self, wide: bool = False, signed: bool | None = None) -> Ty:
        return self.int_type_of(self.width(wide), signed)

    def int_type_of(self, w: int, signed: bool | None = None) -> Ty:
        s = self.ch.chance(0.4) if signed is None else signed
        return sint(w) if s else uint(w)

    def any_type(self, wide: bool = True, enum: bool = True) -> Ty:
        kind = self.ch.int(0, 9)
        if kind <= 1:
            return BOOL
        if kind == 2 and enum and self.enums:
            return self.ch.pick(self.enums)[0]
        if self.structs and self.ch.chance(0.3):
            return self.ch.pick(self.structs)
        return self.int_type(wide)

    def type_name(self, ty: Ty) -> str:
        if ty == BOOL and self.ch.chance(0.2):
            return "u1"
        return str(ty)

    def enum_info(self, ty: Ty) -> list[tuple[str, int]]:
        return next(vs for t, vs in self.enums if t == ty)

    # ---- literals ------------------------------------------------------------------------
    def literal(self, ty: Ty, own: bool) -> str:
        if ty.kind == "struct":
            fields = ", ".join(f"{n}: {self.literal(t, False)}" for n, t in ty.fields)
            return f"{ty.enum} {{ {fields} }}"
        if ty.kind == "enum":
            return f"{ty.enum}::{self.ch.pick(self.enum_info(ty))[0]}"
        if ty == BOOL and (not own or self.ch.chance(0.8)):
            return self.ch.pick(["false", "true"])
        return self.int_literal(self.ch.bits(ty.width), ty, own)

    def int_literal(self, v: int, ty: Ty, own: bool) -> str:
        suffix = (f"s{ty.width}" if ty.signed else f"u{ty.width}") if own else ""
        form = self.ch.int(0, 3)
        if form == 2:
            return f"0x{v:x}{suffix}"
        if form == 3 and ty.width <= 16:
            return f"0b{v:b}{suffix}"
        n = to_signed(v, ty.width) if ty.signed else v
        text = str(abs(n))
        if len(text) > 4 and self.ch.chance(0.3):
            text = f"{int(text[:-3])}_{text[-3:]}"
        return f"(-{text}{suffix})" if n < 0 else text + suffix

    def pattern_literal(self, v: int, ty: Ty) -> str:
        """A match pattern for bit pattern v (no minus sign in patterns: hex for negative values)."""
        if ty.signed and v >> (ty.width - 1):
            return f"0x{v:x}"
        return self.ch.pick([str(v), f"0x{v:x}"])

    # ---- expressions ---------------------------------------------------------------------
    def expr(self, ty: Ty, d: int, sc: Scope, own: bool = False) -> str:
        """Text of type `ty`; with `own`, text that has a type of its own (no bare literal)."""
        if d <= 0:
            return self.leaf(ty, sc, own)
        options = self.productions(ty, sc)
        return self.ch.weighted(options)(ty, d - 1, sc, own)

    def productions(self, ty: Ty, sc: Scope):
        opts = [(6, self.p_leaf), (2, self.p_ite)]
        if sc.match:
            opts.append((1, self.p_match))
        if any(f.ret == ty for f in sc.fns):
            opts.append((2, self.p_call))
        if sc.spec and not sc.in_prev:
            opts.append((1, self.p_prev))
        fields = [(s, n) for s in self.structs for n, t in s.fields if t == ty]
        if fields:
            opts.append((3, lambda *a: self.p_field(ch_fields=fields, *a)))
        if ty.kind == "struct":
            return opts + [(3, self.p_struct_lit), (3, self.p_struct_update), (1, self.p_struct_cast)]
        if ty.kind == "enum":
            return opts
        opts += [(3, self.p_cast), (5, self.p_arith), (2, self.p_unary), (3, self.p_shift), (2, self.p_divide)]
        if any(a.ty == ty for a in sc.arrays):
            opts.append((3, self.p_array))
        if ty.kind == "uint":
            opts += [(2, self.p_slice), (2, self.p_concat)]
            if ty.width <= 7:
                opts.append((1, self.p_popcount))
        if ty == BOOL:
            opts += [(6, self.p_compare), (3, self.p_logic), (2, self.p_reduce), (4, self.p_bit),
                     (1, self.p_guarded_quotient)]
            if sc.spec:
                opts.append((1, self.p_quant))
        return opts

    def leaf(self, ty: Ty, sc: Scope, own: bool) -> str:
        """A name of type ty, a cast of another name, or a literal."""
        names = sc.of_type(ty)
        if names and self.ch.chance(0.7):
            return self.ch.pick(names).name
        others = [v for v in sc.vals if not v.const]
        if not ty.is_named and others and self.ch.chance(0.6):
            v = self.ch.pick(others)
            name = "u1" if ty == BOOL and v.ty.width > 1 else self.type_name(ty)
            return f"({v.name} as {name})"
        return self.literal(ty, own)

    def p_leaf(self, ty, d, sc, own):
        return self.leaf(ty, sc, own)

    def atom(self, ty: Ty, d: int, sc: Scope) -> str:
        """An own-typed operand for postfix `[...]`: a name or a parenthesized expression."""
        text = self.expr(ty, d, sc, own=True)
        return text if text.isidentifier() or text.startswith("(") else f"({text})"

    def p_ite(self, ty, d, sc, own):
        c = self.expr(BOOL, d, sc)
        side = self.ch.int(0, 1)
        a = self.expr(ty, d, sc, own and side == 0)
        b = self.expr(ty, d, sc, own and side == 1)
        return f"(if {c} then {a} else {b})"

    def p_match(self, ty, d, sc, own):
        sty = self.subject_type()
        subject = self.expr(sty, d, sc, own=True)
        arms = self.arm_patterns(sty)
        owner = self.ch.int(0, len(arms) - 1)
        values = [self.expr(ty, d, sc, own and i == owner) for i in range(len(arms))]
        body = ", ".join(f"{p} => {v}" for p, v in zip(arms, values))
        return f"(match {subject} {{ {body} }})"

    def p_call(self, ty, d, sc, own):
        f = self.ch.pick([f for f in sc.fns if f.ret == ty])
        args = ", ".join(self.expr(pt, d, sc) for _, pt in f.params)
        return f"{f.name}({args})"

    def p_prev(self, ty, d, sc, own):
        inner = self.expr(ty, d, replace(sc, in_prev=True), own)
        n = self.ch.pick((1, 1, 2, 3))  # `prev(e, n)`: a chain of n history registers
        return f"prev({inner})" if n == 1 else f"prev({inner}, {n})"

    # ---- structs ---------------------------------------------------------------------------
    def p_field(self, ty, d, sc, own, ch_fields=()):
        """`s.f`: a field of type `ty` of some struct expression."""
        sty, name = self.ch.pick(ch_fields)
        return f"{self.atom(sty, d, sc)}.{name}"

    def p_struct_lit(self, ty, d, sc, own):
        fields = self.ch.shuffle(list(ty.fields))  # any order: the declaration's decides the layout
        return f"{ty.enum} {{ " + ", ".join(f"{n}: {self.expr(t, d, sc)}" for n, t in fields) + " }"

    def p_struct_update(self, ty, d, sc, own):
        """`S { f: e, ..base }`: some fields set, the others from a struct expression."""
        names = [n for n, _ in ty.fields]
        given = self.ch.shuffle(names)[: self.ch.int(1, len(names))]
        parts = [f"{n}: {self.expr(dict(ty.fields)[n], d, sc)}" for n in given]
        return f"{ty.enum} {{ {', '.join(parts)}, ..{self.expr(ty, d, sc, own=True)} }}"

    def p_struct_cast(self, ty, d, sc, own):
        return f"({self.expr(uint(ty.width), d, sc, own=True)} as {ty.enum})"

    def struct_decl(self) -> str:
        """A struct of 1-4 fields (bool, integers, the enum, an earlier struct), at most 200 bits."""
        name = self.fresh("St")
        fields, width = [], 0
        for i in range(self.ch.int(1, 4)):
            fty = self.any_type(wide=False)
            if width + fty.width > 200:
                break
            fields.append((f"f{i}", fty))
            width += fty.width
        if not fields:
            fields, width = [("f0", BOOL)], 1
        self.structs.append(Ty("struct", width, name, tuple(fields)))
        return f"struct {name} {{ " + ", ".join(f"{n}: {self.type_name(t)}" for n, t in fields) + " }"

    def p_cast(self, ty, d, sc, own):
        src = self.any_type()
        a = self.expr(src, d, sc, own=True)
        name = "u1" if ty == BOOL and src.width > 1 else self.type_name(ty)
        return f"({a} as {name})"

    def p_arith(self, ty, d, sc, own):
        op = self.ch.pick(["+", "-", "*", "&", "|", "^"])
        side = self.ch.int(0, 1)
        a = self.expr(ty, d, sc, own and side == 0)
        b = self.expr(ty, d, sc, own and side == 1)
        return f"({a} {op} {b})"

    def p_divide(self, ty, d, sc, own):
        """`n / d` or `n % d` whose divisor is never zero where it is evaluated."""
        op = self.ch.pick(["/", "%"])
        guard = self.divisor_signal(ty, sc)
        if guard is not None and self.ch.chance(0.6):
            n = self.expr(ty, d, sc)
            other = self.expr(ty, d, sc, own)
            return f"(if ({guard} != 0) then ({n} {op} {guard}) else {other})"
        n = self.expr(ty, d, sc, own)
        return f"({n} {op} ({self.expr(ty, d, sc, own=True)} | 0x1))"  # 0x1: also an s1

    def divisor_signal(self, ty: Ty, sc: Scope) -> str | None:
        """A value of type `ty` read from a signal or loop variable (never a constant, whose zero
        would be a static error even under a guard), or None."""
        src = [v for v in sc.vals if v.ty.kind != "enum" and not v.const]
        if not src:
            return None
        v = self.ch.pick(src)
        if v.ty == ty:
            return v.name
        return f"({v.name} as {'u1' if ty == BOOL and v.ty.width > 1 else self.type_name(ty)})"

    def p_unary(self, ty, d, sc, own):
        op = self.ch.pick(["-", "~"])
        a = self.expr(ty, d, sc, own)
        if a[0].isdigit():  # `-5` would be a negative literal, not a negation: complement it
            a = f"(~{a})"
        return f"({op}{a})"

    def p_shift(self, ty, d, sc, own):
        op = self.ch.pick(["<<", ">>"])
        a = self.expr(ty, d, sc, own)
        if self.ch.chance(0.5):
            amount = str(self.ch.int(0, ty.width + 3))
        else:
            amount = self.expr(uint(self.ch.pick([1, 2, 3, 4, 5, 6, 7, 8, 16, 33, 64])), d, sc, own=True)
        return f"({a} {op} {amount})"

    def p_array(self, ty, d, sc, own):
        arr = self.ch.pick([a for a in sc.arrays if a.ty == ty])
        index = self.index(arr.size, d, sc)
        if index is None:
            return self.guarded_read(arr.name, arr.size, self.literal(ty, own), sc)
        return f"{arr.name}[{index}]"

    def p_slice(self, ty, d, sc, own):
        src = self.int_type(wide=True)
        if src.width < ty.width:
            src = Ty(src.kind, ty.width + self.ch.int(0, 8))
        lo = self.ch.int(0, src.width - ty.width)
        part = self.part_select(src, ty, lo, sc)
        return f"{self.atom(src, d, sc)}[{part or f'{lo + ty.width - 1}:{lo}'}]"

    def part_select(self, src: Ty, ty: Ty, lo: int, sc: Scope) -> str | None:
        """Now and then `b +: W` or `b -: W` (Verilog's indexed part-select, §3.5) at a signal's
        position instead of `hi:lo`. Its choices come from a generator of its own, seeded from
        the design so far, so that the main one draws what it drew before: every other part of
        every seed's design stays what it was."""
        side = random.Random(f"{self.module_name} {self.counter} {src} {ty} {lo}")
        if side.random() >= 0.3:
            return None
        signals = [v for v in sc.vals if v.ty.kind in ("uint", "sint")]
        width = side.choice([2, 3, 4, 5, 6, 8])
        if signals:
            v = side.choice(signals)
            start = f"({v.name} as u{width})"
        else:
            start = f"{side.randrange(1 << width)}u{width}"
        return f"{start} {side.choice(['+:', '-:'])} {ty.width}"

    def p_concat(self, ty, d, sc, own):
        widths = split_width(ty.width, self.ch.int(1, 3), self.ch)
        parts = [self.expr(self.sized(w), d, sc, own=True) for w in widths]
        return "{" + ", ".join(parts) + "}"

    def sized(self, w: int) -> Ty:
        return sint(w) if self.ch.chance(0.4) else uint(w)

    def p_popcount(self, ty, d, sc, own):
        lo = 1 if ty.width == 1 else 1 << (ty.width - 1)
        w = self.ch.int(lo, min((1 << ty.width) - 1, 64))
        return f"popcount({self.expr(self.sized(w), d, sc, own=True)})"

    def p_compare(self, ty, d, sc, own):
        op = self.ch.pick(["==", "!=", "<", "<=", ">", ">="])
        t = self.any_type(enum=op in ("==", "!=")) if op in ("==", "!=") else self.int_type(wide=True)
        side = self.ch.int(0, 1)
        a = self.expr(t, d, sc, own=side == 0)
        b = self.expr(t, d, sc, own=side == 1)
        return f"({a} {op} {b})"

    def p_guarded_quotient(self, ty, d, sc, own):
        """`v != 0 && n / v < m` (or `v == 0 || ...`): the right side runs only when `v` is not 0."""
        qty = self.int_type(wide=True)
        v = self.divisor_signal(qty, sc)
        if v is None:
            return self.p_compare(ty, d, sc, own)
        op = self.ch.pick(["/", "%"])
        test = f"(({self.expr(qty, d, sc)} {op} {v}) {self.ch.pick(['<', '==', '>='])} {self.expr(qty, d, sc)})"
        if self.ch.chance(0.5):
            return f"(({v} != 0) && {test})"
        return f"(({v} == 0) || {test})"

    def p_logic(self, ty, d, sc, own):
        op = self.ch.pick(["&&", "||", "!", "==>"])
        a = self.expr(BOOL, d, sc)
        if op == "!":
            return f"(!{a})"
        return f"({a} {op} {self.expr(BOOL, d, sc)})"

    def p_reduce(self, ty, d, sc, own):
        name = self.ch.pick(["and_reduce", "or_reduce", "xor_reduce", "onehot", "onehot0"])
        return f"{name}({self.expr(self.int_type(wide=True), d, sc, own=True)})"

    def p_bit(self, ty, d, sc, own):
        src = self.int_type(wide=True)
        base = self.atom(src, d, sc)
        index = self.index(src.width, d, sc)
        if index is None:
            return self.guarded_read(base, src.width, self.literal(BOOL, False), sc)
        return f"{base}[{index}]"

    def p_quant(self, ty, d, sc, own):
        q = self.fresh("q")
        qty = uint(self.ch.int(1, 3))
        kind = self.ch.pick(["forall", "exists"])
        body = self.expr(BOOL, d, sc.add(Val(q, qty)))
        return f"({kind} {q}: {qty} :: {body})"

    # ---- indexes -------------------------------------------------------------------------
    def index(self, limit: int, d: int, sc: Scope) -> str | None:
        """An index in 0..limit-1 (by value or by width), or None: the caller guards it."""
        k = self.ch.int(0, 4)
        if k <= 1 or limit < 2:
            return str(self.ch.int(0, limit - 1))
        if k == 4:
            return None
        loops = [v for v in sc.vals if v.bound is not None and v.bound <= limit]
        if loops and self.ch.chance(0.5):
            return self.ch.pick(loops).name
        j = self.ch.int(1, limit.bit_length() - 1)
        return self.expr(uint(j), d, sc, own=True)

    def guard_index(self, limit: int, sc: Scope) -> str | None:
        """A non-constant unsigned index wide enough to exceed `limit` (to be compared with it),
        or None when no signal is in scope."""
        j = limit.bit_length()
        ty = uint(j)
        names = [v.name for v in sc.vals if v.ty == ty and not v.const and v.bound is None]
        if names and self.ch.chance(0.5):
            return self.ch.pick(names)
        src = [v for v in sc.vals if v.ty.kind != "enum" and not v.const and v.bound is None]
        if not src:
            return None
        return f"({self.ch.pick(src).name} as {ty})"

    def guarded_read(self, base: str, limit: int, fallback: str, sc: Scope) -> str:
        i = self.guard_index(limit, sc)
        if i is None:
            return f"{base}[{self.ch.int(0, limit - 1)}]"
        return f"(if ({i} < {limit}) then {base}[{i}] else {fallback})"

    # ---- match ---------------------------------------------------------------------------
    def subject_type(self) -> Ty:
        k = self.ch.int(0, 5)
        if k == 0 and self.enums:
            return self.ch.pick(self.enums)[0]
        if k == 1:
            return BOOL
        if k <= 3:
            return self.sized(self.ch.int(1, 3))
        return self.int_type()

    def arm_patterns(self, sty: Ty) -> list[str]:
        """Patterns for 1-4 arms that together are exhaustive; maybe overlapping, maybe `_` early."""
        if sty.kind == "enum":
            values = [(n, v) for n, v in self.enum_info(sty)]
            texts = [f"{sty.enum}::{n}" for n, _ in values]
        elif sty == BOOL and self.ch.chance(0.5):
            texts = ["false", "true"]
        elif sty.width <= 3:
            texts = [self.pattern_literal(v, sty) for v in range(1 << sty.width)]
        else:
            texts = [self.pattern_literal(self.ch.bits(sty.width), sty) for _ in range(self.ch.int(1, 4))]
            return self.group(texts, wildcard=True)
        return self.group(texts, wildcard=self.ch.chance(0.4))

    def group(self, texts: list[str], wildcard: bool) -> list[str]:
        order = self.ch.shuffle(texts)
        if wildcard:
            order = order[: self.ch.int(0, len(order))]
        n = self.ch.int(1, min(4, max(1, len(order))))
        arms: list[list[str]] = [[] for _ in range(n)]
        for i, t in enumerate(order):
            arms[i % n if self.ch.chance(0.5) else self.ch.int(0, n - 1)].append(t)
        arms = [a for a in arms if a]
        if arms and order and self.ch.chance(0.2):  # overlap: a later arm repeats a value
            arms.append([self.ch.pick(order)])
        if wildcard:
            at = len(arms) if self.ch.chance(0.8) else self.ch.int(0, len(arms))
            arms.insert(at, ["_"])
        return [" | ".join(a) for a in arms]
