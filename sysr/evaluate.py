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
    def __init__(self, system: E.System) -> None:
        self.sys = system
        self.comb = system.comb

    def eval(self, node, env: dict, memo: dict):
        if id(node) in memo:
            return memo[id(node)]

        def behind(v: E.Var):
            return None if v.name in env else self.comb.get(v.name)

        keep = memo.setdefault("keep", [])  # the memo is keyed by id: keep its nodes alive
        for n in E.postorder(node, memo, behind):
            if id(n) not in memo:
                memo[id(n)] = self._eval(n, env, memo)
                keep.append(n)
        return memo[id(node)]

    def _eval(self, n, env, memo):
        ev = lambda x: self.eval(x, env, memo)
        if isinstance(n, E.Const):
            return n.value
        if isinstance(n, E.Var):
            if n.name in env:
                return env[n.name]
            if n.name in self.comb:
                v = ev(self.comb[n.name])
                env[n.name] = v
                return v
            raise KeyError(f"no value for {n.name}")
        if isinstance(n, E.ArrVar):
            return env[n.name]
        if isinstance(n, E.ConstArr):
            return ArrayValue(n.size, {}, lambda i, v=n.value: v)
        if isinstance(n, E.Un):
            return op_unary(n.op, ev(n.a), n.ty)
        if isinstance(n, E.Bin):
            a, b = ev(n.a), ev(n.b)
            return op_binary(n.op, a, b, n.a.ty, n.b.ty)
        if isinstance(n, E.Ite):
            return ev(n.a) if ev(n.c) else ev(n.b)
        if isinstance(n, E.Cast):
            return op_cast(ev(n.a), n.a.ty, n.ty)
        if isinstance(n, E.Slice):
            return op_slice(ev(n.a), n.hi, n.lo)
        if isinstance(n, E.BitIdx):
            a, i = ev(n.a), ev(n.i)
            return (a >> i) & 1 if i < n.a.ty.width else 0
        if isinstance(n, E.Cat):
            return op_concat([(ev(p), p.ty.width) for p in n.parts])
        if isinstance(n, E.Builtin):
            return op_builtin(n.name, ev(n.a), n.a.ty)
        if isinstance(n, E.Read):
            arr, i = ev(n.arr), ev(n.i)
            return arr.get(i) if i < arr.size else 0
        if isinstance(n, E.Store):
            arr, i, v = ev(n.arr), ev(n.i), ev(n.v)
            return arr.set(i, v) if i < arr.size else arr
        raise TypeError(f"cannot evaluate {type(n).__name__}")

    def initial_state(self, memory: Callable[[str, int], int] | None = None,
                      free: Callable[[str], int] | None = None) -> dict[str, object]:
        """The reset state: reset values, and power-up values of registers without one; memories
        from `memory(name, i)`; other registers from `free(name)`."""
        state: dict[str, object] = {}
        for sv in self.sys.state:
            if sv.size is not None:
                if sv.init is not None:
                    state[sv.name] = ArrayValue(sv.size, {}, lambda i, v=sv.init: v)
                else:
                    get = memory or (lambda name, i: 0)
                    state[sv.name] = ArrayValue(sv.size, {}, lambda i, nm=sv.name, g=get: g(nm, i))
            elif sv.init is not None:
                state[sv.name] = sv.init
            elif sv.powerup is not None:
                state[sv.name] = sv.powerup
            else:
                state[sv.name] = (free or (lambda name: 0))(sv.name)
        return state

    def step(self, state: dict[str, object], inputs: dict[str, int]) -> tuple[Cycle, dict[str, object]]:
        """Evaluate one cycle: returns what the cycle shows and the next state."""
        env: dict = dict(state)
        for name, ty in self.sys.inputs:
            env[name] = inputs.get(name, 0) & mask(ty.width)
        memo: dict = {}
        values = {name: self.eval(expr, env, memo)
                  for name, expr in self.comb.items()}
        env.update(values)
        props = [self.eval(p.expr, env, memo) for p in self.sys.props]
        reqs = [self.eval(p.expr, env, memo) for p in self.sys.requires]
        assumed = [self.eval(p.expr, env, memo) for p in self.sys.assumes]
        nxt = {sv.name: self.eval(sv.next, env, memo) for sv in self.sys.state}
        visible = None
        if self.sys.visible:
            visible = dict(state)
            visible.update({name: self.eval(expr, env, memo) for name, expr in self.sys.visible.items()})
        cyc = Cycle({n: env[n] for n, _ in self.sys.inputs}, dict(state), values, props, reqs, visible, assumed)
        return cyc, nxt

    def run(self, inputs: list[dict[str, int]], state: dict[str, object] | None = None) -> list[Cycle]:
        state = state if state is not None else self.initial_state()
        out = []
        for ins in inputs:
            cyc, state = self.step(state, ins)
            out.append(cyc)
        return out
