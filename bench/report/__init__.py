"""Reports over results and run records: `scores` (the table and `--json` of `bench score`),
`summary` (the tables of `bench summary`), `passk` (the pass@k estimator), `shadow` (the
checker-versus-testbench matrix of sysr attempts) and `inspect_log` (an Inspect eval log read as
a run record).

May import: `bench.loop` (its records), `bench.judge`, the standard library and the dependencies.
"""
