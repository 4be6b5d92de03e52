"""Verilog and SystemVerilog habits, answered by name: what sysr writes instead (P006).

A syntax error where a Verilog or SystemVerilog construct stands (`always @(posedge clk)`,
`assign`, `logic [7:0]`, `reg [7:0] r;`, `initial`, `parameter`, `#(parameter W = 8)`,
`$clog2`, ...) is reported as P006, whose message names the construct and the sysr form, rather
than as an unexpected token (P001) or character (P002). `word_habit` answers a word the parser
read as a name; `char_habit` a `#`, `$` or `@` the lexer could not read, from the text after it.
The table of reference §10 lists the same forms.
"""

from __future__ import annotations

import re

_SEQ_COMB = ("clocked logic goes in `seq { ... }` (registers take `<=`), combinational logic in "
             "`comb { ... }` or `NAME = expr;`; the reset is implicit (a register's reset value)")
_PORTS = "ports are written `NAME: in TYPE` and `NAME: out TYPE` (`q: out reg TYPE` for a register)"
_DECL = "declare `wire NAME: u8;` (or `wire NAME: u8 = expr;`), or a register `reg NAME: u8 = 0;`"
_PARAMS = ("module parameters are written after the module's name, `module fifo<W: int = 8>(...)`, and "
           "set by an instance, `inst f = fifo<W = 16>(...);`")

STRUCT_FIELDS = ("a struct is `struct Pkt { valid: bool, data: u8 }` at file level, without `typedef` or "
                 "`packed` (it is packed: the first field at the MSB), each field `NAME: TYPE`")

# word -> (language, what sysr writes instead)
WORDS: dict[str, tuple[str, str]] = {
    "always": ("Verilog", _SEQ_COMB),
    "always_ff": ("SystemVerilog", _SEQ_COMB),
    "always_comb": ("SystemVerilog", _SEQ_COMB),
    "always_latch": ("SystemVerilog", "sysr has no latches: " + _SEQ_COMB),
    "assign": ("Verilog", "a continuous assignment is `NAME = expr;` at module level"),
    "logic": ("SystemVerilog", _DECL + "; a one-bit type is `bool`"),
    "integer": ("Verilog", "types have explicit widths: `u32`, `s32`"),
    "bit": ("SystemVerilog", "a one-bit type is `bool`, a vector `uN`"),
    "initial": ("Verilog", "a register's value at power-up goes in its declaration, `reg q: u8 initial 0;`, "
                "or a reset value `reg q: u8 = 0;`; a testbench's stimulus is not part of a design"),
    "parameter": ("Verilog", _PARAMS + "; a constant is `const N: int = 8;`"),
    "localparam": ("Verilog", "a constant is `const N: int = 8;` (at file or module level)"),
    "input": ("Verilog", _PORTS),
    "output": ("Verilog", _PORTS),
    "inout": ("Verilog", "sysr has no bidirectional ports: " + _PORTS),
    "begin": ("Verilog", "blocks use braces, `{ ... }`"),
    "end": ("Verilog", "blocks use braces, `{ ... }`"),
    "endmodule": ("Verilog", "a module's body ends with `}`"),
    "case": ("Verilog", "write `match e { 0 => { ... } 1 | 2 => { ... } _ => { ... } }`"),
    "casez": ("Verilog", "write `match`, or compare the bits that matter: `(x & 0b1100) == 0b0100`"),
    "function": ("Verilog", "a function is `fn name(a: u8) -> u8 { a + 1 }`"),
    "task": ("Verilog", "sysr has no tasks: a `fn` for a value, a `comb` block for logic"),
    "typedef": ("SystemVerilog", "types are declared at file level without `typedef`: an enum is "
                "`enum State { Idle, Busy }` (variants `State::Idle`), a packed struct "
                "`struct Pkt { valid: bool, data: u8 }` (the first field at the MSB; read `p.data`, "
                "build `Pkt { valid: true, data: 0 }`)"),
    "genvar": ("Verilog", "a loop is `for i in 0..N { ... }` with a constant N, in a `comb` or `seq` block"),
    "generate": ("Verilog", "a loop is `for i in 0..N { ... }` with a constant N, in a `comb` or `seq` block"),
    "posedge": ("Verilog", _SEQ_COMB),
    "negedge": ("Verilog", _SEQ_COMB),
}
# The words that stand for a habit only when the parser read them as names (`reg` and `wire`
# are sysr keywords: their Verilog forms are found by what follows them, see `width_habit`).
NAME_WORDS = frozenset(WORDS)

_SYSTEM = {
    "clog2": "`clog2(N)`, on constants (parameters and `int` consts)",
    "signed": "a cast: `x as s8`",
    "unsigned": "a cast: `x as u8`",
    "past": "`prev(x)`, or `prev(x, n)` for `$past(x, n)`, in properties and ghost logic",
    "rose": "`x && !prev(x)`, in properties",
    "fell": "`!x && prev(x)`, in properties",
    "stable": "`x == prev(x)`, in properties",
    "countones": "`popcount(x)`",
    "onehot": "`onehot(x)`",
    "onehot0": "`onehot0(x)`",
}


