"""The write-check-repair loop: a model writes a design, the judge scores it, the model is told
what failed and tries again.

`conversation` is one sample's conversation (`attempts`), `runs` a run over tasks and samples
with its folder, `extract` takes the code out of a reply, `records` are the run records
(run.json), `models/` the backends (registered by name, imported lazily), `prompts/` what each
language is told, `sections` which sections of the compact reference a task's sysr prompt
carries.

May import: `bench.judge`, `bench.verilog`, `sysr` (its parser, diagnostics and explanations),
the standard library and the dependencies.
"""
