"""Just enough of Verilog's structure to mutate it: the significant tokens and the statements.

Built on the guard's tokenizer (`bench.verilog.lex`): comments and spaces are dropped, based literals
(`8'hff`, `4'b1010`) become one token, adjacent operator characters the longest operator they
spell (`<=`, `===`, `>>>`). On those tokens `outline` finds what a mutator may touch in a
module: continuous assignments (`assign y = e;`, `wire w = e;`), `localparam` values, and
`always` blocks parsed into statements (blocks, `if`/`else`, `case` items, `for`, procedural
assignments, with the assignment operator told apart from the comparison `<=`). Everything else
(ports, declarations, generate headers, instances) is left alone. A construct it cannot parse
raises `Unparsed`: the mutator then leaves that always block's structure alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .lex import tokens

OPERATORS = sorted(["<<<", ">>>", "===", "!==", "<=", ">=", "==", "!=", "&&", "||", "<<", ">>", "**", "~&", "~|",
                    "~^", "^~", "->", "+:", "-:"], key=len, reverse=True)
KEYWORDS = frozenset("""always assign begin case casex casez default else end endcase endfunction endgenerate
endmodule for function generate genvar if initial input integer localparam module output parameter posedge
negedge reg wire inout signed""".split())


@dataclass(frozen=True)
class Tok:
    kind: str  # ident, number (decimal), based (8'hff), op, system, string, other
    text: str
    start: int  # character offsets in the text
    end: int


def significant(text: str) -> list[Tok]:
    """The tokens that carry meaning, literals and operators whole."""
    raw = [t for t in tokens(text) if t.kind not in ("space", "comment")]
    out: list[Tok] = []
    i = 0
    while i < len(raw):
        t = raw[i]
        nxt = raw[i + 1] if i + 1 < len(raw) else None
        # a based literal: [size] ' [s]base digits, written without spaces
        if t.kind == "char" and t.text == "'" and nxt is not None and nxt.kind in ("ident", "number") \
                and nxt.pos == t.pos + 1 and nxt.text[:1].lower() in "sdhbo":
            start = t.pos
            if out and out[-1].kind == "number" and out[-1].end == t.pos:
                start = out.pop().start
            end = nxt.pos + len(nxt.text)
            j = i + 2
            # hex digits after a decimal-looking piece (`'h0`, `F0`) stay one literal
            while j < len(raw) and raw[j].pos == end and raw[j].kind in ("ident", "number"):
                end = raw[j].pos + len(raw[j].text)
                j += 1
            out.append(Tok("based", text[start:end], start, end))
            i = j
            continue
        if t.kind in ("attr", "attrend"):  # `@(*)` is no attribute: `(` and `*`
            first, second = t.text[0], t.text[1]
            out += [Tok("op", first, t.pos, t.pos + 1), Tok("op", second, t.pos + 1, t.pos + 2)]
            i += 1
            continue
        if t.kind == "char":
            for op in OPERATORS:
                if text.startswith(op, t.pos):
                    n = len(op)
                    if all(k < len(raw) and raw[k].kind == "char" and raw[k].pos == t.pos + (k - i)
                           for k in range(i, i + n)):
                        out.append(Tok("op", op, t.pos, t.pos + n))
                        i += n
                        break
            else:
                out.append(Tok("op", t.text, t.pos, t.pos + 1))
                i += 1
            continue
        kind = {"ident": "ident", "number": "number", "system": "system", "string": "string"}.get(t.kind, "other")
        out.append(Tok(kind, t.text, t.pos, t.pos + len(t.text)))
        i += 1
    return out


class Unparsed(Exception):
    """A statement shape this outline does not know."""


# ---- statements ------------------------------------------------------------------------------

@dataclass
class Stmt:
    kind: str  # block, if, case, for, assign, null
    a: int  # first token
    b: int  # one past the last token
    children: list["Stmt"] = field(default_factory=list)  # block: statements; if: then[, else]; for: body
    cond: tuple[int, int] | None = None  # if, case: the parenthesised expression (inside the parentheses)
    labels: list[tuple[int, int] | None] = field(default_factory=list)  # case: each item's labels (None: default)
    op: int | None = None  # assign: the index of its `=` or `<=`

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


class _Parser:
    def __init__(self, toks: list[Tok]) -> None:
        self.t = toks

    def text(self, i: int) -> str:
        return self.t[i].text if i < len(self.t) else ""

    def close(self, i: int) -> int:
        """The index after the bracket that closes the one at i."""
        pairs = {"(": ")", "[": "]", "{": "}"}
        stack = []
        for j in range(i, len(self.t)):
            x = self.t[j].text if self.t[j].kind == "op" else ""
            if x in pairs:
                stack.append(pairs[x])
            elif stack and x == stack[-1]:
                stack.pop()
                if not stack:
                    return j + 1
        raise Unparsed("unbalanced brackets")

    def head(self, i: int) -> tuple[int, tuple[int, int]]:
        """`( ... )` at i: the index after it, and the range inside."""
        if self.text(i) != "(":
            raise Unparsed(f"expected `(`, found `{self.text(i)}`")
        j = self.close(i)
        return j, (i + 1, j - 1)

    def stmt(self, i: int) -> Stmt:
        w = self.text(i)
        if w == "begin":
            j = i + 1
            if self.text(j) == ":":
                j += 2
            kids = []
            while self.text(j) != "end":
                if j >= len(self.t):
                    raise Unparsed("`begin` without `end`")
                s = self.stmt(j)
                kids.append(s)
                j = s.b
            return Stmt("block", i, j + 1, kids)
        if w == "if":
            j, cond = self.head(i + 1)
            then = self.stmt(j)
            kids = [then]
            end = then.b
            if self.text(end) == "else":
                other = self.stmt(end + 1)
                kids.append(other)
                end = other.b
            return Stmt("if", i, end, kids, cond=cond)
        if w in ("case", "casez", "casex"):
            j, cond = self.head(i + 1)
            kids, labels = [], []
            while self.text(j) != "endcase":
                if j >= len(self.t):
                    raise Unparsed("`case` without `endcase`")
                if self.text(j) == "default":
                    label, j = None, j + 1 + (self.text(j + 1) == ":")
                else:
                    k = j
                    while self.text(k) != ":":
                        k = self.close(k) if self.text(k) in ("(", "[", "{") else k + 1
                        if k >= len(self.t):
                            raise Unparsed("case item without `:`")
                    label, j = (j, k), k + 1
                s = self.stmt(j)
                kids.append(s)
                labels.append(label)
                j = s.b
            return Stmt("case", i, j + 1, kids, cond=cond, labels=labels)
        if w in ("for", "while", "repeat"):
            j, _ = self.head(i + 1)
            body = self.stmt(j)
            return Stmt("for", i, body.b, [body])
        if w == ";":
            return Stmt("null", i, i + 1)
        if self.t[i].kind != "ident" and w != "{":
            raise Unparsed(f"a statement cannot start with `{w}`")
        return self.assignment(i)

    def assignment(self, i: int) -> Stmt:
        j = i
        while self.text(j) not in ("=", "<="):
            if j >= len(self.t) or self.text(j) in (";", "begin", "end"):
                raise Unparsed("a statement that is not an assignment")
            j = self.close(j) if self.text(j) in ("(", "[", "{") else j + 1
        op = j
        j += 1
        while self.text(j) != ";":
            if j >= len(self.t):
                raise Unparsed("an assignment without `;`")
            j = self.close(j) if self.text(j) in ("(", "[", "{") else j + 1
        return Stmt("assign", i, j + 1, op=op)


# ---- the module outline ------------------------------------------------------------------------

@dataclass
class Always:
    a: int
    body: Stmt | None  # None when the body could not be parsed
    clock: str | None  # the posedge signal of a clocked block; None for `always @*`
    end: int


@dataclass
class ContAssign:
    lhs: tuple[int, int]
    rhs: tuple[int, int]
    end: int  # the index after `;` (or after the `,` or `;` ending a net declaration's value)
    net: bool  # `wire w = e;` rather than `assign w = e;`


@dataclass
class Outline:
    toks: list[Tok]
    always: list[Always] = field(default_factory=list)
    assigns: list[ContAssign] = field(default_factory=list)
    params: list[tuple[int, int]] = field(default_factory=list)  # localparam value ranges
    parser: _Parser | None = None


def outline(text: str) -> Outline:
    toks = significant(text)
    p = _Parser(toks)
    out = Outline(toks, parser=p)
    i = 0
    while i < len(toks):
        w = toks[i].text if toks[i].kind in ("ident", "op") else ""
        if w == "always":
            i = _always(p, out, i)
        elif w == "assign":
            j = i + 1
            while j < len(toks) and toks[j].text != "=":
                j += 1
            end = _expr_end(p, j + 1)
            out.assigns.append(ContAssign((i + 1, j), (j + 1, end), end + 1, False))
            i = end + 1
        elif w in ("localparam", "parameter"):
            i = _params(p, out, i)
        elif w == "wire":
            i = _net(p, out, i)
        else:
            i += 1
    return out


def _expr_end(p: _Parser, j: int, stops=(";",)) -> int:
    """The index of the token ending an expression that starts at j (a stop at depth 0)."""
    while j < len(p.t) and p.text(j) not in stops:
        j = p.close(j) if p.text(j) in ("(", "[", "{") else j + 1
    return j


def _always(p: _Parser, out: Outline, i: int) -> int:
    j = i + 1
    clock = None
    if p.text(j) == "@":
        j += 1
        if p.text(j) == "(":
            k, (a, b) = p.head(j)
            words = [p.text(x) for x in range(a, b)]
            if "posedge" in words:
                clock = words[words.index("posedge") + 1]
            j = k
        else:
            j += 1  # always @*
    try:
        body = p.stmt(j)
        out.always.append(Always(i, body, clock, body.b))
        return body.b
    except Unparsed:
        out.always.append(Always(i, None, clock, j))
        return j


def _params(p: _Parser, out: Outline, i: int) -> int:
    j = i + 1
    while j < len(p.t) and p.text(j) != ";":
        if p.text(j) == "=":
            end = _expr_end(p, j + 1, (",", ";"))
            out.params.append((j + 1, end))
            j = end
        else:
            j = p.close(j) if p.text(j) in ("[", "(") else j + 1
    return j + 1


def _net(p: _Parser, out: Outline, i: int) -> int:
    """`wire [r] a = e, b = f;`: each value is a continuous assignment."""
    j = i + 1
    while j < len(p.t) and p.text(j) not in (";", ")"):
        if p.text(j) == "=":
            end = _expr_end(p, j + 1, (",", ";"))
            out.assigns.append(ContAssign((j - 1, j), (j + 1, end), end + 1, True))
            j = end
        elif p.text(j) in ("[", "("):
            j = p.close(j)
        else:
            j += 1
    return j
