"""The proof worker of the language server: `python -m sysr.lsp.prove [--depth K] ...`.

Reads a design on standard input, runs `sysr.pipeline.check` (static checks, then the proofs)
and prints its diagnostics as one JSON list (`sysr.lsp.convert.diagnostic_json`). The server
runs it as a separate process so that a new edit can stop a proof at once by ending it.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..pipeline import Options, check
from .convert import diagnostic_json


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sysr.lsp.prove", description=__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=20)
    p.add_argument("--induction", type=int, default=2)
    p.add_argument("--timeout", type=float, default=30.0)
    args = p.parse_args(argv)
    text = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    outcome = check(text, Options(depth=args.depth, induction=args.induction, timeout=args.timeout))
    json.dump([diagnostic_json(d) for d in outcome.diagnostics], sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
