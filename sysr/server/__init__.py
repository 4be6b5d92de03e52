"""The check server: a process that has already imported sysr and z3 and forks a child per check.

A cold `sysr check` spends most of its time starting Python and importing sysr, lark and z3; the
work on a small design is a fraction of it. `sysr server start` keeps one process that has done
all that; `sysr check` (the `bin/sysr` command, `python -m sysr`) hands its command to it when one
runs for this checkout, and runs in its own process exactly as before when none does.

- `place`: where a server's socket lives and the key that names it (a hash of the sysr package's
  files, the interpreter and the environment that could change a result), so a changed checkout
  never reaches an old server;
- `client`: the small part in every `sysr` command (imports nothing heavy before it decides);
- `daemon`: the server's loop: one forked child per request, supervised;
- `child`: what a child does before it runs the command: the client's descriptors, directory,
  environment and limits;
- `control`: `sysr server start|stop|status|run`.

`python -m sysr.cli`, which the benchmark runs, never looks for a server: only `python -m sysr`
(`sysr/__main__.py`) does.
"""
