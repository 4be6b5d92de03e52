"""Source-level mutation of Verilog designs: the same kinds of slips as `bench.mutation.mutate_sysr`.

The baseline of the catch rate. Mutants are edits of the original text on its tokens
(`bench.verilog.parse`, on the guard's tokenizer `bench.verilog.lex`), so comments and layout survive and
the diff shows the one change. What is touched: continuous assignments (`assign`, `wire w = e`),
`localparam` values, and the statements of `always` blocks, as `bench.verilog.parse` outlines them;
declarations, ports and generate headers never are. The operators are those of sysr's mutator,
on Verilog's syntax:

- `operator`, `comparison`, `constant` (integer literals off by one in their base and width,
  skipping values that do not fit the width; sizes and replication counts are not touched),
  `negate` (an `if` condition, a `?:` condition), `swap-branches` (`if`/`else`, `?:`),
  `swap-conditions` (`if`/`else if`, chained `?:`), `swap-arms` (neighbouring `case` items'
  statements), `drop-assign`, `dup-assign`, `index` (constant bit index, part-select moved by
  one keeping its width, `x[i]` as `x[i + 1]`), `reset` (a value assigned in the reset branch of
  a clocked block), `late` (a continuous assignment registered, with the design's clock and
  reset, reset value 0), `early` (a register written once, unconditionally, made a wire).

The reset branch of a clocked block (`if (rst) ...` first in it) is only touched by `reset`:
sysr's reset is implicit, so dropping or moving a reset assignment is a slip sysr cannot make,
and leaving it out keeps the two languages' slips alike. `mutant_stream(text, seed)` gives the
mutants in the order of `bench.mutation.ordered`; whether one is well-formed is for Yosys to say
(`bench.mutation.catch`).
"""

from __future__ import annotations

import re
from typing import Iterator

from .sites import Candidate, Site, candidates
from ..verilog.parse import KEYWORDS, Always, Outline, Stmt, Tok, Unparsed, outline

SWAPS = {"+": ("-",), "-": ("+",), "*": ("+",), "&": ("|", "^"), "|": ("&", "^"), "^": ("|", "&"),
         "<<": (">>",), ">>": ("<<",), "&&": ("||",), "||": ("&&",)}
COMPARISONS = {"==": ("!=",), "!=": ("==",), "<": ("<=", ">"), "<=": ("<", ">="), ">": (">=", "<"),
               ">=": (">", "<=")}
_BASED = re.compile(r"^(\d*)\s*'([sS]?)([dDhHbBoO])([0-9a-fA-F_]+)$")
_BASES = {"d": 10, "h": 16, "b": 2, "o": 8}
_RESET_WORDS = ("rst", "reset")


def _literal(tok: Tok, delta: int) -> str | None:
    """The literal `tok` with its value moved by delta, in its own base and width; None when
    the result would be negative or not fit the width."""
    if tok.kind == "number":
        v = int(tok.text.replace("_", "")) + delta
        return str(v) if v >= 0 else None
    m = _BASED.match(tok.text)
    if not m:
        return None  # x or z digits
    size, sign, base, digits = m.groups()
    radix = _BASES[base.lower()]
    v = int(digits.replace("_", ""), radix) + delta
    if v < 0 or (size and v >= 1 << int(size)):
        return None
    body = {10: str(v), 16: format(v, "x"), 2: format(v, "b"), 8: format(v, "o")}[radix]
    if radix != 10:
        body = body.rjust(len(digits.replace("_", "")), "0")
        if any(c.isupper() for c in digits):
            body = body.upper()
    return f"{size}'{sign}{base}{body}"


