"""What the two mutators share: mutation sites, the order mutants are taken in, and their records.

A mutator (`bench.mutation.mutate_sysr` on the syntax tree, `bench.mutation.mutate_verilog` on the token stream)
lists every `Site` of a design: one possible slip, with its operator, the line it is on, what it
changes and how to write the mutant. `candidates` turns the sites into mutants in a
deterministic order for a seed: the sites of each operator shuffled, then the operators taken
in turn (a shuffled round robin), so the first N mutants spread over every operator the design
has instead of following the most common one. A mutant whose text equals the original or an
earlier mutant is skipped (it is not a slip, or not a new one).
"""

from __future__ import annotations

import difflib
import random
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator


@dataclass(frozen=True)
class Site:
    operator: str
    line: int  # in the original design, 1-based
    what: str  # "`<` -> `<=`"
    make: Callable[[], str]  # the whole mutant's text


@dataclass(frozen=True)
class Candidate:
    operator: str
    line: int
    what: str
    text: str  # the whole mutant
    diff: str  # unified diff from the original (as the mutator prints it) to the mutant


@dataclass(frozen=True)
class Discarded:
    operator: str
    line: int
    what: str
    why: str  # the static check's codes, or the stage that rejected the text


def unified(original: str, mutant: str, name: str = "design") -> str:
    """A unified diff with one line of context, without the file header's timestamps."""
    lines = difflib.unified_diff(original.splitlines(keepends=True), mutant.splitlines(keepends=True),
                                 f"{name} (original)", f"{name} (mutant)", n=1)
    return "".join(lines)


def ordered(sites: Iterable[Site], seed: int) -> list[Site]:
    """The sites in the order mutants are taken for `seed`: a shuffled round robin over operators."""
    rng = random.Random(seed)
    by_op: dict[str, list[Site]] = {}
    for s in sites:
        by_op.setdefault(s.operator, []).append(s)
    for group in by_op.values():
        rng.shuffle(group)
    ops = sorted(by_op)
    rng.shuffle(ops)
    out: list[Site] = []
    depth = 0
    while len(out) < sum(len(g) for g in by_op.values()):
        out += [by_op[op][depth] for op in ops if depth < len(by_op[op])]
        depth += 1
    return out


def candidates(original: str, sites: Iterable[Site], seed: int, name: str = "design") -> Iterator[Candidate]:
    """Mutants in the order of `ordered`, each new and different from the original."""
    seen = {original}
    for s in ordered(sites, seed):
        text = s.make()
        if text in seen:
            continue
        seen.add(text)
        yield Candidate(s.operator, s.line, s.what, text, unified(original, text, name))
