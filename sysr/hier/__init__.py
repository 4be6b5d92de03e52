"""Hierarchy: a module's transition system with its instances flattened, or replaced by contracts.

A module with instances has two systems (`sysr.elab.elaborate(design, mode)`):

- `flatten(design)`: the real behaviour. Every instance's logic, state and properties are
  inlined under the instance's name (`u.count`, `u.y`; nested instances `u.v.q`), its inputs
  are the parent's signals `u.x` (driven by the bindings), its clock and reset the parent's.
  This is what the evaluator runs, what traces and VCD files show, what the simulations of
  the differential tests are compared with, and what a parent's counterexample is replayed on.
- `with_contracts(design)`: what the proofs use (`sysr.hier.contract`). Each instance's
  outputs are free in every cycle, constrained only by what its module ensures; what its
  module requires becomes an obligation of this module, at the instance. The child's own
  logic is not in it: each module is proven once, on its own.
"""

from __future__ import annotations

from .contract import with_contracts
from .flat import flatten

__all__ = ["flatten", "with_contracts"]
