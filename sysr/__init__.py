"""sysr: a small hardware description language whose designs state what they promise.

The pipeline runs one way: text -> `front` (parse to a syntax tree, then names, types,
specification rules and structure) -> `smt` (proofs with z3) -> diagnostics, and `lower` ->
Verilog text. `pipeline` runs the stages; `cli` is the command line.
"""

__version__ = "0.1.0"
