"""A Pygments lexer for sysr, registered as `sysr` (`pygmentize -l sysr FILE`).

The entry point in pyproject.toml (`pygments.lexers`) makes it available to every
Pygments-based tool once sysr is installed: `pygmentize`, Sphinx and MkDocs code fences
tagged `sysr`, and so on. Token kinds: keywords (`Keyword` for control flow and blocks,
`Keyword.Declaration` for declarations and port kinds), the property keywords `requires`,
`ensures`, `invariant`, `assert`, `forall`, `exists` (`Keyword.Pseudo`), types `bool`,
`uN`, `sN` (`Keyword.Type`), literals with their suffixes (`Number.*`, `Keyword.Constant`
for `true`/`false`), builtins, `prev`, and `next` and `within` where called (`Name.Builtin`), holes `?name` (`Name.Variable.Magic`),
comments, operators (`/` and `%` among them) and punctuation. A character sysr does not have
(`$`, `'`, `#` outside a raw identifier, `"`, `@`) is an `Error` token, as it is a P002 for the
checker. A name is a `Name`: a raw identifier `r#match` is one token, and so is a keyword used as
a name (sysr reserves keywords only where the grammar expects them: a port may be named `out`,
and `areset: areset` names an asynchronous reset `areset`). The port kinds `clock`, `reset`,
`reset_n`, `areset` and `areset_n` are declarations, like `reg` and `out`, and so are `extern`,
`initial` (a power-up value) and `inst`
(`inst u = counter(...)`: `counter` is a `Name.Function`, as in its `module counter`).
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, Whitespace

from .types import BUILTINS

CONTROL = ("if", "then", "else", "match", "for", "in", "comb", "seq", "as")
DECLARATIONS = ("module", "reg", "wire", "let", "fn", "const", "enum", "struct", "ghost", "out", "clock",
                "reset", "reset_n", "areset", "areset_n", "inst", "extern", "initial")
PROPERTIES = ("requires", "ensures", "invariant", "assert", "cover", "forall", "exists")
SUFFIX = r"(?:[us][0-9]+)?"
# Keywords are reserved only where the grammar expects them (a port may be named `out`): a
# keyword that is declared (`out: out bool`), assigned, indexed or compared is a name.
USED_AS_NAME = r"\b(?=\s*(?::(?!:)|=(?![=>])|<=|\[|;|==|!=|&&|\|\|))"
NAME = r"(?:r#)?[A-Za-z_]\w*"  # a name, or a raw identifier (`r#match`: the name `match`)


class SysrLexer(RegexLexer):
    """sysr, the hardware description language whose designs state what they promise."""

    name = "sysr"
    aliases = ["sysr"]
    filenames = ["*.sysr"]
    mimetypes = ["text/x-sysr"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"//[^\n]*", Comment.Single),
            (r"/\*", Comment.Multiline, "comment"),
            (rf"(module|fn)(\s+)({NAME})", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (rf"(enum)(\s+)({NAME})", bygroups(Keyword.Declaration, Whitespace, Name.Class)),
            (rf"(inst)(\s+)({NAME})(\s*)(=)(\s*)({NAME})",  # an instance: the module's name as a module's
             bygroups(Keyword.Declaration, Whitespace, Name, Whitespace, Operator, Whitespace, Name.Function)),
            (rf"({NAME})(::)({NAME})", bygroups(Name.Class, Operator, Name.Constant)),
            (r"r#[A-Za-z_]\w*", Name),
            (words(CONTROL + DECLARATIONS + PROPERTIES, suffix=USED_AS_NAME), Name),
            (words(PROPERTIES, suffix=r"\b"), Keyword.Pseudo),
            (words(DECLARATIONS, suffix=r"\b"), Keyword.Declaration),
            (words(CONTROL, suffix=r"\b"), Keyword),
            (words(("true", "false"), suffix=r"\b"), Keyword.Constant),
            (r"(?:bool|[us][0-9]+)\b", Keyword.Type),
            (words(BUILTINS + ("prev",), suffix=r"\b"), Name.Builtin),
            (words(("next", "within"), suffix=r"(?=\s*\()"), Name.Builtin),  # only called: a wire may be `next`
            (r"0x[0-9a-fA-F_]+" + SUFFIX + r"\b", Number.Hex),
            (r"0b[01_]+" + SUFFIX + r"\b", Number.Bin),
            (r"[0-9][0-9_]*" + SUFFIX + r"\b", Number.Integer),
            (rf"\?(?:{NAME})?", Name.Variable.Magic),
            (r"[A-Za-z_]\w*", Name),
            (r"==>|=>|==|!=|<=|>=|<<|>>|&&|\|\||\.\.|[-+*/%&|^~!<>=]", Operator),
            (r"[{}()\[\],;:.]", Punctuation),
            (r".", Error),
        ],
        "comment": [
            (r"[^*]+", Comment.Multiline),
            (r"\*/", Comment.Multiline, "#pop"),
            (r"\*", Comment.Multiline),
        ],
    }

