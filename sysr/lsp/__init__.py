"""The sysr language server, a thin shell over the checker for editors: `sysr lsp`.

It speaks the Language Server Protocol over standard input and output (pygls): the checker's
diagnostics with their codes, severities and ranges as you type (static checks at once,
proofs after a pause or on save, in a process that a new edit ends), hover for the type and
width of a name, and go to definition. `server` has the protocol side, `symbols` what a name
refers to, `convert` spans and diagnostics in LSP terms, `prove` the proof worker.
"""

from __future__ import annotations


def main() -> int:
    from .server import main as serve
    return serve()
