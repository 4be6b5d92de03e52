"""Modules in Verilog text and in a prompt: what a task gives a candidate to instantiate.

`module_texts` finds each module of a text (from `module` to its `endmodule`), reading it with
the guard's tokenizer so comments and strings never count; `fenced_modules` those written out in
a prompt's ``` fenced blocks (ChipBench gives some submodules in the prompt: the importers take
them for the reference, and the scorer for a sysr candidate's extern modules).
"""

from __future__ import annotations

import re

from .lex import tokens

_FENCE_LINE = re.compile(r"[ \t]*```")


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
    for block in fenced_blocks(prompt):
        out.update(module_texts(block))
    return out


def fenced_blocks(text: str) -> list[str]:
    """The bodies of the text's ``` fenced blocks: a line starting with ``` (after blanks, and
    followed by a newline) opens one, the next such line closes it. One pass over the lines, so
    the time is plainly linear in the size of a checkout's (untrusted) prompt."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines) - 1:
        if _FENCE_LINE.match(lines[i]):
            close = next((j for j in range(i + 1, len(lines)) if _FENCE_LINE.match(lines[j])), None)
            if close is None:
                break  # no later fence line: no later block either
            out.append("".join(line + "\n" for line in lines[i + 1:close]))
            i = close + 1
        else:
            i += 1
    return out
