"""The elaboration's IR: typed expression nodes over one cycle's values, and how to build and walk them.

Nodes are frozen and compared by identity (`eq=False`): one node may be shared by many parents,
and the encoder, the evaluator and the lowering memoize on `id(node)`. `mk_and`, `mk_or`,
`mk_not`, `mk_implies` and `mk_ite` build the boolean and choice nodes, folding the constants
`TRUE` and `FALSE`; `children` and `postorder` walk a tree without recursion.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..types import BOOL, Ty


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


def _ir_key(n) -> tuple:
    """A structural key of a small IR expression (variables and constants by name and value),
    to state one lemma per distinct division; other nodes by identity."""
    if isinstance(n, Var):
        return ("var", n.name)
    if isinstance(n, Const):
        return ("const", n.value, n.ty)
    return ("node", id(n))
