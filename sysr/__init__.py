"""sysr: a small hardware description language whose designs state what they promise.

The pipeline runs one way: text -> `parse` -> syntax tree -> `check` (names, types, structure,
spec rules) -> `smt` (proofs with z3) -> diagnostics, and `lower` -> Verilog text.
"""

__version__ = "0.1.0"
