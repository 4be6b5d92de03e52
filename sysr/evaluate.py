"""The concrete evaluator: runs an elaborated design cycle by cycle on Python integers.

It is the reference semantics that counterexample traces are replayed on (independently of
z3's model completion) and that the lowering's differential test compares Icarus against. It
interprets the IR of `sysr.elab` with the operator functions of `sysr.types`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import elab as E
from .types import (mask, op_binary, op_builtin, op_cast, op_concat, op_slice, op_unary)


class ArrayValue:
    """An array value: explicit entries over a default function of the index."""

    def __init__(self, size: int, entries: dict[int, int] | None = None,
                 default: Callable[[int], int] | None = None) -> None:
        self.size = size
        self.entries = entries or {}
        self.default = default or (lambda i: 0)

    def get(self, i: int) -> int:
        return self.entries[i] if i in self.entries else self.default(i)

    def set(self, i: int, v: int) -> "ArrayValue":
        entries = dict(self.entries)
        entries[i] = v
        return ArrayValue(self.size, entries, self.default)

    def snapshot(self) -> list[int]:
        return [self.get(i) for i in range(self.size)]


@dataclass
class Cycle:
    """Everything known in one cycle: inputs, state, and what was computed from them."""
    inputs: dict[str, int]
    state: dict[str, object]  # int or ArrayValue: what the state variables stored at the last edge
    values: dict[str, int]  # comb signals
    props: list[int]  # property values in System.props order
    requires: list[int]
    visible: dict[str, object] | None = None  # the state as read in the cycle (see `shown`)
    assumes: list[int] = ()  # the instances' contracts, in System.assumes order

    @property
    def shown(self) -> dict[str, object]:
        """The state as logic reads it in this cycle: `state`, except that registers under an
        active asynchronous reset read as their reset values. What traces and simulators show."""
        return self.state if self.visible is None else self.visible


class Evaluator:
    """Evaluates the IR on Python integers. What is evaluated together (a cycle's comb signals,
    properties, requirements, contracts, next state and visible state; an expression given to
    `eval`) is compiled once into a `Plan`, and each evaluation is one pass over it."""

    def __init__(self, system: E.System) -> None:
        self.sys = system
        self.comb = system.comb
        self._plans: dict[int, tuple[object, Plan]] = {}  # id(root) -> (root, its plan)
        self._cycle: Plan | None = None  # what `step` evaluates, built at the first step

    def eval(self, node, env: dict, memo: dict | None = None):
        """The value of `node` given the state and inputs in `env` (a comb signal's value is that
        of its expression, unless `env` gives it). `memo` is accepted for older callers, unused."""
        kept = self._plans.get(id(node))
        if kept is None or kept[0] is not node:
            kept = self._plans[id(node)] = (node, Plan(self.comb, [node]))
        return kept[1].run(env)[-1]

    def initial_state(self, memory: Callable[[str, int], int] | None = None,
                      free: Callable[[str], int] | None = None) -> dict[str, object]:
        """The reset state: reset values, and power-up values of registers without one; memories
        from `memory(name, i)` (asked once per word, when it is first read), other registers from
        `free(name)`."""
        state: dict[str, object] = {}
        for sv in self.sys.state:
            if sv.size is not None:
                if sv.init is not None:
                    state[sv.name] = ArrayValue(sv.size, {}, lambda i, v=sv.init: v)
                else:
                    state[sv.name] = ArrayValue(sv.size, {}, powerup(sv.name, memory))
            elif sv.init is not None:
                state[sv.name] = sv.init
            elif sv.powerup is not None:
                state[sv.name] = sv.powerup
            else:
                state[sv.name] = (free or (lambda name: 0))(sv.name)
        return state

    def step(self, state: dict[str, object], inputs: dict[str, int]) -> tuple[Cycle, dict[str, object]]:
        """Evaluate one cycle: returns what the cycle shows and the next state."""
        s = self.sys
        if self._cycle is None:
            self._cycle = Plan(self.comb, list(self.comb.values()) + [p.expr for p in s.props + s.requires + s.assumes]
                               + [sv.next for sv in s.state] + list(s.visible.values()))
        env: dict = dict(state)
        for name, ty in s.inputs:
            env[name] = inputs.get(name, 0) & mask(ty.width)
        vals = self._cycle.run(env)
        at = iter(self._cycle.roots)
        values = {name: vals[next(at)] for name in self.comb}
        props = [vals[next(at)] for _ in s.props]
        reqs = [vals[next(at)] for _ in s.requires]
        assumed = [vals[next(at)] for _ in s.assumes]
        nxt = {sv.name: vals[next(at)] for sv in s.state}
        visible = None
        if s.visible:
            visible = dict(state)
            visible.update({name: vals[next(at)] for name in s.visible})
        cyc = Cycle({n: env[n] for n, _ in s.inputs}, dict(state), values, props, reqs, visible, assumed)
        return cyc, nxt

    def run(self, inputs: list[dict[str, int]], state: dict[str, object] | None = None) -> list[Cycle]:
        state = state if state is not None else self.initial_state()
        out = []
        for ins in inputs:
            cyc, state = self.step(state, ins)
            out.append(cyc)
        return out


def powerup(name: str, memory: Callable[[str, int], int] | None) -> Callable[[int], int]:
    """A memory's power-up contents: word i is `memory(name, i)`, asked when the word is first
    read and then kept (an unwritten word reads the same value in every cycle)."""
    if memory is None:
        return lambda i: 0
    words: dict[int, int] = {}

    def word(i: int) -> int:
        if i not in words:
            words[i] = memory(name, i)
        return words[i]
    return word


class Plan:
    """Expressions compiled for the evaluator: every node under the roots once, operands first
    (a comb signal's `Var` after its expression), each with a function of the values before it
    and the environment. `run(env)` gives the values in that order; `roots` indexes the roots'."""

    def __init__(self, comb: dict, roots: list) -> None:
        self.comb = comb
        slots: dict[int, int] = {}
        self.nodes: list = []  # (slots are keyed by id: keep the nodes alive)
        self.fns: list[Callable] = []
        for root in roots:
            for n in E.postorder(root, slots, lambda v: comb.get(v.name)):
                self.fns.append(self._compile(n, slots))
                slots[id(n)] = len(self.nodes)
                self.nodes.append(n)
        self.roots = [slots[id(r)] for r in roots]

    def run(self, env: dict) -> list:
        vals: list = []
        put = vals.append
        for f in self.fns:
            put(f(vals, env))
        return vals

    def _compile(self, n, slots: dict[int, int]) -> Callable:
        """The function giving n's value from its operands' values (already in `vals`)."""
        at = lambda x: slots[id(x)]  # noqa: E731
        if isinstance(n, E.Const):
            value = n.value
            return lambda v, env: value
        if isinstance(n, E.Var):
            name = n.name
            if name in self.comb:
                k = at(self.comb[name])
                return lambda v, env: env[name] if name in env else v[k]

            def read(v, env):
                if name not in env:
                    raise KeyError(f"no value for {name}")
                return env[name]
            return read
        if isinstance(n, E.ArrVar):
            return lambda v, env, name=n.name: env[name]
        if isinstance(n, E.ConstArr):
            return lambda v, env, size=n.size, value=n.value: ArrayValue(size, {}, lambda i: value)
        if isinstance(n, E.Un):
            a, op, ty = at(n.a), n.op, n.ty
            return lambda v, env: op_unary(op, v[a], ty)
        if isinstance(n, E.Bin):
            a, b, op, aty, bty = at(n.a), at(n.b), n.op, n.a.ty, n.b.ty
            return lambda v, env: op_binary(op, v[a], v[b], aty, bty)
        if isinstance(n, E.Ite):
            c, a, b = at(n.c), at(n.a), at(n.b)
            return lambda v, env: v[a] if v[c] else v[b]
        if isinstance(n, E.Cast):
            a, aty, ty = at(n.a), n.a.ty, n.ty
            return lambda v, env: op_cast(v[a], aty, ty)
        if isinstance(n, E.Slice):
            a, hi, lo = at(n.a), n.hi, n.lo
            return lambda v, env: op_slice(v[a], hi, lo)
        if isinstance(n, E.BitIdx):
            a, i, w = at(n.a), at(n.i), n.a.ty.width
            return lambda v, env: (v[a] >> v[i]) & 1 if v[i] < w else 0
        if isinstance(n, E.Cat):
            parts = [(at(p), p.ty.width) for p in n.parts]
            return lambda v, env: op_concat([(v[k], w) for k, w in parts])
        if isinstance(n, E.Builtin):
            a, name, aty = at(n.a), n.name, n.a.ty
            return lambda v, env: op_builtin(name, v[a], aty)
        if isinstance(n, E.Read):
            arr, i = at(n.arr), at(n.i)
            return lambda v, env: v[arr].get(v[i]) if v[i] < v[arr].size else 0
        if isinstance(n, E.Store):
            arr, i, x = at(n.arr), at(n.i), at(n.v)
            return lambda v, env: v[arr].set(v[i], v[x]) if v[i] < v[arr].size else v[arr]
        raise TypeError(f"cannot evaluate {type(n).__name__}")
