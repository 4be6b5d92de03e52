"""Choosing a cycle's inputs for `sysr sim`: random values that meet the design's `requires`.

Each free input is drawn from a distribution biased towards the values that find bugs (0, 1,
all ones, small numbers, the previous cycle's value, which keeps a handshake's offer held), a
valid variant for an enum, and the reset active now and then (`reset_rate`). A draw is kept
when every `requires` holds in this cycle, from the current state, on the concrete evaluator;
after `TRIES` draws that fail, z3 is asked for values that meet them (the state and the fixed
inputs as constants), so a narrow requirement does not stall the simulation. When not even z3
finds any, the cycle has no input the environment may drive: `NoInputs`.
"""

from __future__ import annotations

import random

import z3

from .. import elab as E
from ..evaluate import ArrayValue, Evaluator
from ..types import Ty, mask

TRIES = 48
SOLVER_MS = 2000


def reset_ports(design) -> dict[str, int]:
    """Each reset input (§4.10: one per domain) and its active value."""
    from ..front.syntax import RESET_KINDS
    return {s.name: 0 if s.kind.endswith("_n") else 1 for s in design.signals.values() if s.kind in RESET_KINDS}


class NoInputs(Exception):
    """No input values meet the `requires` in this state (a dead end for the environment)."""


class InputChooser:
    def __init__(self, system: E.System, ev: Evaluator, rng: random.Random, resets: dict[str, int],
                 reset_rate: float, hold: float = 0.3) -> None:
        self.sys = system
        self.ev = ev
        self.rng = rng
        self.resets = resets  # port -> its value when active
        self.reset_rate = reset_rate
        self.hold = hold  # how often an input keeps the previous cycle's value
        self.variants = {name: sorted(set(system.design.enums[ty.enum].variants.values()))
                         for name, ty in system.inputs if ty.kind == "enum"}
        self.solver_calls = 0

    def draw(self, name: str, ty: Ty, last: int | None) -> int:
        r = self.rng
        if name in self.resets:
            active = r.random() < self.reset_rate
            return self.resets[name] if active else 1 - self.resets[name]
        if name in self.variants:
            return r.choice(self.variants[name])
        w = ty.width
        x = r.random()
        if last is not None and x < self.hold:
            return last
        if w == 1:
            return r.getrandbits(1)
        x = r.random()
        if x < 0.4:
            return r.choice((0, 1, mask(w), 1 << (w - 1), mask(w - 1)))
        if x < 0.55:
            return r.randrange(min(16, 1 << w))
        return r.getrandbits(w)

    def requires_hold(self, state: dict, inputs: dict[str, int]) -> list[int]:
        """The indexes of the `requires` that the inputs break in this state."""
        env = dict(state)
        env.update(inputs)
        memo: dict = {}
        return [i for i, r in enumerate(self.sys.requires) if not self.ev.eval(r.expr, env, memo)]

    def choose(self, state: dict, fixed: dict[str, int | None], last: dict[str, int] | None) -> dict[str, int]:
        """Inputs for one cycle: `fixed` values where given (None or absent: random)."""
        free = [(n, ty) for n, ty in self.sys.inputs if fixed.get(n) is None]
        for _ in range(TRIES if free else 1):
            ins = {n: v for n, v in fixed.items() if v is not None}
            for n, ty in free:
                ins[n] = self.draw(n, ty, None if last is None else last.get(n))
            if not self.requires_hold(state, ins):
                return ins
        if not free:
            return ins  # the caller reports which requirement the fixed values break
        return self.solve(state, {n: v for n, v in fixed.items() if v is not None}, free)

    def solve(self, state: dict, fixed: dict[str, int], free: list[tuple[str, Ty]]) -> dict[str, int]:
        """Inputs that meet the requires, from z3, with the state and the fixed inputs given."""
        from ..smt.encode import CycleEncoder, make_vars, truth, bv
        self.solver_calls += 1
        ctx = z3.Context()
        v = make_vars(self.sys, "sim", ctx)
        enc = CycleEncoder(self.sys, v, ctx)
        s = z3.Solver(ctx=ctx)
        s.set("timeout", SOLVER_MS)
        s.set("random_seed", self.rng.randrange(1 << 16))
        for sv in self.sys.state:
            value = state[sv.name]
            if isinstance(value, ArrayValue):
                var = v[sv.name]
                for i in range(min(value.size, 256)):
                    elem = var[i] if isinstance(var, tuple) else z3.Select(var, bv(i, var.domain().size(), ctx))
                    s.add(elem == bv(value.get(i), sv.ty.width, ctx))
            else:
                s.add(v[sv.name] == bv(value, sv.ty.width, ctx))
        for n, ty in self.sys.inputs:
            if n in fixed:
                s.add(v[n] == bv(fixed[n], ty.width, ctx))
        from ..smt.encode import enum_valid
        for n, ty in self.sys.enum_inputs:
            s.add(enum_valid(v[n], ty, self.sys))
        for r in self.sys.requires:
            s.add(truth(enc.enc(r.expr)))
        # A random preference first, so that the values are not always z3's first choice.
        prefs = [v[n] == bv(self.draw(n, ty, None), ty.width, ctx) for n, ty in free
                 if n not in self.resets]
        self.rng.shuffle(prefs)
        for keep in (prefs[: len(prefs) // 2], []):
            if s.check(*keep) == z3.sat:
                m = s.model()
                ins = dict(fixed)
                for n, ty in free:
                    ins[n] = m.eval(v[n], model_completion=True).as_long()
                if not self.requires_hold(state, ins):
                    return ins
        raise NoInputs()
