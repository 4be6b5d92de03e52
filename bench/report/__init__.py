"""Reports over results and run records: `scores` (the table and `--json` of `bench score`),
`summary` (the tables of `bench summary`), `cost` (tokens weighted as a user pays them), `passk`
(the pass@k estimator), `shadow` (the checker-versus-testbench matrix of sysr attempts),
`inspect_log` (an Inspect eval log read as a run record), `rtl_report` (the rtl_report.json
contract as models) and `rtl_from_bench` (runs written as that report).

May import: `bench.loop` (its records), `bench.judge`, the standard library and the dependencies.
"""
