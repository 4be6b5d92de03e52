"""The sysr checker measured on its own, outside any candidate: `seeded` (every seeded bug in
tests/seeded must be rejected with the codes it expects), `smtbmc` (the open formal flow,
Yosys and yosys-smtbmc, on a lowered design) and `crosscheck` (the checker against that flow,
verdict by verdict).

May import: `bench.judge` (runs under limits, tools, tasks), `sysr`, the standard library.
"""
