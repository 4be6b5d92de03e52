"""The judge: one candidate through its stages (the sysr checker and lowering, the guard, Yosys,
Icarus) under limits, to a result record.

`score` holds the stages and the `Scorer`; `tasks` reads task folders; `tools` finds each tool in
one place; `run` bounds a run in time, memory and output; `sandbox` and `session` are the
bubblewrap sandbox a candidate's tools share; `guard` and `dialect` say what Verilog a candidate
may write and how each task's Verilog is read; `simulate` and `verdicts` make the testbench's
verdict unforgeable and read it; `detail` bounds what is shown; `cache` keeps results;
`results` are the records; `probe` reads ports and runs a testbench outside a scoring run.

May import: `bench.verilog`, `sysr` (its version), the standard library and the dependencies.
Never a client (`loop`, `mutation`, `suites`, `report`, `inspect_eval`, `checker`, `cli`).
"""
