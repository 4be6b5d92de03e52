"""Token-level edits of upstream Verilog for the importers: module names, renaming, macros.

Everything here reads the text with the guard's tokenizer (`bench.verilog.lex`), so comments and
strings are never touched and an identifier is only ever a whole token:

- `module_names`: the modules a file defines, in order;
- `rename`: every identifier token of a mapping replaced (module definitions, instantiations);
- `defines` and `macros_used`: a file's `` `define `` directives (with their continuation
  lines) and the macros it expands, so that `needed_defines` can give a reference the defines it
  uses but takes from its testbench;
- `fenced_modules`: the modules written out in a prompt's fenced code blocks (ChipBench gives
  some submodules in the prompt and its reference instantiates them without defining them).
"""

from __future__ import annotations

import re

from ..verilog.lex import tokens
from ..verilog.modules import code as _code, fenced_modules, module_texts  # noqa: F401 (module_texts: for importers)

# Compiler directives, which are not macros (IEEE 1800 section 22 and Icarus's own).
DIRECTIVES = frozenset("""
begin_keywords celldefine default_nettype define else elsif end_keywords endcelldefine endif ifdef
ifndef include line nounconnected_drive pragma resetall timescale unconnected_drive undef
undefineall default_decay_time default_trireg_strength delay_mode_distributed delay_mode_path
delay_mode_unit delay_mode_zero __FILE__ __LINE__
""".split())



def module_names(text: str) -> list[str]:
    names, after = [], False
    for t in _code(text):
        if after:
            if t.kind in ("ident", "escaped"):
                names.append(t.text)
            after = False
        elif t.kind == "ident" and t.text in ("module", "macromodule"):
            after = True
    return names


def identifiers(text: str) -> set[str]:
    return {t.text for t in _code(text) if t.kind == "ident"}


def rename(text: str, mapping: dict[str, str]) -> str:
    """The text with every identifier token in `mapping` replaced."""
    return "".join(mapping.get(t.text, t.text) if t.kind == "ident" else t.text for t in tokens(text))


def defines(text: str) -> dict[str, str]:
    """Macro name -> the whole `define directive (continuation lines included), in file order."""
    out: dict[str, str] = {}
    for t in tokens(text):
        if t.kind == "directive" and t.text == "`define":
            end = t.pos
            while True:
                nl = text.find("\n", end)
                if nl < 0:
                    end = len(text)
                    break
                if text[max(0, nl - 2):nl].rstrip("\r").endswith("\\"):
                    end = nl + 1
                    continue
                end = nl
                break
            directive = text[t.pos:end]
            m = re.match(r"`define\s+([A-Za-z_][A-Za-z0-9_$]*)", directive)
            if m:
                out[m.group(1)] = directive
    return out


def macros_used(text: str) -> set[str]:
    """The macros a text expands (`NAME), compiler directives aside."""
    return {t.text[1:] for t in tokens(text) if t.kind == "directive" and t.text[1:] not in DIRECTIVES}


def needed_defines(text: str, source: str) -> list[str]:
    """The `define directives of `source` that `text` needs and does not define itself, with the
    macros those use in turn, in source's order."""
    given, own = defines(source), defines(text)
    want, seen = [m for m in macros_used(text) if m not in own], set()
    while want:
        name = want.pop()
        if name in seen or name not in given:
            continue
        seen.add(name)
        want += [m for m in macros_used(given[name]) if m not in own]
    return [d for name, d in given.items() if name in seen]


def provided_modules(reference: str, prompt: str) -> list[str]:
    """The texts of the prompt's modules that the reference instantiates without defining them
    (and those they instantiate in turn)."""
    given = fenced_modules(prompt)
    defined = set(module_names(reference))
    chosen: list[str] = []
    todo = [reference]
    while todo:
        used = identifiers(todo.pop())
        for name, body in given.items():
            if name in used and name not in defined and name not in chosen:
                chosen.append(name)
                todo.append(body)
    return [given[n] for n in chosen]