class _Sites:
    def __init__(self, text: str, o: Outline) -> None:
        self.text = text
        self.o = o
        self.t = o.toks
        self.out: list[Site] = []

    # -- edits
    def line(self, i: int) -> int:
        return self.text.count("\n", 0, self.t[i].start) + 1

    def span(self, a: int, b: int) -> str:
        """The text of tokens a..b-1, as written."""
        return self.text[self.t[a].start:self.t[b - 1].end] if b > a else ""

    def add(self, operator: str, at: int, edits: list[tuple[int, int, str]], what: str) -> None:
        text = self.text

        def make() -> str:
            out = text
            for s, e, new in sorted(edits, key=lambda x: -x[0]):
                out = out[:s] + new + out[e:]
            return out

        self.out.append(Site(operator, self.line(at), what, make))

    def replace(self, a: int, b: int, new: str) -> tuple[int, int, str]:
        return (self.t[a].start, self.t[b - 1].end, new)

    def indent(self, i: int) -> str:
        start = self.text.rfind("\n", 0, self.t[i].start) + 1
        head = self.text[start:self.t[i].start]
        return head if head.isspace() or not head else re.match(r"\s*", head).group()

    # -- expressions
    def operand_end(self, k: int, a: int) -> bool:
        if k <= a:
            return False
        p = self.t[k - 1]
        return p.kind in ("ident", "number", "based", "string") and p.text not in KEYWORDS \
            or p.text in (")", "]", "}")

    def expr(self, a: int, b: int, role: str = "logic") -> None:
        """Sites in the expression tokens a..b-1."""
        t = self.t
        for k in range(a, b):
            x = t[k]
            if x.kind in ("number", "based"):
                if self.select_literal(k) or (k > a and t[k - 1].text == "{" and k + 1 < b and t[k + 1].text == "{"):
                    continue
                op = "reset" if role == "reset" else "constant"
                for d in (1, -1):
                    new = _literal(x, d)
                    if new is not None:
                        self.add(op, k, [self.replace(k, k + 1, new)], f"`{x.text}` -> `{new}`")
            elif x.kind == "op" and role == "logic":
                if x.text in SWAPS or x.text in COMPARISONS:
                    if not self.operand_end(k, a):
                        continue  # unary (negation, reduction)
                    table, name = (COMPARISONS, "comparison") if x.text in COMPARISONS else (SWAPS, "operator")
                    for new in table[x.text]:
                        self.add(name, k, [self.replace(k, k + 1, new)], f"`{x.text}` -> `{new}`")
                elif x.text == "?":
                    self.ternary(k, a, b)
                elif x.text == "[" and self.operand_end(k, a):
                    self.index(k)

    def select_literal(self, k: int) -> bool:
        """Whether the literal at k is a whole bit index or a part-select bound."""
        t = self.t
        before, after = t[k - 1].text if k else "", t[k + 1].text if k + 1 < len(t) else ""
        return (before == "[" and after in ("]", ":")) or (before == ":" and after == "]")

    def index(self, k: int) -> None:
        """`x[3]` off by one, `x[7:4]` moved by one, `x[i]` as `x[i + 1]`."""
        t = self.t
        end = self.o.parser.close(k)
        inner = list(range(k + 1, end - 1))
        if len(inner) == 1 and t[inner[0]].kind in ("number", "based"):
            for d in (1, -1):
                new = _literal(t[inner[0]], d)
                if new is not None:
                    self.add("index", k, [self.replace(inner[0], inner[0] + 1, new)],
                             f"`[{t[inner[0]].text}]` -> `[{new}]`")
        elif len(inner) == 3 and t[inner[1]].text == ":" and all(t[i].kind == "number" for i in (inner[0], inner[2])):
            for d in (1, -1):
                hi, lo = _literal(t[inner[0]], d), _literal(t[inner[2]], d)
                if hi is not None and lo is not None:
                    self.add("index", k, [self.replace(inner[0], inner[0] + 1, hi), self.replace(inner[2], inner[2] + 1, lo)],
                             f"`[{t[inner[0]].text}:{t[inner[2]].text}]` -> `[{hi}:{lo}]`")
        elif len(inner) == 1 and t[inner[0]].kind == "ident":
            name = t[inner[0]].text
            self.add("index", k, [self.replace(inner[0], inner[0] + 1, f"{name} + 1")], f"`[{name}]` -> `[{name} + 1]`")

    def ternary(self, q: int, a: int, b: int) -> None:
        """`c ? x : y`: the condition negated, the branches swapped, a chained condition swapped."""
        t = self.t
        start = q  # the condition reaches back to the bracket, comma or `?`/`:` around it
        while start > a and t[start - 1].text not in ("(", ",", "{", "?", ":"):
            start -= 1
            if t[start].text in (")", "]", "}"):
                start = self._open(start, a)
        colon = self._colon(q + 1, b)
        if colon is None or start >= q:
            return
        end = self._else_end(colon + 1, b)
        cond, then, other = self.span(start, q), self.span(q + 1, colon), self.span(colon + 1, end)
        self.add("negate", q, [self.replace(start, q, f"!({cond})")], f"condition `{cond}` negated")
        self.add("swap-branches", q, [self.replace(q + 1, colon, other), self.replace(colon + 1, end, then)],
                 f"branches of `{cond} ? ...` swapped")
        q2 = next((k for k in range(colon + 1, end) if t[k].text == "?" and self._depth(colon + 1, k) == 0), None)
        if q2 is not None:
            c2 = self._colon(q2 + 1, end)
            if c2 is not None:
                cond2, then2 = self.span(colon + 1, q2), self.span(q2 + 1, c2)
                self.add("swap-conditions", q,
                         [self.replace(start, q, cond2), self.replace(q + 1, colon, then2),
                          self.replace(colon + 1, q2, cond), self.replace(q2 + 1, c2, then)],
                         f"`{cond} ?` and `{cond2} ?` swapped")

    def _open(self, close: int, a: int) -> int:
        """The index of the bracket that the one at `close` closes."""
        depth = 0
        for k in range(close, a - 1, -1):
            if self.t[k].text in (")", "]", "}"):
                depth += 1
            elif self.t[k].text in ("(", "[", "{"):
                depth -= 1
                if depth == 0:
                    return k
        return a

    def _depth(self, a: int, k: int) -> int:
        d = 0
        for i in range(a, k):
            d += self.t[i].text in ("(", "[", "{")
            d -= self.t[i].text in (")", "]", "}")
        return d

    def _colon(self, a: int, b: int) -> int | None:
        """The `:` that belongs to the `?` just before a."""
        return self._ternary_scan(a, b, colon=True)

    def _else_end(self, a: int, b: int) -> int:
        """Where the else-branch starting at a ends: an unmatched `:` or closing bracket, `,`, `;`."""
        return self._ternary_scan(a, b, colon=False)

    def _ternary_scan(self, a: int, b: int, colon: bool) -> int | None:
        nest, d = 0, 0
        for k in range(a, b):
            x = self.t[k].text
            if x in ("(", "[", "{"):
                d += 1
            elif x in (")", "]", "}"):
                if d == 0 and not colon:
                    return k
                d -= 1
            elif d == 0 and not colon and x in (",", ";"):
                return k
            elif d == 0 and x == "?":
                nest += 1
            elif d == 0 and x == ":":
                if nest == 0:
                    return k
                nest -= 1
        return None if colon else b

    # -- statements
    def targets(self, s: Stmt) -> set[str]:
        out = set()
        for x in s.walk():
            if x.kind == "assign":
                out |= {self.t[i].text for i in range(x.a, x.op) if self.t[i].kind == "ident"
                        and self._depth(x.a, i) <= (1 if self.t[x.a].text == "{" else 0)}
        return out

    def stmt_text(self, s: Stmt) -> str:
        return self.span(s.a, s.b)

    def wrapped(self, s: Stmt) -> str:
        """A statement's text, in `begin ... end` when it is an `if` (so no `else` moves to it)."""
        text = self.stmt_text(s)
        return f"begin {text} end" if s.kind == "if" else text

    def statements(self, s: Stmt, parent: Stmt | None, outer: Stmt | None, reset: bool = False) -> None:
        """Sites in a statement; `outer` is the if/case in a block that holds it, for dup-assign."""
        if s.kind == "block":
            for i, c in enumerate(s.children):
                self.statements(c, s, outer, reset)
                if c.kind == "assign" and not reset and i + 1 < len(s.children):
                    nxt = s.children[i + 1]
                    if self.targets(c) & self.targets(nxt):
                        self.insert_after(nxt, c, "dup-assign", f"`{self.stmt_text(c)}` repeated after the next statement")
            return
        if s.kind == "assign":
            if reset:
                self.expr(s.op + 1, s.b - 1, "reset")
                return
            self.lvalue(s)
            self.expr(s.op + 1, s.b - 1)
            text = self.stmt_text(s)
            gone = "" if parent is not None and parent.kind == "block" else ";"
            self.add("drop-assign", s.a, [self.replace(s.a, s.b, gone)], f"`{text}` dropped")
            if outer is not None:
                self.insert_after(outer, s, "dup-assign", f"`{text}` repeated after its enclosing `{self.t[outer.a].text}`")
            return
        if reset:
            for c in s.children:
                self.statements(c, s, outer, reset)
            return
        holder = outer if outer is not None else (s if parent is not None and parent.kind == "block" else None)
        if s.kind == "if":
            a, b = s.cond
            cond = self.span(a, b)
            self.expr(a, b)
            self.add("negate", s.a, [self.replace(a, b, f"!({cond})")], f"condition `{cond}` negated")
            if len(s.children) == 2:
                then, other = s.children
                self.add("swap-branches", s.a, [self.replace(then.a, then.b, self.wrapped(other)),
                                                self.replace(other.a, other.b, self.wrapped(then))],
                         f"then and else of `if ({cond})` swapped")
                if other.kind == "if":
                    a2, b2 = other.cond
                    then2 = other.children[0]
                    self.add("swap-conditions", s.a,
                             [self.replace(a, b, self.span(a2, b2)), self.replace(then.a, then.b, self.wrapped(then2)),
                              self.replace(a2, b2, cond), self.replace(then2.a, then2.b, self.wrapped(then))],
                             f"`if ({cond})` and `else if ({self.span(a2, b2)})` swapped")
            for c in s.children:
                self.statements(c, s, holder)
        elif s.kind == "case":
            self.expr(*s.cond)
            for i in range(len(s.children) - 1):
                x, y = s.children[i], s.children[i + 1]
                self.add("swap-arms", x.a, [self.replace(x.a, x.b, self.wrapped(y)), self.replace(y.a, y.b, self.wrapped(x))],
                         f"statements of case items {self._label(s, i)} and {self._label(s, i + 1)} swapped")
            for label in s.labels:
                if label is not None:
                    self.expr(*label)
            for c in s.children:
                self.statements(c, s, holder)
        elif s.kind == "for":
            body = s.children[0]
            # the start and the bound, not the step: a wrong step never ends the loop, a slip
            # sysr's `for i in A..B` cannot make
            semis = [k for k in range(s.a + 2, body.a - 1) if self.t[k].text == ";"]
            self.expr(s.a + 2, semis[1] if len(semis) == 2 else body.a - 1)
            self.statements(body, s, holder)

    def _label(self, s: Stmt, i: int) -> str:
        label = s.labels[i]
        return "`default`" if label is None else f"`{self.span(*label)}`"

    def lvalue(self, s: Stmt) -> None:
        for k in range(s.a, s.op):
            if self.t[k].text == "[" and self.operand_end(k, s.a):
                self.index(k)

    def insert_after(self, after: Stmt, s: Stmt, operator: str, what: str) -> None:
        end = self.t[after.b - 1].end
        self.add(operator, s.a, [(end, end, "\n" + self.indent(after.a) + self.stmt_text(s))], what)


