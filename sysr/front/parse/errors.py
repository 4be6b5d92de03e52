"""Syntax errors as diagnostics: lark's exceptions to one P-code diagnostic each, naming what was
expected and, for habits from other languages (Verilog, SystemVerilog, C), the sysr way.
"""

from __future__ import annotations

import re

import lark
from lark import Token

from ...diagnostics import Diagnostic, error
from .. import habits
from .. import syntax as S
from .grammar import _parser
from .rules import _tok_span

# How terminals are shown in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "an integer literal", "HOLE": "a hole `?name`",
    "STRUCT_OPEN": "a struct literal",
    "$END": "end of file",
}


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    try:
        pattern = _parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    if isinstance(pattern, lark.lexer.PatternStr):
        return f"`{pattern.value}`"
    if pattern.value.endswith(r"\b"):  # a keyword
        return f"`{pattern.value[:-2]}`"
    return terminal.lower()


_EXPR_START = {"NAME", "INT", "LPAR", "HOLE"}
_OPERATORS = {"`+`", "`-`", "`*`", "`/`", "`%`", "`&`", "`|`", "`^`", "`<<`", "`>>`", "`==`", "`!=`", "`<`",
              "`<=`", "`>`", "`>=`", "`&&`", "`||`", "`==>`", "`as`", "`[`"}
_EXPR_TOKENS = {"`!`", "`~`", "`-`", "`(`", "`{`", "`true`", "`false`", "`match`", "`if`",
                "`forall`", "`exists`", "a name", "an integer literal", "a hole `?name`",
                "a struct literal"}


def _expected(names) -> str:
    """Say what the parser wanted, grouping operators and expression starts into words."""
    names = set(names)
    words = {_describe(n) for n in names}
    out = []
    if _EXPR_START <= names:
        words -= _EXPR_TOKENS
        out.append("an expression")
    ops = words & _OPERATORS
    if len(ops) >= 3:
        words -= _OPERATORS | {"`(`", "`::`", "`.`"}  # after a name: a call, a path or an instance port, rarely what was meant
        out.append("an operator")
    out = sorted(words, key=lambda w: (w[1:2].isalpha(), w)) + out  # punctuation first
    if len(out) > 8:
        out = out[:8] + ["..."]
    if len(out) > 1:
        return ", ".join(out[:-1]) + " or " + out[-1]
    return out[0] if out else "something else"


_STATEMENT = ("`{}` is a statement: at module level put it inside `comb {{ ... }}` or `seq {{ ... }}`; "
              "in a fn, use `if c then a else b`")
_WORD_HINTS = {
    **{w: _STATEMENT.format(w) for w in ("if", "for", "match", "let")},
    "process": "there is no `process`: clocked logic goes in `seq { ... }`, combinational logic in `comb { ... }`",
    **{w: "declare a wire, `wire NAME: TYPE;`, or a register, `reg NAME: TYPE = INIT;`" for w in ("signal", "var")},
    "return": "a fn body ends with its result, written without `return`: `fn f(a: u8) -> u8 { a + 1 }`",
    "elif": "write `else if`",
    "elsif": "write `else if`",
    "while": "the only loop is `for i in 0..N { ... }` with a constant N",
    "loop": "the only loop is `for i in 0..N { ... }` with a constant N",
    **{w: f"`{w}` declarations go at file level, outside every module (a `const` may be in either)"
       for w in ("enum", "fn", "struct")},
}


_HABITS = {w: habits.message(w) for w in habits.NAME_WORDS}  # Verilog words: P006 (sysr.front.habits)


def _written_raw(tok: Token, text: str) -> bool:
    """Whether a name token was written as a raw identifier (`r#match`)."""
    return tok.start_pos is not None and text.startswith("r#", tok.start_pos)


def _misused_word(e: lark.UnexpectedToken, text: str) -> Token | None:
    """A keyword of sysr or of another HDL that the parser read as a name, just before the error
    (unless the file declares it as a name: `always: in bool` is a fine port)."""
    history = getattr(e, "token_history", None) or []
    prev = history[-1] if history else None
    if prev is None or prev.type != "NAME" or _written_raw(prev, text):
        return None
    if str(prev) not in _WORD_HINTS and str(prev) not in _HABITS:
        return None
    if re.search(rf"\b{prev}\s*:(?!:)", text):
        return None
    return prev


