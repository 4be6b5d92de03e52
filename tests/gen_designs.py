"""Random well-typed sysr designs, written as source text, for the differential tests.

`DesignGen(chooser).generate()` writes one file (an enum, consts, fns and one module) that
passes the static checks of `sysr.pipeline.analyze`, so every design goes through the real
parser and checker. Generation is type-directed: `expr(ty, depth, scope)` returns source text
of type `ty`, and every production knows which of its operands must carry a type of their own
(a cast source, a concatenation element, a comparison side...) and which may be a bare literal
that takes its type from context.

What a design contains: a clock, a reset (`reset`, `reset_n`, or the asynchronous `areset` or
`areset_n`, which logic reads now and then, some outputs forced to a constant while it is
active), 1-4 inputs and 1-4 outputs
(some registered) of random types (bool, uN and sN of widths 1..64, an enum), registers with
reset values and some without (every register of a clocked design without a reset port, one
design in twelve), some of those with a power-up value (`initial e`), sometimes a register array and a memory of 2-128 entries (written in `seq`, read
in `seq` and `comb`, with indexes in range by their width or guarded by a comparison); one
design in ten is purely combinational (no clock, no reset, no state). Wires and outputs are
driven at module level, by `wire` with a value and by `comb` blocks (defaults, then
if/match/let/for with whole, bit and slice writes), registers by one or two `seq` blocks with
partial writes; a few `assert`s (with `prev` and quantifiers) give the z3 test properties to
compare. Ports and module items come in random order. Expressions use every operator, shifts by constants
0..width+3 and by dynamic amounts of other widths, casts in every direction, slices, constant,
dynamic (in range by width) and guarded (`if i < W then x[i] else ...`) bit indexes,
concatenation, if and match expressions (with overlapping arms and a `_` arm that may come
before other arms), every builtin, fn calls, and constant expressions in consts and reset values.
`/` and `%` (unsigned and signed) divide by a divisor that cannot be zero (`d | 0x1`) or under a
guard (`if v != 0 then n / v else ...`, `v != 0 && ...`), with a signal or loop variable `v`.
Some signals are named after Verilog keywords, after names the lowering makes up (helper
functions, enum localparams, escaped keywords, memory ports), after sysr keywords written as
raw identifiers (`r#match`) or after the words that are keywords only in some places (`in`,
`areset`, `then`), to exercise the naming of the parser and of the lowering.

Choices come from a `Chooser`: `RandomChooser(seed)` for batches (a design is reproduced from
its seed with `design_from_seed`), `DrawChooser(draw)` under hypothesis (`designs()` is the
strategy; every choice shrinks towards the first option, so failures shrink to small designs).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from hypothesis import strategies as st

from sysr.types import BOOL, Ty, bits_for, mask, sint, to_signed, uint

# Widths that hit boundaries (1, byte and word edges, odd sizes) more often than uniform picks.
WIDTHS = (1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17, 24, 31, 32, 33, 48, 63, 64)
# Verilog(-2005 or System Verilog) keywords that are ordinary names in sysr.
VERILOG_WORDS = ("begin", "end", "always", "assign", "integer", "output", "input", "initial",
                 "case", "default", "repeat", "signed", "edge", "event", "task", "buf", "not",
                 "and", "or", "xor", "real", "time", "generate", "logic", "bit", "byte", "int",
                 "wait", "force", "parameter", "string", "unsigned")
# Names like those the lowering makes up (helper functions, enum localparams, escaped keywords).
LOWERING_NAMES = ("bits8_0_0", "sext8_9", "bit8_i3", "E1_V0", "E1_V1", "begin_", "default_", "logic_")
# sysr keywords as names: raw identifiers, and the words that are keywords only where no name
# can stand (written plain).
SYSR_WORDS = ("r#match", "r#seq", "r#reg", "r#wire", "r#if", "r#for", "r#let", "r#true", "r#module",
              "r#fn", "r#enum", "r#else", "r#comb", "r#ghost", "r#assert", "r#exists", "r#x",
              "in", "out", "clock", "reset", "reset_n", "areset", "areset_n", "then", "as")


# ---- choices -------------------------------------------------------------------------------

class Chooser:
    """Where random choices come from; `int` is the only primitive."""

    def int(self, lo: int, hi: int) -> int:
        raise NotImplementedError

    def chance(self, p: float) -> bool:
        """True with probability about p; shrinks to False."""
        return self.int(0, 999) >= round(1000 * (1 - p))

    def pick(self, seq):
        """An element of a non-empty sequence; shrinks to the first."""
        seq = list(seq)
        return seq[self.int(0, len(seq) - 1)]

    def weighted(self, options):
        """options: (weight, value) pairs with positive integer weights."""
        total = sum(w for w, _ in options)
        k = self.int(0, total - 1)
        for w, v in options:
            if k < w:
                return v
            k -= w
        raise AssertionError("unreachable")

    def shuffle(self, items: list) -> list:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.int(0, i)
            out[i], out[j] = out[j], out[i]
        return out

    def bits(self, width: int) -> int:
        """A bit pattern of `width` bits, biased towards 0, 1, all ones and the sign bit."""
        kind = self.int(0, 7)
        if kind == 0:
            return 0
        if kind == 1:
            return 1 & mask(width)
        if kind == 2:
            return mask(width)
        if kind == 3:
            return 1 << (width - 1)
        if kind == 4:
            return mask(width) >> 1
        if kind == 5:
            return self.int(0, min(mask(width), 15))
        return self.int(0, mask(width))


class RandomChooser(Chooser):
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def int(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


class DrawChooser(Chooser):
    def __init__(self, draw) -> None:
        self.draw = draw

    def int(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))


# ---- scopes --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Val:
    """A readable scalar name."""
    name: str
    ty: Ty
    const: bool = False  # a const: constant-foldable, so never a guarded index
    bound: int | None = None  # a loop variable's exclusive upper bound


@dataclass(frozen=True)
class Arr:
    """A register array (reset) or a memory (not reset)."""
    name: str
    ty: Ty
    size: int
    mem: bool


@dataclass(frozen=True)
class Fn:
    name: str
    params: tuple
    ret: Ty


@dataclass(frozen=True)
class Scope:
    vals: tuple = ()
    arrays: tuple = ()
    fns: tuple = ()
    match: bool = True  # match expressions (not constant, so not in consts)
    spec: bool = False  # prev and quantifiers
    in_prev: bool = False

    def add(self, *vals: Val) -> "Scope":
        return replace(self, vals=self.vals + vals)

    def of_type(self, ty: Ty) -> list[Val]:
        return [v for v in self.vals if v.ty == ty]


@dataclass
class Generated:
    """A generated design: its source, module name and memories (name, size); for a hierarchy,
    `extern_text` is the same file with some children declared `extern` (tests/gen_hier.py)."""
    text: str
    module: str
    memories: list = field(default_factory=list)
    extern_text: str = ""


# ---- the generator -------------------------------------------------------------------------

class DesignGen:
    def __init__(self, ch: Chooser, module: str = "dut", depth: int = 3,
                 comb_mem_reads: bool = True) -> None:
        self.ch = ch
        self.module_name = module
        self.depth = depth
        self.comb_mem_reads = comb_mem_reads
        self.counter = 0
        self.enums: list[tuple[Ty, list[tuple[str, int]]]] = []
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
        w = self.width(wide)
        s = self.ch.chance(0.4) if signed is None else signed
        return sint(w) if s else uint(w)

    def any_type(self, wide: bool = True, enum: bool = True) -> Ty:
        kind = self.ch.int(0, 9)
        if kind <= 1:
            return BOOL
        if kind == 2 and enum and self.enums:
            return self.ch.pick(self.enums)[0]
        return self.int_type(wide)

    def type_name(self, ty: Ty) -> str:
        if ty == BOOL and self.ch.chance(0.2):
            return "u1"
        return str(ty)

    def enum_info(self, ty: Ty) -> list[tuple[str, int]]:
        return next(vs for t, vs in self.enums if t == ty)

    # ---- literals ------------------------------------------------------------------------
    def literal(self, ty: Ty, own: bool) -> str:
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
        if ty.kind != "enum" and others and self.ch.chance(0.6):
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
        return f"prev({self.expr(ty, d, replace(sc, in_prev=True), own)})"

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
        return f"{self.atom(src, d, sc)}[{lo + ty.width - 1}:{lo}]"

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

    # ---- statements ----------------------------------------------------------------------
    def block(self, n: int, d: int, sc: Scope, mode: str, targets: list) -> list[str]:
        lines: list[str] = []
        for _ in range(n):
            text, sc = self.stmt(d, sc, mode, targets)
            lines.append(text)
        return lines

    def stmt(self, d: int, sc: Scope, mode: str, targets: list) -> tuple[str, Scope]:
        opts = [(5, "write"), (1, "let")]
        if d > 0:
            opts += [(3, "if"), (1, "match"), (1, "for")]
        kind = self.ch.weighted(opts)
        if kind == "let":
            return self.let_stmt(sc)
        if kind == "write" or not targets:
            return self.write(self.ch.pick(targets), sc, mode), sc
        if kind == "if":
            return self.if_stmt(d, sc, mode, targets), sc
        if kind == "match":
            return self.match_stmt(d, sc, mode, targets), sc
        return self.for_stmt(d, sc, mode, targets), sc

    def let_stmt(self, sc: Scope) -> tuple[str, Scope]:
        name = self.fresh("t")
        ty = self.any_type()
        if self.ch.chance(0.5):
            return f"let {name}: {self.type_name(ty)} = {self.expr(ty, self.depth - 1, sc)};", sc.add(Val(name, ty))
        return f"let {name} = {self.expr(ty, self.depth - 1, sc, own=True)};", sc.add(Val(name, ty))

    def sub_block(self, d: int, sc: Scope, mode: str, targets: list) -> str:
        return "{ " + " ".join(self.block(self.ch.int(1, 3), d, sc, mode, targets)) + " }"

    def if_stmt(self, d: int, sc: Scope, mode: str, targets: list) -> str:
        text = f"if {self.expr(BOOL, self.depth - 1, sc)} {self.sub_block(d - 1, sc, mode, targets)}"
        if self.ch.chance(0.3):
            return text + " else " + self.if_stmt(d - 1, sc, mode, targets) if d > 1 else text
        if self.ch.chance(0.6):
            text += " else " + self.sub_block(d - 1, sc, mode, targets)
        return text

    def match_stmt(self, d: int, sc: Scope, mode: str, targets: list) -> str:
        sty = self.subject_type()
        subject = self.expr(sty, self.depth - 1, sc, own=True)
        arms = [f"{p} => {self.sub_block(d - 1, sc, mode, targets)}" for p in self.arm_patterns(sty)]
        return f"match {subject} {{ {', '.join(arms)} }}"

    def for_stmt(self, d: int, sc: Scope, mode: str, targets: list) -> str:
        k = self.fresh("k")
        start = self.ch.int(0, 2)
        end = start + self.ch.int(1, 6)
        inner = sc.add(Val(k, uint(bits_for(end - 1)), bound=end))
        return f"for {k} in {start}..{end} {self.sub_block(d - 1, inner, mode, targets)}"

    def write(self, target, sc: Scope, mode: str) -> str:
        op = "=" if mode == "comb" else "<="
        d = self.depth - 1
        if isinstance(target, Arr):
            index = self.index(target.size, d, sc)
            value = self.expr(target.ty, d, sc)
            if index is None:
                i = self.guard_index(target.size, sc)
                if i is None:
                    return f"{target.name}[0] {op} {value};"
                return f"if {i} < {target.size} {{ {target.name}[{i}] {op} {value}; }}"
            return f"{target.name}[{index}] {op} {value};"
        kind = self.ch.int(0, 5) if target.ty.kind != "enum" else 0
        if kind <= 2:
            return f"{target.name} {op} {self.expr(target.ty, d, sc)};"
        if kind <= 4:
            w = target.ty.width
            index = self.index(w, d, sc)
            value = self.expr(BOOL, d, sc)
            if index is None:
                i = self.guard_index(w, sc)
                if i is None:
                    return f"{target.name}[0] {op} {value};"
                return f"if {i} < {w} {{ {target.name}[{i}] {op} {value}; }}"
            return f"{target.name}[{index}] {op} {value};"
        lo = self.ch.int(0, target.ty.width - 1)
        hi = self.ch.int(lo, target.ty.width - 1)
        return f"{target.name}[{hi}:{lo}] {op} {self.expr(uint(hi - lo + 1), d, sc)};"

    # ---- declarations --------------------------------------------------------------------
    def enum_decl(self) -> str:
        name = self.fresh("E")
        n = self.ch.int(1, 5)
        explicit = self.ch.chance(0.4)
        if explicit:
            codes = self.ch.shuffle(sorted(set(self.ch.int(0, 20) for _ in range(n))))
        else:
            codes = list(range(n))
        variants = [(f"V{i}", c) for i, c in enumerate(codes)]
        width = bits_for(max(codes))
        repr_ = ""
        if explicit and self.ch.chance(0.5):
            width += self.ch.int(0, 2)
            repr_ = f": u{width}"
        self.enums.append((Ty("enum", width, name), variants))
        body = ", ".join(f"{v} = {c}" if explicit else v for v, c in variants)
        return f"enum {name}{repr_} {{ {body} }}"

    def const_decls(self, n: int) -> tuple[list[str], list[Val]]:
        lines, vals = [], []
        for _ in range(n):
            ty = self.any_type(wide=False)
            sc = Scope(vals=tuple(vals), match=False)
            name = self.fresh("C")
            lines.append(f"const {name}: {self.type_name(ty)} = {self.expr(ty, 2, sc)};")
            vals.append(Val(name, ty, const=True))
        return lines, vals

    def fn_decls(self, n: int, consts: list[Val]) -> tuple[list[str], list[Fn]]:
        lines, fns = [], []
        for _ in range(n):
            params = tuple((self.fresh("fp"), self.any_type(wide=False)) for _ in range(self.ch.int(1, 3)))
            ret = self.any_type(wide=False)
            sc = Scope(vals=tuple(consts) + tuple(Val(p, t) for p, t in params), fns=tuple(fns))
            lets = []
            for _ in range(self.ch.int(0, 2)):
                text, sc = self.let_stmt(sc)
                lets.append(text)
            name = self.fresh("f")
            sig = ", ".join(f"{p}: {self.type_name(t)}" for p, t in params)
            body = self.expr(ret, self.depth, sc)
            lines.append(f"fn {name}({sig}) -> {self.type_name(ret)} {{ {' '.join(lets)} {body} }}")
            fns.append(Fn(name, params, ret))
        return lines, fns

    def init_value(self, ty: Ty, consts: list[Val]) -> str:
        if self.ch.chance(0.2):
            return self.expr(ty, 1, Scope(vals=tuple(consts), match=False))
        return self.literal(ty, own=False)

    def port_type(self) -> Ty:
        return self.any_type(wide=False)

    # ---- the module ------------------------------------------------------------------------
    def generate(self) -> Generated:
        items = [self.enum_decl()]
        consts_text, consts = self.const_decls(self.ch.int(0, 2))
        fns_text, fns = self.fn_decls(self.ch.int(0, 2), consts)
        items += consts_text + fns_text
        m = ModuleParts(self, consts, fns)
        items.append(m.text())
        return Generated("\n".join(items) + "\n", self.module_name, m.memories)


RESETS = [(5, ("rst", "reset")), (2, ("rst_n", "reset_n")), (2, ("arst", "areset")), (1, ("arst_n", "areset_n"))]


class ModuleParts:
    """The pieces of one module, decided in order: ports, state, comb drivers, seq, asserts.

    `stateful`, `reset` and `has_reset` fix those choices (a hierarchy's modules share one kind of reset,
    tests/gen_hier.py); `children` are (instance name, the child's parts) to instantiate, each
    bound from what the module reads and what earlier instances output."""

    def __init__(self, g: DesignGen, consts: list[Val], fns: list[Fn], stateful: bool | None = None,
                 reset: tuple[str, str] | None = None, has_reset: bool | None = None,
                 children: list | None = None) -> None:
        self.g = g
        ch = g.ch
        self.consts = consts
        self.fns = tuple(fns)
        self.children = children or []
        self.stateful = not ch.chance(0.1) if stateful is None else stateful  # else no clock, no reset
        self.reset = ch.weighted(RESETS) if reset is None else reset
        # now and then a clocked design without a reset port, whose registers have no reset value
        self.has_reset = self.stateful and (not ch.chance(0.08) if has_reset is None else has_reset)
        self.inputs = [Val(g.signal_name("a"), g.port_type()) for _ in range(ch.int(1, 4))]
        self.outputs = []  # (Val, registered, init): init None for a register without a reset value
        for _ in range(ch.int(1, 4)):
            ty = g.port_type()
            reg = self.stateful and ch.chance(0.3)
            if reg and ty.kind == "enum" and not self.has_reset:
                ty = g.int_type()  # an enum register needs a reset value
            self.outputs.append((Val(g.signal_name("y"), ty), reg, self.reset_value(ty) if reg else None))
        self.powerups: dict[str, str] = {}  # register -> its power-up value (only without a reset value)
        for v, reg, init in self.outputs:
            self.powerup(v, reg and init is None)
        self.regs = []
        for _ in range(ch.int(0, 3) if self.stateful else 0):
            ty = g.port_type()
            if ty.kind == "enum" and not self.has_reset:
                ty = g.int_type()
            self.regs.append((Val(g.signal_name("r"), ty), self.reset_value(ty)))
            self.powerup(self.regs[-1][0], self.regs[-1][1] is None)
        self.arrays: list[tuple[Arr, str | None]] = []
        if self.has_reset and ch.chance(0.3):
            ty = g.any_type(wide=False)
            arr = Arr(g.fresh("ra"), ty, ch.pick([2, 4, 8, 3, 5, 70]), mem=False)
            self.arrays.append((arr, g.init_value(ty, consts)))
        self.memories = []
        if self.stateful and ch.chance(0.3):
            ty = g.any_type(wide=False, enum=False)
            size = ch.pick([2, 4, 8, 16, 32, 64, 128, 3, 100])  # > 64: z3 arrays, not bit-vectors
            self.arrays.append((Arr(g.fresh("m"), ty, size, mem=True), None))
            self.memories.append((self.arrays[-1][0].name, size))
        self.wires = [Val(g.signal_name("w"), g.any_type(wide=False)) for _ in range(ch.int(0, 3))]
        if self.memories and self.wires and ch.chance(0.2):  # the name of a memory's read port
            self.wires[0] = Val(f"{self.memories[0][0]}_{ch.pick(['rd', 'addr'])}", self.wires[0].ty)
        self.lines: list[str] = []

    def reset_value(self, ty: Ty) -> str | None:
        """A register's reset value, or None (no reset value) for some non-enum registers."""
        if ty.kind != "enum" and (not self.has_reset or self.g.ch.chance(0.2)):
            return None
        return self.g.init_value(ty, self.consts)

    def powerup(self, v: Val, reset_less: bool) -> None:
        """Now and then a power-up value (`initial e`) for a register without a reset value."""
        if reset_less and self.g.ch.chance(0.4):
            self.powerups[v.name] = self.g.init_value(v.ty, self.consts)

    def initial(self, name: str) -> str:
        return f" initial {self.powerups[name]}" if name in self.powerups else ""

    def state_vals(self) -> list[Val]:
        outs = [v for v, reg, _ in self.outputs if reg]
        return [v for v, _ in self.regs] + outs

    def base_scope(self) -> Scope:
        """What logic reads: consts, inputs, state (and a synchronous reset, now and then)."""
        reset = (Val(self.reset[0], BOOL),) if self.has_reset and self.g.ch.chance(0.3) else ()
        self.reads_reset = bool(reset)
        return Scope(vals=tuple(self.consts) + tuple(self.inputs) + reset + tuple(self.state_vals()),
                     fns=self.fns)

    def ports_text(self) -> str:
        g = self.g
        ports = [("clk: clock", 0)] if self.stateful else []
        if self.has_reset:
            ports.append((f"{self.reset[0]}: {self.reset[1]}", 1))
        ports += [(f"{v.name}: in {g.type_name(v.ty)}", 2) for v in self.inputs]
        bare = {}  # port -> its text in an extern declaration (no reset or power-up value)
        for v, reg, init in self.outputs:
            tail = f" = {init}" if init is not None else ""
            ports.append((f"{v.name}: out reg {g.type_name(v.ty)}{tail}{self.initial(v.name)}" if reg
                          else f"{v.name}: out {g.type_name(v.ty)}", 3))
            bare[ports[-1][0]] = f"{v.name}: out reg {g.type_name(v.ty)}" if reg else ports[-1][0]
        if g.ch.chance(0.5):  # any order: the lowering must keep it
            ports = g.ch.shuffle(ports)
        self.extern_ports = ", ".join(bare.get(p, p) for p, _ in ports)
        return ", ".join(p for p, _ in ports)

    def decls(self) -> list[str]:
        g = self.g
        out = [f"reg {v.name}: {g.type_name(v.ty)}{f' = {init}' if init is not None else ''}{self.initial(v.name)};"
               for v, init in self.regs]
        for arr, init in self.arrays:
            tail = f" = {init}" if init is not None else ""
            out.append(f"reg {arr.name}: {g.type_name(arr.ty)}[{arr.size}]{tail};")
        return out

    def comb_drivers(self, sc: Scope) -> tuple[list[str], Scope]:
        """Drivers for wires and plain outputs, each reading only signals driven before it."""
        g, ch = self.g, self.g.ch
        sigs = self.wires + [v for v, reg, _ in self.outputs if not reg]
        order = ch.shuffle(sigs)
        arrays = tuple(a for a, _ in self.arrays if not a.mem or g.comb_mem_reads)
        read = replace(sc, arrays=arrays)
        items, wire_decls = [], []
        wires = {w.name for w in self.wires}
        i = 0
        while i < len(order):
            group = order[i: i + ch.int(1, 3)]
            i += len(group)
            kind = ch.int(0, 2) if len(group) == 1 else 2
            if kind == 0 and group[0].name in wires:
                v = group[0]
                items.append(f"wire {v.name}: {g.type_name(v.ty)} = {g.expr(v.ty, g.depth, read)};")
            elif kind <= 1:
                v = group[0]
                items.append(f"{v.name} = {self.forced(v.ty, g.expr(v.ty, g.depth, read))};")
            else:
                items.append(self.comb_block(group, read))
            read = read.add(*group)
        declared = {t.split()[1].rstrip(":") for t in items if t.startswith("wire ")}
        wire_decls = [f"wire {w.name}: {g.type_name(w.ty)};" for w in self.wires if w.name not in declared]
        return wire_decls + items, read

    def forced(self, ty: Ty, value: str) -> str:
        """`value`, or now and then, where logic reads the reset, `if <reset active> then
        <literal> else (value)`: forced while the reset is active (of any kind; an asynchronous
        one in the same cycle, between the clock edges)."""
        if not self.reads_reset or not self.g.ch.chance(0.4):
            return value
        active = f"!{self.reset[0]}" if self.reset[1].endswith("_n") else self.reset[0]
        return f"if {active} then {self.g.literal(ty, False)} else ({value})"

    def comb_block(self, group: list[Val], sc: Scope) -> str:
        g, ch = self.g, self.g.ch
        lines = []
        for v in group:
            if ch.chance(0.75):
                lines.append(f"{v.name} = {g.expr(v.ty, g.depth, sc)};")
            else:  # every branch assigns: no default needed
                c = g.expr(BOOL, g.depth - 1, sc)
                lines.append(f"if {c} {{ {v.name} = {g.expr(v.ty, g.depth - 1, sc)}; }} "
                             f"else {{ {v.name} = {g.expr(v.ty, g.depth - 1, sc)}; }}")
        sc = sc.add(*group)
        lines += g.block(ch.int(0, 4), 2, sc, "comb", group)
        return "comb { " + " ".join(lines) + " }"

    def seq_blocks(self, sc: Scope) -> list[str]:
        g, ch = self.g, self.g.ch
        targets = self.state_vals() + [a for a, _ in self.arrays]
        if not targets:
            return []
        sc = replace(sc, arrays=tuple(a for a, _ in self.arrays))
        split = ch.int(1, len(targets)) if len(targets) > 1 and ch.chance(0.3) else len(targets)
        blocks = []
        for part in (targets[:split], targets[split:]):
            if not part:
                continue
            lines = [g.write(t, sc, "seq") for t in part]
            lines += g.block(ch.int(0, 4), 2, sc, "seq", part)
            blocks.append("seq { " + " ".join(lines) + " }")
        return blocks

    def asserts(self, sc: Scope) -> list[str]:
        g = self.g
        spec = replace(sc, spec=True, arrays=tuple(a for a, _ in self.arrays))
        if self.has_reset and self.g.ch.chance(0.3):  # properties may read any reset
            spec = spec.add(Val(self.reset[0], BOOL))
        return [f"{g.ch.pick(('assert', 'assert', 'cover'))} {g.expr(BOOL, 2, spec)};" for _ in range(g.ch.int(0, 2))]

    def instances(self, sc: Scope) -> tuple[list[str], Scope]:
        """`inst` lines for `children`, and the scope with their outputs."""
        g, lines = self.g, []
        for name, child in self.children:
            binds = []
            if child.stateful:
                binds.append("clk: clk")
            if child.has_reset:
                binds.append(f"{child.reset[0]}: {self.reset[0]}")
            binds += [f"{v.name}: {g.expr(v.ty, g.depth, sc)}" for v in child.inputs]
            params = getattr(child, "inst_params", "")  # `<W = 8>`: a binding (tests/gen_hier.py)
            lines.append(f"inst {name} = {child.name}{params}({', '.join(g.ch.shuffle(binds))});")
            sc = sc.add(*(Val(f"{name}.{v.name}", v.ty) for v, _, _ in child.outputs))
        return lines, sc

    def text(self) -> str:
        g = self.g
        sc = self.base_scope()
        insts, sc = self.instances(sc)
        comb, full = self.comb_drivers(sc)
        body = self.decls() + insts + comb + self.seq_blocks(full) + self.asserts(full)
        if g.ch.chance(0.3):  # the order of module items does not matter
            body = g.ch.shuffle(body)
        inner = "\n".join("  " + line for line in body)
        self.name = g.module_name
        return f"module {g.module_name}({self.ports_text()}) {{\n{inner}\n}}"


def split_width(w: int, n: int, ch: Chooser) -> list[int]:
    """w split into at most n positive parts."""
    n = min(n, w)
    cuts = sorted(set(ch.int(1, w - 1) for _ in range(n - 1))) if w > 1 else []
    bounds = [0] + cuts + [w]
    return [b - a for a, b in zip(bounds, bounds[1:])]


# ---- entry points ----------------------------------------------------------------------------

def design_from_seed(seed: int, module: str = "dut", **opts) -> Generated:
    """The design for a seed: the same seed gives the same text."""
    return DesignGen(RandomChooser(seed), module, **opts).generate()


@st.composite
def designs(draw, **opts) -> Generated:
    """A hypothesis strategy of generated designs; shrinks towards small ones."""
    return DesignGen(DrawChooser(draw), **opts).generate()
