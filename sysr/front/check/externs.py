"""Extern modules: a module whose logic is Verilog that sysr does not write (reference §4.9).

An `extern module` has ports and a contract: `requires`, `ensures`, and the ghost state, ghost
logic and consts its contract needs. Its parents take it through that contract as they take
any child (§6.6): its outputs are free, its `ensures` assumed, its `requires` proven at each
instance. It has nothing to prove of its own and nothing to lower: the Verilog module of its
name is the user's. So its body holds nothing else (A023): no registers, wires or logic, no
instances, no `invariant` or `assert` (they would be about an implementation sysr cannot see),
and its registered outputs take no reset or power-up value (what it does at reset is said by
an `ensures`).
"""

from __future__ import annotations

from .. import syntax as S
from .context import CheckerBase

_CONTRACT_SPECS = ("requires", "ensures")


class Externs(CheckerBase):
    """The rules of an extern module's body and ports (A023)."""

    def extern_rules(self, m: S.Module) -> None:
        if not m.extern:
            return
        for p in m.ports:
            value = p.init if p.init is not None else p.powerup
            if value is not None:
                what = "reset" if p.init is not None else "power-up"
                self.err("A023", f"the registered output `{S.written(p.name)}` of extern module "
                                 f"`{S.written(m.name)}` cannot have a {what} value; its logic is Verilog", value.span,
                         "write `NAME: out reg T`, and state what it holds after a reset in an `ensures` "
                         "(with a ghost register that the reset sets)")
        for item in m.items:
            what = self._not_contract(item)
            if what is not None:
                self.err("A023", f"extern module `{S.written(m.name)}` has a contract and no body: {what} is not "
                                 "allowed in it", item.span,
                         "an extern module holds `requires`, `ensures`, consts and the ghost state and logic "
                         "they read; for a module written in sysr, drop `extern`")

    def _not_contract(self, item) -> str | None:
        """What an item of an extern module is, when it is not part of a contract."""
        if isinstance(item, S.Spec):
            return None if item.kind in _CONTRACT_SPECS else f"`{item.kind}`"
        if isinstance(item, S.ConstDecl):
            return None
        if isinstance(item, (S.RegDecl, S.WireDecl, S.CombBlock, S.SeqBlock)):
            if item.ghost:
                return None
            return {S.RegDecl: "a register", S.WireDecl: "a wire", S.CombBlock: "a `comb` block",
                    S.SeqBlock: "a `seq` block"}[type(item)]
        if isinstance(item, S.ModAssign):
            sig = self.signals.get(item.target)
            return None if sig is not None and sig.ghost else "an assignment to a design signal"
        if isinstance(item, S.InstDecl):
            return "an instance"
        return "this item"