def _context_hint(e: lark.UnexpectedToken, text: str) -> tuple[str, ...]:
    """A note on the likely intent behind a syntax error, for habits from other languages."""
    tok, words = e.token, {_describe(n) for n in e.expected}
    history = getattr(e, "token_history", None) or []
    prev = history[-1] if history else None
    if (prev is not None and prev.type != "NAME" and str(prev) in S.RAW_KEYWORDS
            and (str(tok) in ("=", "<=", ":") or re.search(rf"\b{prev}\s*:(?!:)", text))):
        return (f"`{prev}` is a keyword here; a name spelled like it is written `r#{prev}`",)
    if (tok.type == "NAME" and str(tok) in _WORD_HINTS and not _written_raw(tok, text)
            and not re.search(rf"\b{tok}\s*:(?!:)", text)):
        return (_WORD_HINTS[str(tok)],)
    if tok.type == "HOLE" and str(tok) == "?" and "`;`" in words:
        return ("there is no `c ? a : b`: write `if c then a else b` (`?` starts a hole)",)
    if prev is not None and prev.type == "_FOR":
        return ("loops are written `for i in 0..N { ... }` with a constant N",)
    if str(tok) == "<=" and words == {"`=`"}:
        return ("`<=` assigns registers inside `seq { ... }`; at module level write `NAME = expr;`",)
    if str(tok) in ("+:", "-:"):  # an indexed part-select as a target (§3.5: reads only)
        return ("`x[b +: W]` is read only; to write W bits at a variable position, write the whole "
                "signal: `r <= (r & ~(MASK << b)) | ((v as uN) << b);`",)
    if words == {"`::`"}:
        return ("enum variants are written with their enum, e.g. `Op::Add`",)
    if str(tok) == "." and prev is not None and str(prev) == "]":
        return ("an element of an array is assigned whole: `m[i] <= S { f: v, ..m[i] };` sets one field",)
    if str(tok) == "." and words == {"`=`"}:
        return ("a field is assigned in a `comb` block after the whole signal, `comb { y = e; y.f = v; }`; at "
                "module level build the whole value, `y = S { f: v, ... };`",)
    return ()


_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}


def _chained_comparison(tok: Token, expected) -> bool:
    """Whether a comparison operator came where operators are allowed but comparisons are not."""
    words = {_describe(n) for n in expected}
    return str(tok) in _COMPARISONS and "`&&`" in words and "`==`" not in words


_CHAR_HINTS = {
    "'": "sized literals are written with a suffix: `0xffu8`, not `8'hff`",
    "$": "there are no system functions: cast with `as` (`x as s8`); `prev(x)` is the previous value in specs",
    "@": "there is no `always @(...)`: clocked logic goes in `seq { ... }`, combinational logic in `comb { ... }`",
    "#": "there are no delays and no preprocessor",
    "\"": "there are no strings",
}


def _end_of_file(text: str, expected) -> Diagnostic:
    """P003 at the end of the last line that holds something, saying what is missing."""
    body = text.rstrip()
    line = body.count("\n") + 1
    col = len(body.rsplit("\n", 1)[-1]) + 1
    span = S.Span(line, col, line, col + 1)
    words = {_describe(n) for n in expected}
    for closer in ("`}`", "`)`", "`]`"):
        if closer in words:
            return error("P003", f"unexpected end of file: a closing {closer} is missing", span)
    return error("P003", f"unexpected end of file; expected {_expected(expected)}", span)


def _token_text(tok: Token, text: str) -> str:
    if tok.type == "$END":
        return "end of file"
    return f"`r#{tok}`" if _written_raw(tok, text) else f"`{tok}`"


def unexpected_token(e: lark.UnexpectedToken, text: str) -> Diagnostic:
    """P001 (P003 at the end of the file) for a token the grammar does not allow there."""
    tok = e.token
    try:  # the precise set, after the reductions the LALR table would make
        e.expected = e.interactive_parser.accepts() or e.expected
    except Exception:  # pragma: no cover - fall back to the table's set
        pass
    if tok.type == "$END":
        return _end_of_file(text, e.expected)
    span = _tok_span(tok)
    habit = _habit(e, text)
    if habit is not None:
        return habit
    word = _misused_word(e, text)
    if word is not None:
        return error("P001", f"`{word}` cannot be used here", _tok_span(word), _WORD_HINTS[str(word)])
    if _chained_comparison(tok, e.expected):
        return error("P001", f"comparisons do not chain: unexpected `{tok}` after a comparison", span,
                     "write `a < b && b < c` for a range, or add parentheses to compare a "
                     "comparison's result, `(a == b) == c`")
    binding = _binding_hint(e, text)
    if binding is not None:
        return binding
    hint = _context_hint(e, text)
    return error("P001", f"unexpected {_token_text(tok, text)}; expected {_expected(e.expected)}", span, *hint)


