"""Mutation: the checker's catch rate on slips in correct designs (`catch`) and the strength of
each task's testbench (`mutants`: the mutation score), with the two mutators (`mutate_sysr` on
the syntax tree, `mutate_verilog` on the tokens) and what they share (`sites`).

May import: `bench.judge`, `bench.verilog`, `bench.checker` (the yosys-smtbmc runner),
`bench.loop` (run records), `bench.report` (Inspect logs), `sysr`.
"""
