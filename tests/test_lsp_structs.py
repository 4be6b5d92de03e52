"""The language server on packed structs: hover shows a struct's type with its fields and
their bits, and go-to-definition goes from a field (read, set in a literal, assigned, declared)
to its declaration in the struct, and from a struct's name to the struct."""

from __future__ import annotations

import pytest

from sysr.lsp.symbols import symbol_at
from test_lsp import position
from sysr.pipeline import analyze

DESIGN = """\
struct Hdr { kind: u2, len: u4 }
struct Pkt { valid: bool, hdr: Hdr, data: s8 }
module m(clk: clock, rst: reset, p: in Pkt, y: out s8) {
  reg r: Pkt = Pkt { valid: false, hdr: Hdr { kind: 0, len: 1 }, data: -1 };
  seq { r <= Pkt { valid: true, ..p }; r.hdr.len <= 3; }
  y = r.data;
}
"""
PKT = ("struct `Pkt` (15 bits, the first field at the MSB): valid: bool [14], hdr: Hdr [13:8], "
       "data: s8 [7:0]")
LEN = "field `len` of struct `Hdr`, bits [3:0]: `u4` (4 bits, unsigned)"


def at(line: int, needle: str, nth: int = 0) -> tuple[int, int]:
    return position(DESIGN, line, needle, nth)


@pytest.mark.parametrize("where,text,definition", [
    (at(3, "Pkt"), PKT, at(2, "Pkt")),                        # a type in a port
    (at(5, "Pkt"), PKT, at(2, "Pkt")),                        # a literal's type
    (at(2, "Pkt"), PKT, at(2, "Pkt")),                        # the declaration
    (at(6, "data"), "field `data` of struct `Pkt`, bits [7:0]: `s8` (8 bits, signed)", at(2, "data")),
    (at(5, "valid"), "field `valid` of struct `Pkt`, bits [14]: `bool` (1 bit)", at(2, "valid")),
    (at(5, "len"), LEN, at(1, "len")),                        # a field of a field, assigned
    (at(5, "hdr"), "field `hdr` of struct `Pkt`, bits [13:8]: `Hdr` (struct, 6 bits: kind [5:4], len [3:0])",
     at(2, "hdr")),
    (at(4, "len"), LEN, at(1, "len")),                        # set in a nested literal
    (at(1, "len"), LEN, at(1, "len")),
    (at(4, "r:"), "register `r`: `Pkt` (struct, 15 bits: valid [14], hdr [13:8], data [7:0]), reset value "
                  "`Pkt { valid: 0, hdr: Hdr { kind: 0, len: 1 }, data: -1 }`", at(4, "r:")),
])
def test_the_symbol_under_a_position(where, text, definition):
    d = analyze(DESIGN).design
    sym = symbol_at(d, *where, DESIGN)
    assert sym is not None and sym.text == text
    assert (sym.definition.line, sym.definition.column) == definition
