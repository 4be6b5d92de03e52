"""What the prover decides about each property (`Verdict`), and the query that a property fails
(`Goal`), shared by its bounded checks (`sysr.smt.prove`) and induction (`sysr.smt.induction`).
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from .. import elab as E
from ..diagnostics import Diagnostic, Trace


class VerifierBug(Exception):
    """The verifier contradicted itself (e.g. a trace that does not replay): a bug in sysr."""


@dataclass
class Verdict:
    prop: E.Prop
    status: str = "proven"  # proven, refuted, not-inductive, unknown
    depth: int = 0
    time_s: float = 0.0
    trace: Trace | None = None
    diag: Diagnostic | None = None


class Goal:
    """Whether any of `props` (pairs of a verdict and its term at the goal cycle) fails there.

    The contract of that cycle (the instances' contracts and the known facts) is assumed for
    every property but an instance's requirement: an instance ensures what it ensures in a cycle
    only if its requirements held in that cycle, so proving one of them with it would be circular
    (docs/reference.md, "Hierarchy"). The early contracts, which hold whatever the cycle's inputs,
    are among the assumptions for all (`Prover.full_cycle`). The negations are made here, before
    the unrolling the query needs, so that a query without instances is built term for term as
    it always was (z3's search depends on the order terms are made in); `wrap` puts even one
    negation in an `Or`, as the queries over several properties do."""

    def __init__(self, props: list, wrap: bool = True) -> None:
        self.verdicts = [v for v, _ in props]  # (the terms are not kept: z3 reuses the numbers of
        self.wrap = wrap                        # freed terms, and its search follows them)
        plain = [z3.Not(term) for v, term in props if v.prop.kind != "instance"]
        self.owed = [z3.Not(term) for v, term in props if v.prop.kind == "instance"]
        self.any_plain = self._any(plain) if plain else None

    def _any(self, negations: list):
        return negations[0] if len(negations) == 1 and not self.wrap else z3.Or(negations)

    def query(self, contract: list) -> tuple[list, object]:
        """(terms to assume, goal)."""
        if not self.owed:
            return list(contract), self.any_plain
        owed = list(self.owed)
        if self.any_plain is not None:
            owed.append(z3.And(list(contract) + [self.any_plain]))
        return [], self._any(owed)

    def failed(self, model, contract: list, term_of) -> list:
        """The verdicts whose property the model breaks (for one that may use the contract, in a
        run where the contract holds). `term_of(verdict)` makes the property's term again (as the
        checker always has, so that later queries see the same terms made in the same order)."""
        holds = all(z3.is_true(model.eval(c, model_completion=True)) for c in contract)
        return [v for v in self.verdicts if z3.is_false(model.eval(term_of(v), model_completion=True))
                and (holds or v.prop.kind == "instance")]