# ---- the reset branch, and logic moved by a cycle -------------------------------------------------

def _reset_if(s: _Sites, alw: Always) -> Stmt | None:
    """The `if (rst)` (or `if (!rst_n)`) that a clocked block starts with."""
    body = alw.body
    first = body.children[0] if body is not None and body.kind == "block" and body.children else body
    if first is None or first.kind != "if":
        return None
    words = [s.t[i].text.lower() for i in range(*first.cond) if s.t[i].kind == "ident"]
    return first if len(words) == 1 and any(w in words[0] for w in _RESET_WORDS) else None


def _declaration(s: _Sites, name: str) -> tuple[int, str, bool] | None:
    """Where `name` is declared: (index of its `reg`/`wire` keyword or -1, its range text, alone)."""
    t = s.t
    for d, x in enumerate(t):
        if x.kind != "ident" or x.text != name:
            continue
        k, rng = d - 1, ""
        if k >= 0 and t[k].text == "]":
            start = s._open(k, 0)
            rng = s.span(start, k + 1) + " "
            k = start - 1
        while k >= 0 and t[k].text == "signed":
            k -= 1
        if k >= 0 and t[k].text in ("reg", "wire", "input", "output", "inout"):
            alone = d + 1 < len(t) and (t[d + 1].text in (";", ")") or
                                        (t[d + 1].text == "," and d + 2 < len(t) and t[d + 2].text in
                                         ("input", "output", "inout")))
            return (k if t[k].text in ("reg", "wire") else -1), rng, alone
    return None


