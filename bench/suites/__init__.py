"""Upstream suites imported as task folders: one importer per suite, reading a user's checkout.

`verilogeval` (VerilogEval v2) and `chipbench` (ChipBench) find the problems of their layouts
(`bench.suites.problem`); `build` turns each into a task folder the scorer reads like `tasks/`
and validates it by scoring its own reference; `facts` and `stub` give its sysr condition;
`text` holds the token-level edits of upstream Verilog; `importer` runs it all for
`bench suite import`. Nothing from an upstream checkout is part of this project: the task
folders are written where the user says, from the checkout the user has.
"""
