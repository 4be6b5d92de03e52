"""Cones of influence: which state variables an expression of the elaborated IR depends on.

`state_cone(system, exprs)` is the set of state variables (registers, memories, ghost and
history registers) that the values of `exprs` depend on in some cycle: those they read (through
comb signals), and, transitively, those their next values read. A query about `exprs` is
decided by the unrolling of these variables alone: the others are neither read nor constrained.
"""

from __future__ import annotations

from .. import elab as E


def reads(system: E.System, root, memo: dict[int, frozenset]) -> frozenset[str]:
    """The state variables `root` reads in its own cycle (through comb signals)."""
    state = {sv.name for sv in system.state}
    for node in E.postorder(root, memo, lambda v: system.comb.get(v.name) if v.name not in state else None):
        got: set[str] = set()
        if isinstance(node, (E.Var, E.ArrVar)) and node.name in state:
            got.add(node.name)
        kids = E.children(node)
        if isinstance(node, E.Var) and node.name not in state and node.name in system.comb:
            kids = (system.comb[node.name],)
        for k in kids:
            got |= memo[id(k)]
        memo[id(node)] = frozenset(got)
    return memo[id(root)]


def state_cone(system: E.System, exprs) -> set[str]:
    memo: dict[int, frozenset] = {}
    by_name = {sv.name: sv for sv in system.state}
    todo: list[str] = []
    for e in exprs:
        todo += reads(system, e, memo)
    cone: set[str] = set()
    while todo:
        name = todo.pop()
        if name in cone:
            continue
        cone.add(name)
        sv = by_name[name]
        if sv.next is not None:
            todo += reads(system, sv.next, memo)
    return cone