def _cycles(s: _Sites) -> None:
    clocked = [(a, _reset_if(s, a)) for a in s.o.always if a.clock and a.body is not None]
    clocked = [(a, r) for a, r in clocked if r is not None]
    if not clocked:
        return
    alw, rst = clocked[0]
    reset_cond = s.span(*rst.cond)
    taken = {x.text for x in s.t if x.kind == "ident"}
    for ca in s.o.assigns:
        a, b = ca.lhs
        if b - a != 1 or s.t[a].kind != "ident":
            continue
        name = s.t[a].text
        decl = _declaration(s, name)
        if decl is None:
            continue
        reg = f"{name}_late"
        while reg in taken:
            reg += "_"
        stmt_start = a - 1 if not ca.net else _decl_start(s, a)
        pad = s.indent(stmt_start)
        rhs = s.span(*ca.rhs)
        before = f"reg {decl[1]}{reg};\n{pad}"
        after = (f"\n{pad}always @(posedge {alw.clock}) if ({reset_cond}) {reg} <= 0; else {reg} <= {rhs};")
        decl_end = s.t[_stmt_end(s, ca.end - 1)].end
        s.add("late", a, [(s.t[stmt_start].start, s.t[stmt_start].start, before), s.replace(*ca.rhs, reg),
                          (decl_end, decl_end, after)], f"`{name}` registered: one cycle late")
    _early(s, alw, rst)


