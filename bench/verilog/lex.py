"""A Verilog tokenizer for the guard: one pass, linear time, the lexical rules the compilers use.

Every character of the text belongs to exactly one token, found by one master regular
expression whose alternatives never backtrack over more than the token they match: comments
(`//` to the end of the line, `/*` to the first `*/` or to the end of the text), string literals
(to the closing quote or the end of the line), escaped identifiers (`\\` to the next space, tab
or newline, so `\\hide/*` is one identifier and no comment), system names (`$display`),
compiler directives (`` `define ``), identifiers, attribute brackets `(*` `*)` `{*` `*}`, and
single characters.

`scan(text, words)` is the fast form the guard uses: runs of plain code that cannot matter to it
(spaces, identifiers other than `words`, digits, operators and brackets that open no comment or
attribute, strings of printable ASCII without a backslash or backtick) come back as one `code`
token, so 2 MB of text cost about a second at worst; a word of `words` comes back as a `word`
token. `tokens(text)` gives every token on its own.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cache

_IDENT = r"[A-Za-z_][A-Za-z0-9_$]*"
_PARTS = {
    "comment": r"//[^\n]*|/\*(?s:.*?)\*/|/\*(?s:.*)",
    "string": r'"[^"\\\n]*(?:\\(?s:.)[^"\\\n]*)*"?',
    "escaped": r"\\[^ \t\r\n]*",
    "system": r"\$[A-Za-z0-9_$]+",
    "directive": r"`" + _IDENT,
    "attr": r"\(\*|\{\*",
    "attrend": r"\*\)|\*\}",
}
_CHAR = r"(?P<char>(?s:.))"
_TOKEN = re.compile("|".join([r"(?P<space>[ \t\n]+)", *(f"(?P<{k}>{v})" for k, v in _PARTS.items()),
                              rf"(?P<number>\d[\d_]*)", rf"(?P<ident>{_IDENT})", _CHAR]))


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # code, word, space, comment, string, escaped, system, directive, number, ident, attr, attrend, char
    text: str
    pos: int


def tokens(text: str, pos: int = 0):
    """Every token of the text from `pos`, one by one, lazily; their texts concatenate to text[pos:]."""
    for m in _TOKEN.finditer(text, pos):
        yield Token(m.lastgroup, m.group(), m.start())


def blank(text: str, kinds: frozenset[str] = frozenset({"comment"})) -> str:
    """The text with every token of `kinds` (comments by default) replaced by spaces, its newlines
    kept: offsets and line numbers stay those of the text."""
    return "".join(re.sub(r"[^\n]", " ", t.text) if t.kind in kinds else t.text for t in tokens(text))


@cache
def _scanner(words: frozenset[str]) -> re.Pattern[str]:
    alts = "|".join(sorted(words))
    word = rf"(?:{alts})(?![A-Za-z0-9_$])"
    plain = (rf"[ \t\n]+|(?!{word}){_IDENT}|[0-9]+|[;,=+\-<>!&|^~?:\[\]@#%')}}]|\"[ !#-\[\]-_a-~]*\""
             r"|\((?!\*)|\{(?!\*)|\*(?![)}])|/(?![/*])")
    return re.compile("|".join([f"(?P<code>(?:{plain})+)", f"(?P<word>{word})",
                                *(f"(?P<{k}>{v})" for k, v in _PARTS.items()), _CHAR]))


def scan(text: str, words: frozenset[str]):
    """(kind, text, pos) for every token of the text, plain code in runs (see the module doc)."""
    for m in _scanner(words).finditer(text):
        yield m.lastgroup, m.group(), m.start()


class Lines:
    """Offsets to 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def __len__(self) -> int:
        return len(self.starts)

    def line(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos)
