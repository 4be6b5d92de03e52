"""The front end: text -> syntax tree -> a resolved, typed `Design` and its static diagnostics.

`parse` runs the lark grammar (`grammar.lark`) and builds the `syntax` tree with spans; `check`
resolves names, types and widths and enforces the specification rules; `structure` checks
drivers, latches, combinational loops, clock and reset on the resolved design.
`sysr.pipeline` runs them in that order. Nothing here raises on user input.
"""
