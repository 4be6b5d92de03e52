"""The Pygments lexer (`sysr.highlight`), registered as `sysr` through an entry point.

`pygmentize -l sysr` from the venv highlights a task reference's keywords, types, literals,
comments and properties, and a stub's holes; raw identifiers (`r#match`) are names and the
asynchronous reset kinds port kinds; every ```sysr block of docs/reference.md, every task file and
example lexes without an error token, except the examples of malformed input
(P002, P004), where the bad characters are error tokens.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name, Number, Comment, Operator

from sysr.highlight import SysrLexer

ROOT = Path(__file__).resolve().parent.parent
PYGMENTIZE = Path(sys.executable).parent / "pygmentize"
SOURCES = sorted(ROOT.glob("tasks/*/*.sysr")) + sorted(ROOT.glob("examples/*.sysr"))


def pygmentize_raw(path: Path) -> list[tuple[str, str]]:
    """(token type, text) pairs from `pygmentize -l sysr -f raw`."""
    r = subprocess.run([str(PYGMENTIZE), "-l", "sysr", "-f", "raw", str(path)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = []
    for line in r.stdout.splitlines():
        kind, _, text = line.partition("\t")
        out.append((kind, ast.literal_eval(text)))  # raw format: the token type, a tab, the repr
    return out


def test_pygmentize_highlights_a_task_reference():
    tokens = pygmentize_raw(ROOT / "tasks" / "fifo" / "ref.sysr")
    kinds = {}
    for kind, text in tokens:
        kinds.setdefault(text, set()).add(kind)
    for word in ("seq", "if", "for", "in"):
        assert kinds[word] == {"Token.Keyword"}, word
    for word in ("module", "reg", "ghost", "clock", "reset"):
        assert kinds[word] == {"Token.Keyword.Declaration"}, word
    for word in ("requires", "ensures", "invariant", "forall"):
        assert kinds[word] == {"Token.Keyword.Pseudo"}, word
    for word in ("u8", "u3", "u4", "bool"):
        assert kinds[word] == {"Token.Keyword.Type"}, word
    assert kinds["fifo"] == {"Token.Name.Function"} and kinds["8"] == {"Token.Literal.Number.Integer"}
    assert kinds["==>"] == {"Token.Operator"}
    assert any(k == "Token.Comment.Single" and "first-word fall-through" in t for k, t in tokens)
    assert not [t for k, t in tokens if k.startswith("Token.Error")]
    assert "".join(t for _, t in tokens) == (ROOT / "tasks" / "fifo" / "ref.sysr").read_text()


def test_holes_of_a_stub_are_highlighted():
    tokens = pygmentize_raw(ROOT / "tasks" / "fifo" / "stub.sysr")
    holes = [t for k, t in tokens if k == "Token.Name.Variable.Magic"]
    assert holes and all(h.startswith("?") for h in holes)


def test_the_lexer_is_registered_by_name_and_file_name():
    assert isinstance(get_lexer_by_name("sysr"), SysrLexer)
    assert isinstance(get_lexer_for_filename("fifo.sysr"), SysrLexer)


def lex(text: str) -> list[tuple[object, str]]:
    return list(SysrLexer().get_tokens(text))


def test_keywords_used_as_names_are_names():
    tokens = lex("module pwm(clk: clock, rst: reset, out: out bool) { out = in; }")
    outs = [k for k, t in tokens if t == "out"]
    assert outs == [Name, Keyword.Declaration, Name]


def test_raw_identifiers_are_names_and_asynchronous_resets_are_port_kinds():
    tokens = [(k, t) for k, t in lex("module m(clk: clock, areset: areset, n: areset_n, r#match: out u8) {\n"
                                     "  r#match = r#seq / 3 % r#fn(r#in);\n  ensures areset ==> r#E::r#if;\n}")
              if t.strip()]
    assert not [t for k, t in tokens if k in Error]
    assert [k for k, t in tokens if t == "r#match"] == [Name, Name]
    assert (Name, "r#seq") in tokens and (Name, "r#in") in tokens and (Name, "r#fn") in tokens
    assert (Name.Class, "r#E") in tokens and (Name.Constant, "r#if") in tokens
    assert [k for k, t in tokens if t == "areset"] == [Name, Keyword.Declaration, Name]
    assert (Keyword.Declaration, "areset_n") in tokens
    assert (Operator, "/") in tokens and (Operator, "%") in tokens
    assert [k for k, t in lex("fn r#fn() -> u8 { ?r#x }") if t in ("r#fn", "?r#x")] == [Name.Function,
                                                                                       Name.Variable.Magic]
    assert [t for k, t in lex("r# x; a#b") if k in Error] == ["#", "#"]  # `#` is not a name's


def test_an_instance_names_its_module_like_a_module_declaration():
    tokens = [(k, t) for k, t in lex("module c(x: in u8, y: out u8) { y = x; }\n"
                                     "module m(a: in u8, y: out u8) {\n  inst u = c(x: a);\n  y = u.y;\n}")
              if t.strip()]
    assert not [t for k, t in tokens if k in Error]
    assert [k for k, t in tokens if t == "c"] == [Name.Function, Name.Function]
    assert (Keyword.Declaration, "inst") in tokens and (Name, "u") in tokens


def test_literals_keep_their_suffix_and_paths_their_parts():
    tokens = [(k, t) for k, t in lex("y = 0x0fu12 + 0b1010u4 + 1_000s16 + E::A;") if t.strip()]
    assert (Number.Hex, "0x0fu12") in tokens and (Number.Bin, "0b1010u4") in tokens
    assert (Number.Integer, "1_000s16") in tokens
    assert (Name.Class, "E") in tokens and (Operator, "::") in tokens and (Name.Constant, "A") in tokens
    tokens = lex("/* a * b\n c */ x")
    assert "".join(t for k, t in tokens if k == Comment.Multiline) == "/* a * b\n c */"
    assert (Name, "x") in tokens


def reference_blocks() -> list[tuple[int, str]]:
    text = (ROOT / "docs" / "reference.md").read_text()
    return [(text[:m.start()].count("\n") + 2, m.group(1))
            for m in re.finditer(r"^```sysr\n(.*?)^```$", text, re.S | re.M)]


MALFORMED = ("// expect: P002", "// expect: P004")  # examples of characters and literals sysr lacks


@pytest.mark.parametrize("line,block", reference_blocks(), ids=lambda v: str(v) if isinstance(v, int) else "")
def test_every_reference_block_lexes_without_error_tokens(line, block):
    errors = [t for k, t in lex(block) if k in Error]
    if block.startswith(MALFORMED):
        assert errors, "a malformed example shows its bad characters as errors"
    elif block.startswith("// expect: P006"):
        pass  # a Verilog form: with `@`, `#` or `$` (shown as errors) or without
    else:
        assert not errors, f"docs/reference.md line {line}: error tokens {errors}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_task_file_and_example_lexes_without_error_tokens(path):
    assert not [t for k, t in lex(path.read_text()) if k in Error]
