"""bench: the comparative benchmark of sysr against Verilog (tasks, scorer, loop, summaries)."""
