"""Verilog names for the lowering: the reserved words, and a table that hands out unique names.

Source names are kept where Verilog allows them. A name that is a Verilog-2005 reserved word
gets a `_` suffix (`output` -> `output_`); a name already taken gets `_1`, `_2`, ... The table
is filled in a fixed order (ports, then the other signals, then consts and enum variants, then
generated names in order of first appearance), so the output is deterministic and source names
win over generated ones.
"""

from __future__ import annotations

# The reserved words of IEEE 1364-2005 (Verilog-2005), Annex B, and those of SystemVerilog
# (IEEE 1800-2017, Annex B) that tools reserve even in Verilog-2005 mode (Icarus 11 rejects a
# signal named `logic` under -g2005), and the words Icarus 11 reserves beyond the standards in
# every mode: `bool`, `wone`, `wreal`. Together: every word that Icarus (-g2005 or -g2012) or
# Yosys (read_verilog, with or without -sv) refuses as a signal name, which
# tests/test_lower_keywords.py checks. Fixed: documented in docs/reference.md.
SYSTEMVERILOG_KEYWORDS = frozenset("""
accept_on alias always_comb always_ff always_latch assert assume before bind bins binsof bit
break byte chandle checker class clocking const constraint context continue cover covergroup
coverpoint cross dist do endchecker endclass endclocking endgroup endinterface endpackage
endprogram endproperty endsequence enum eventually expect export extends extern final
first_match foreach forkjoin global iff ignore_bins illegal_bins implies import inside int
interconnect interface intersect join_any join_none let local logic longint matches modport
new nexttime null package packed priority program property protected pure rand randc randcase
randsequence ref reject_on restrict return s_always s_eventually s_nexttime s_until
s_until_with sequence shortint shortreal soft solve static string strong struct super
sync_accept_on sync_reject_on tagged this throughout timeprecision timeunit type typedef union
unique unique0 until until_with untyped var virtual void wait_order weak wildcard with within
implements nettype
""".split())
VERILOG_KEYWORDS = SYSTEMVERILOG_KEYWORDS | frozenset("""
always and assign automatic begin buf bufif0 bufif1 case casex casez cell cmos config deassign
default defparam design disable edge else end endcase endconfig endfunction endgenerate
endmodule endprimitive endspecify endtable endtask event for force forever fork function
generate genvar highz0 highz1 if ifnone incdir include initial inout input instance integer
join large liblist library localparam macromodule medium module nand negedge nmos nor
noshowcancelled not notif0 notif1 or output parameter pmos posedge primitive pull0 pull1
pulldown pullup pulsestyle_ondetect pulsestyle_onevent rcmos real realtime reg release repeat
rnmos rpmos rtran rtranif0 rtranif1 scalared showcancelled signed small specify specparam
strong0 strong1 supply0 supply1 table task time tran tranif0 tranif1 tri tri0 tri1 triand
trior trireg unsigned use uwire vectored wait wand weak0 weak1 while wire wor xnor xor
bool wone wreal
""".split())


def escape_keyword(name: str) -> str:
    """`output` -> `output_`; any other name unchanged."""
    return name + "_" if name in VERILOG_KEYWORDS else name


class Names:
    """Unique Verilog identifiers, handed out first come, first served."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.by_key: dict[object, str] = {}

    def claim(self, key: object, base: str) -> str:
        """The name for `key` (claimed once; later calls return the same name)."""
        if key in self.by_key:
            return self.by_key[key]
        name = escape_keyword(base)
        if name in self.used:
            n = 1
            while f"{name}_{n}" in self.used:
                n += 1
            name = f"{name}_{n}"
        self.used.add(name)
        self.by_key[key] = name
        return name

    def __getitem__(self, key: object) -> str:
        return self.by_key[key]


def source_names(d) -> Names:
    """The names of a module's lowering before anything generated: its signals' and consts'
    (those that need no escaping before those that do), then enum variants. A parent connects
    its instances by the child's port names from here (`sysr.lower.instances`)."""
    from ..model import INST_KINDS
    names = Names()
    sources = [(("sig", s.name), s.name) for s in d.signals.values() if not s.ghost and s.kind not in INST_KINDS]
    sources += [(("const", c), c) for c in d.consts]
    for escaped in (False, True):
        for key, base in sources:
            if (base in VERILOG_KEYWORDS) == escaped:
                names.claim(key, base)
    for e in d.enums.values():
        for v in e.variants:
            names.claim(("variant", e.name, v), f"{e.name.upper()}_{v.upper()}")
    return names
