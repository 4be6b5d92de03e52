"""Choices and scopes of the random design generator (tests/gen_designs.py).

A `Chooser` is where every random choice comes from: `RandomChooser(seed)` for batches,
`DrawChooser(draw)` under hypothesis (every choice shrinks towards the first option). `Val`,
`Arr` and `Fn` are what a scope (`Scope`) lets an expression read or call; `Generated` is a
written design. The word lists are the names that exercise the naming of the parser and of
the lowering (Verilog keywords, names the lowering makes up, sysr keywords as names).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from hypothesis import strategies as st

from sysr.types import Ty, mask

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


def split_width(w: int, n: int, ch: Chooser) -> list[int]:
    """w split into at most n positive parts."""
    n = min(n, w)
    cuts = sorted(set(ch.int(1, w - 1) for _ in range(n - 1))) if w > 1 else []
    bounds = [0] + cuts + [w]
    return [b - a for a, b in zip(bounds, bounds[1:])]