def _habit(e: lark.UnexpectedToken, text: str) -> Diagnostic | None:
    """P006 for a Verilog or SystemVerilog form at the error: a Verilog word read as a name just
    before it or as the unexpected token (unless the file declares that name), or `reg [7:0]`."""
    tok = e.token
    history = getattr(e, "token_history", None) or []
    prev = history[-1] if history else None
    for t in (prev, tok):
        if (t is not None and t.type == "NAME" and str(t) in _HABITS and not _written_raw(t, text)
                and not re.search(rf"\b{t}\s*:(?!:)", text)):
            note = _HABITS[str(t)][1]
            if re.search(r"\bstruct\s+packed\b", text[:t.start_pos or 0]):  # `struct packed { logic v; ... }`
                note = habits.STRUCT_FIELDS
            return error("P006", *_HABITS[str(t)][:1], _tok_span(t), note)
    sva = habits.sva_implication(text, tok.start_pos) if str(tok) in ("=>", ">", "-") else None
    if sva is not None:
        return error("P006", sva[0], _tok_span(tok), sva[1])
    if prev is not None and prev.type in ("REG", "WIRE") and str(tok) == "[":
        msg, note = habits.width_habit(str(prev))
        return error("P006", msg, _tok_span(prev), note)
    rust = habits.rust_array(text, tok.start_pos) if str(tok) == "[" else None
    if rust is not None:
        return error("P006", rust[0], _tok_span(tok), rust[1])
    return None


def _binding_hint(e: lark.UnexpectedToken, text: str) -> Diagnostic | None:
    """P001 naming `port: expr` for an instance's port bound with `=` or Verilog's `.port(expr)`."""
    tok = e.token
    before = text[max(0, (tok.start_pos or 0) - 300):tok.start_pos or 0]
    if str(tok) not in ("=", ".") or not re.search(r"\binst\s+\w+\s*=\s*\w+\s*(<[^>]*>)?\s*\([^)]*$", before):
        return None
    return error("P001", f"unexpected `{tok}` in an instance's port list", _tok_span(tok),
                 "an instance binds each input by name with a colon, `inst u = sub(clk: clk, a: x);`, "
                 "and reads an output as `u.y`")


def unexpected_character(e: lark.UnexpectedCharacters, text: str) -> Diagnostic:
    """P002 for a character no token starts with (P006 for a Verilog form that starts with it,
    `#(`, `$clog2`, `always @(...)`)."""
    span = S.Span(e.line, e.column, e.line, e.column + 1)
    ch = text[e.pos_in_stream] if 0 <= e.pos_in_stream < len(text) else "?"
    before = re.search(r"(\w+)\s*$", text[max(0, e.pos_in_stream - 40):e.pos_in_stream])
    if ch == "@" and before and before.group(1) in _HABITS:  # `always @(posedge clk)`
        note = habits.edge_habit(text[e.pos_in_stream:e.pos_in_stream + 200]) or _HABITS[before.group(1)][1]
        return error("P006", _HABITS[before.group(1)][0], span, note)
    found = habits.char_habit(text, e.pos_in_stream) if ch in "#$@'" else None
    if found is not None and not (ch == "#" and text[max(0, e.pos_in_stream - 1)] == "r"):
        return error("P006", found[0], span, found[1])
    shown = ch if ch.isprintable() else repr(ch)[1:-1]
    hint = (_CHAR_HINTS[ch],) if ch in _CHAR_HINTS else ()
    if ch == "#" and text[max(0, e.pos_in_stream - 1)] == "r":
        hint = ("a raw identifier is `r#` followed by a name, e.g. `r#match`",)
    return error("P002", f"unexpected character `{shown}`; it is not part of sysr's syntax here", span, *hint)


def unexpected_input(e: lark.UnexpectedInput) -> Diagnostic:  # pragma: no cover - other lark input errors
    """P001 for any other input lark rejects."""
    line = getattr(e, "line", 1) or 1
    col = getattr(e, "column", 1) or 1
    return error("P001", f"syntax error: {e}", S.Span(line, col, line, col + 1))