def message(word: str) -> tuple[str, str]:
    """(message, note) for a Verilog or SystemVerilog word."""
    lang, instead = WORDS[word]
    return f"`{word}` is {lang}, not sysr", instead


def width_habit(keyword: str) -> tuple[str, str]:
    """`reg [7:0] r;` or `wire [7:0] w;`: the width before the name."""
    example = "reg r: u8 = 0;` (a reset value) or `reg r: u8;`" if keyword == "reg" else "wire w: u8;`"
    return (f"`{keyword} [7:0] name` is Verilog, not sysr",
            f"the width goes in the type, after the name: `{example}; an array is `reg m: u8[16];`")


_BOUNDED = ("write the trigger on the left of `==>` and the bounded form on the right: `a |-> ##N b` is "
            "`a ==> next(b, N)`, `a |=> b` is `a ==> next(b)`, `a |-> ##[0:N] b` is `a ==> within(b, N)`, "
            "and `$past(x, n)` is `prev(x, n)`")


def sva_implication(text: str, pos: int) -> tuple[str, str] | None:
    """(message, note) for SVA's `|->` or `|=>` around the token at `pos` (the parser sees `|`
    and then `=>`, or `|`, `-` and `>`)."""
    for op, start in (("|=>", pos - 1), ("|->", pos - 2), ("|->", pos - 1)):
        if start >= 0 and text.startswith(op, start):
            when = "in the same cycle" if op == "|->" else "from the next cycle"
            return f"`{op}` is SystemVerilog's implication ({when}), not sysr", _BOUNDED
    return None


def rust_array(text: str, pos: int) -> tuple[str, str] | None:
    """(message, note) for Rust's array type `[T; N]` starting at the `[` at `pos`."""
    m = re.match(r"\[\s*([^;\[\]]+(?:\[[^\]]*\])?)\s*;\s*([^\]]+?)\s*\]", text[pos:pos + 120])
    if m is None:
        return None
    ty, n = m.group(1).strip(), m.group(2).strip()
    return (f"`[{ty}; {n}]` is Rust's array type, not sysr",
            f"an array's size follows its element type, in a register declaration: `reg m: {ty}[{n}];` "
            "(a register array with a reset value `= INIT`, a memory without)")


def char_habit(text: str, pos: int) -> tuple[str, str] | None:
    """(message, note) for the Verilog form that starts with the `#`, `$` or `@` at `pos`, if any."""
    rest = text[pos:pos + 40]
    if rest.startswith("##"):
        return "`##` is SystemVerilog's cycle delay, not sysr", _BOUNDED
    if re.match(r"#\s*\(", rest):
        return "`#(...)` is Verilog's parameter list, not sysr", _PARAMS
    m = re.match(r"\$([A-Za-z_]\w*)", rest)
    if m and m.group(1) in _SYSTEM:
        return f"`${m.group(1)}` is Verilog, not sysr", f"write {_SYSTEM[m.group(1)]}"
    if rest.startswith("'{"):
        return ("`'{...}` is SystemVerilog's assignment pattern, not sysr",
                "a struct literal names its type and fields, `Pkt { valid: true, data: 5 }`; a concatenation is "
                "`{a, b}`; all bits zero is `0`")
    if rest.startswith("@"):
        return "`@(...)` is Verilog's event control, not sysr", _SEQ_COMB
    return None


def edge_habit(after_at: str) -> str | None:
    """The sysr way for the event list of `always @(...)` that names a falling edge or two
    clocks (§4.1): `seq(falling clk) { ... }`, one `seq(clk)` block per clock. None for a plain
    `posedge clk` (or a clock and a reset), which the general note covers."""
    m = re.match(r"@?\s*\(([^)]*)\)", after_at)
    if m is None:
        return None
    events = re.findall(r"\b(posedge|negedge)\s+([A-Za-z_][A-Za-z0-9_]*)", m.group(1))
    clocks = [(e, n) for e, n in events if not re.search(r"rst|reset|clr|clear", n, re.I)]
    if len(clocks) > 1:
        blocks = " and ".join(f"`seq({'falling ' if e == 'negedge' else ''}{n}) {{ ... }}`" for e, n in clocks)
        return (f"sysr has no block on two clocks: each clock times its own blocks ({blocks}), with the "
                f"ports `{clocks[0][1]}: clock` and `{clocks[1][1]}: clock`; an asynchronous reset is a port "
                "`arst: areset`")
    if clocks and clocks[0][0] == "negedge":
        return (f"clocked logic on the falling edge goes in `seq(falling {clocks[0][1]}) {{ ... }}` (registers take "
                "`<=`); combinational logic in `comb { ... }` or `NAME = expr;`")
    return None