def _stmt_end(s: _Sites, k: int) -> int:
    """The index of the `;` that ends the declaration or assignment holding token k."""
    while k < len(s.t) and s.t[k].text != ";":
        k += 1
    return min(k, len(s.t) - 1)


def _decl_start(s: _Sites, k: int) -> int:
    """The `wire` keyword of the net declaration holding token k."""
    while k > 0 and s.t[k].text != "wire":
        k -= 1
    return k


def _early(s: _Sites, alw: Always, rst: Stmt) -> None:
    """A register written once, unconditionally (besides its reset), made a wire."""
    if len(rst.children) != 2 or rst.children[1].kind != "block":
        return
    main = rst.children[1]
    writes: dict[str, list[Stmt]] = {}
    for a in s.o.always:
        if a.body is None:
            continue
        for x in a.body.walk():
            if x.kind == "assign":
                for name in s.targets(x):
                    writes.setdefault(name, []).append(x)
    reset_writes = {name: x for x in rst.children[0].walk() if x.kind == "assign" for name in s.targets(x)}
    for x in main.children:
        if x.kind != "assign" or x.op - x.a != 1:
            continue
        name = s.t[x.a].text
        others = [w for w in writes.get(name, []) if w is not x and w is not reset_writes.get(name)]
        decl = _declaration(s, name)
        if others or decl is None or not decl[2] or any(ca for ca in s.o.assigns if s.t[ca.lhs[0]].text == name):
            continue
        kw, _, _ = decl
        edits = [s.replace(x.a, x.b, "")]
        if kw >= 0:
            edits.append(s.replace(kw, kw + 1, "wire"))
        else:  # an `output reg` port
            d = next(i for i, t in enumerate(s.t) if t.text == name)
            k = next(i for i in range(d, -1, -1) if s.t[i].text == "reg")
            edits.append(s.replace(k, k + 1, "wire"))
        if name in reset_writes:
            r = reset_writes[name]
            edits.append(s.replace(r.a, r.b, ""))
        end = s.t[alw.end - 1].end
        edits.append((end, end, f"\n{s.indent(alw.a)}assign {name} = {s.span(x.op + 1, x.b - 1)};"))
        s.add("early", x.a, edits, f"`{name}` combinational: one cycle early")


# ---- the mutants -------------------------------------------------------------------------------

def sites(text: str) -> list[Site]:
    """Every mutation the design offers, in source order."""
    o = outline(text)
    s = _Sites(text, o)
    for a, b in o.params:
        s.expr(a, b)
    for ca in o.assigns:
        s.expr(*ca.rhs)
    for alw in o.always:
        if alw.body is None:
            continue
        rst = _reset_if(s, alw) if alw.clock else None
        if rst is not None:
            s.statements(rst.children[0], rst, None, reset=True)
            for c in rst.children[1:]:
                s.statements(c, rst, None)
            body = alw.body
            if body.kind == "block":
                for c in body.children[1:]:
                    s.statements(c, body, None)
        else:
            s.statements(alw.body, None, None)
    try:
        _cycles(s)
    except Unparsed:
        pass
    return s.out


def mutant_stream(text: str, seed: int = 1) -> tuple[Iterator[Candidate], int]:
    """The mutants of a design in the seed's order, and how many sites it has."""
    all_sites = sites(text)
    return candidates(text, all_sites, seed, "design.v"), len(all_sites)
