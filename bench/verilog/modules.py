"""Modules in Verilog text and in a prompt: what a task gives a candidate to instantiate.

`module_texts` finds each module of a text (from `module` to its `endmodule`), reading it with
the guard's tokenizer so comments and strings never count; `fenced_modules` those written out in
a prompt's ``` fenced blocks (ChipBench gives some submodules in the prompt: the importers take
them for the reference, and the scorer for a sysr candidate's extern modules).
"""

from __future__ import annotations

import re

from .lex import tokens

_FENCE = re.compile(r"^[ \t]*```[^\n]*\n(.*?)^[ \t]*```", re.S | re.M)


def code(text: str):
    """The tokens that are code: no spaces, comments or strings."""
    for t in tokens(text):
        if t.kind not in ("space", "comment"):
            yield t


def module_texts(text: str) -> dict[str, str]:
    """Module name -> its text from `module` to the end of its `endmodule`."""
    out, start, name, after = {}, None, None, False
    for t in code(text):
        if after:
            name, after = t.text, False
        elif t.kind == "ident" and t.text in ("module", "macromodule") and start is None:
            start, after = t.pos, True
        elif t.kind == "ident" and t.text == "endmodule" and start is not None:
            if name:
                out[name] = text[start:t.pos + len("endmodule")]
            start, name = None, None
    return out


def fenced_modules(prompt: str) -> dict[str, str]:
    """The modules written out in the prompt's ``` fenced blocks, by name."""
    out: dict[str, str] = {}
    for block in _FENCE.findall(prompt):
        out.update(module_texts(block))
    return out
