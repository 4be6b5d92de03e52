"""Elaboration: a checked design -> a transition system over a small typed expression IR.

This is the one place where sysr's cycle semantics are spelled out. Both the z3 encoder
(`sysr.smt.encode`) and the concrete evaluator (`sysr.evaluate`) interpret the IR built here,
operator by operator, so they agree by construction; the lowering is checked against the
evaluator by differential simulation.

Semantics: in cycle t the state (registers, memories, ghost registers, the history registers
behind `prev`) and the inputs determine every wire and output; properties are evaluated on
those values; at the clock edge every register takes its next value, or its reset value when
the reset is active (memories then keep their contents). `fn` calls are inlined, `for` loops
unrolled, quantifiers expanded, comb blocks executed in order, seq blocks with last-write-wins.
An out-of-range read gives 0 and an out-of-range write does nothing; each dynamic index is also
a proof obligation, so a proven design never relies on that.

What elaboration builds is bounded (`sysr.limits`): operations in all (L007), quantifier
instances (L005) and nesting once fns are inlined (L003), each raised as
`sysr.overrun.LimitExceeded` at the construct where the budget ran out.

Asynchronous reset (`areset`, `areset_n`): the state variable of a register is what it stored
at the last edge, and every read of it (logic, properties, ghost logic, `prev`) goes through
`System.visible[name]` = `Ite(reset_active, init, stored)`: while the reset is active the
register reads as its reset value in that same cycle, and it still holds it after the edge
(the next-state function is the same as for a synchronous reset). Memories are never reset. A
property that mentions `prev` is then also skipped in a cycle with the reset active.

Division: `Bin("/")` and `Bin("%")` take two operands of one type and mean Verilog's `/` and
`%` at that width (`sysr.types.op_divide`: unsigned, or signed truncating toward zero with the
remainder taking the dividend's sign). Each division records a `divisor` obligation (the
divisor is not zero wherever the division is evaluated, under the guards of `if`, `match`,
`&&`, `||` and `==>`), since Verilog gives x there; the value of a division by zero follows
SMT-LIB (`bvudiv`, `bvurem`, `bvsdiv`, `bvsrem`) and no proven design reads it.

Instances (the two systems of a module with instances, `elaborate(design, mode)`):

- `flatten(design)` (`sysr.elab.flat`): the real behaviour. Every instance's logic, state and
  properties are inlined under the instance's name (`u.count`, `u.y`; nested instances
  `u.v.q`), its inputs are the parent's signals `u.x` (driven by the bindings), its clock and
  reset the parent's. This is what the evaluator runs, what traces and VCD files show, what the
  simulations of the differential tests are compared with, and what a parent's counterexample
  is replayed on.
- `with_contracts(design)` (`sysr.elab.contract`): what the proofs use. Each instance's
  outputs are free in every cycle, constrained only by what its module ensures; what its
  module requires becomes an obligation of this module, at the instance. The child's own
  logic is not in it: each module is proven once, on its own.

Layout: `ir` (the expression nodes), `system` (the transition system and facts about it),
`exprs` and `stmts` (syntax to IR), `module` (one module's `Elaborator`), `flat` and
`contract` (instances); this package's namespace re-exports their public names.
"""

from __future__ import annotations

from ..front.syntax import mentions_prev, source_snippet
from ..model import Design
from .clocks import Clocking
from .contract import with_contracts
from .exprs import Env
from .flat import flatten
from .ir import (FALSE, TRUE, ArrVar, Bin, BitIdx, Builtin, Cast, Cat, Const, ConstArr, ElabError, Ite, Read,
                 Slice, Store, Un, Var, array_size, children, is_array, mk_and, mk_implies, mk_ite, mk_not,
                 mk_or, postorder)
from .module import Elaborator
from .system import (Prop, StateVar, System, history_depth, induction_depth, pending_default, reset_condition,
                     variant_outputs, variant_registers)

__all__ = [
    "FALSE", "TRUE", "ArrVar", "Bin", "BitIdx", "Builtin", "Cast", "Cat", "Const", "ConstArr", "ElabError",
    "Elaborator", "Env", "Ite", "Prop", "Read", "Slice", "StateVar", "Store", "System", "Un", "Var",
    "array_size", "children", "elaborate", "flatten", "history_depth", "induction_depth", "is_array", "mentions_prev", "mk_and", "mk_implies",
    "mk_ite", "mk_not", "mk_or", "pending_default", "postorder", "reset_condition", "source_snippet",
    "variant_outputs", "variant_registers", "with_contracts",
]


def elaborate(d: Design, mode: str = "flat", edges: bool = True) -> System:
    """The transition system of a module. With instances, `mode` says what they are:
    "flat" (the default) their whole logic, inlined under their names (`u.count`): the module's
    real behaviour, what the evaluator and simulations run; "contract" their contracts only,
    as the proofs use them (`sysr.elab.contract`); "shallow" nothing (their outputs are free
    inputs), as a back end that keeps the hierarchy needs.

    `edges=False` (modes "flat" and "shallow"), for a back end with clock domains of its own
    (`sysr.amaranth`): every register takes its next value in every step, as if each step ended
    with its own domain's edge (`sysr.elab.clocks`: no tick or toggle inputs, no clock levels
    in the state), and a read of a clock is `Var(top clock)`; which domain a register is in is
    `Design.domains`, through the hierarchy `sysr.elab.clocks.register_domains`."""
    clocks = None if edges else (Clocking(), {c: c for c in d.clocks})
    if not d.instances or mode == "shallow":
        return Elaborator(d, clocks=clocks).system()
    return flatten(d, clocks) if mode == "flat" else with_contracts(d)
