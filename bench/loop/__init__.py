"""The write-check-repair loop: a model writes a design, the judge scores it, the model is told
what failed and tries again.

`conversation` is one sample's conversation (`attempts`), `runs` a run over tasks and samples
with its folder, `extract` takes the code out of a reply, `records` are the run records
(run.json), `models/` the backends (registered by name, imported lazily), `prompts/` what each
language is told.

May import: `bench.judge`, `bench.verilog`, the standard library and the dependencies.
"""
