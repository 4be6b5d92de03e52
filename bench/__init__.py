"""bench: the comparative benchmark of sysr against Verilog, one package per job.

Data flows one way; each package says in its docstring what it may import, and
`.importlinter` holds the same layers as contracts that the tests check (tests/test_layers.py):

    cli            every command's arguments (bench score, loop, summary, catch, mutants, suite)
    inspect_eval   the Inspect AI task: the loop's conversation as solver, the judge as scorer
    mutation       the catch rate and the testbench mutation score, both mutators
    suites         importers that turn a user's checkout of an upstream suite into task folders
    report         the score table, summaries, pass@k, the shadow matrix, Inspect logs read as run records
    loop           the write-check-repair conversation, model backends, run records, prompts
    checker        the sysr checker measured on its own: seeded bugs, the yosys-smtbmc cross-check
    judge          a candidate through its stages under limits: tasks, tools, sandbox, results
    verilog        reading Verilog text: the lexer, the outline reader, port facts

A package imports only packages below it (`mutation` and `suites` know nothing of each other,
nor do `loop` and `checker`); the judge imports nothing of its clients, and nothing in `sysr/`
imports `bench/`.
"""
