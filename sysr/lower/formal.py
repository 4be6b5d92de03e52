"""`sysr lower --formal`: the lowered module plus its properties, for Yosys' formal flow.

The output is exactly `sysr lower`'s module with one more section, under `ifdef FORMAL`, that
states what `sysr check` proves, with the checker's semantics (`sysr.elab`), for
`yosys read_verilog -formal` (SymbiYosys, yosys-smtbmc):

- ghost state and ghost logic, as ordinary registers, wires and blocks;
- the history registers behind `prev(e)` (each takes `e` at every clock edge), and `prev_valid`,
  which is 1 when the previous cycle exists and did not have the reset active: a property or
  requirement that mentions `prev` is checked (assumed) only then, and with an asynchronous reset
  only when the reset is not active in this cycle either (`prev_guard`, as `sysr.elab`'s
  `prev_valid`);
- an `initial` block: every register starts at its reset value, as the checker's bounded check
  does (memories, registers without a reset value and history registers start arbitrary; a
  ghost register without a reset value that nothing writes is an `(* anyconst *)` constant);
- `requires` as `assume`, and an `assume` that every enum-typed input holds a variant;
  `ensures`, `invariant` and `assert` as `assert`, and an `assert` that every enum register holds
  a variant (what the checker's induction takes for granted);
- every dynamic index as an `assert` that it is in range, and every divisor of `/` and `%` as an
  `assert` that it is not zero, where it is evaluated: in `always @*` copies of the blocks that
  have such obligations (a seq block's copy without its writes, a comb block's with its signals
  renamed), and with the properties for expressions outside blocks. The checker's division
  lemma (`b != 0 ==> a % b == a - (a / b) * b`, a fact of the operators' meaning assumed to help
  z3) is neither assumed nor asserted: it holds in Yosys' model by itself.

An asynchronous reset stays as `sysr lower` writes it (`always @(posedge clk or posedge arst)`);
Yosys' `async2sync` pass gives it sysr's cycle model in the formal flow (`bench.checker.smtbmc`).

A file with several modules (`sysr.lower.formal_hier`) keeps the hierarchy, each module with
its own section; only the top's `requires` (and enum inputs) are assumed. Every other module's
are asserted: in the composed design an instance's requirements are its parent's obligations,
so Yosys proves the whole hierarchy, children's logic included, without the contracts the
checker proves it with, which makes it an independent check of the compositional proof.

Without FORMAL defined the text is the same design as `sysr lower`'s, token for token.
"""

from __future__ import annotations

import itertools

from ..front import syntax as S
from ..elab import elaborate, mentions_prev, source_snippet
from ..model import Design
from .expr import ATOM, LAND, Ctx, V, _range, literal, syntax_nodes
from .formal_expr import FormalExprs, FormalStmts, FormalUnsupported, checking
from .ir import INDENT, Assign, Check, Group, If, leaves, nested_temps, prune, render
from .module import ModuleLowering, layout, merge_assigns
from .names import VERILOG_KEYWORDS

__all__ = ["lower_formal", "FormalUnsupported"]


def lower_formal(design: Design, source_name: str, source_text: str = "") -> str:
    """The `--formal` Verilog text of a module that passed the static checks, as a top."""
    return FormalLowering(design, source_name, source_text).run()


class FormalLowering(ModuleLowering):
    def __init__(self, design: Design, source_name: str, source_text: str, modules: dict | None = None,
                 header: bool = True, top: bool = True) -> None:
        super().__init__(design, source_name, modules, header)
        self.formal = True
        self.lines = source_text.splitlines()
        self.top = top  # its requires are assumed (else asserted: an instance's are its parent's to meet)

    def quote(self, span: S.Span) -> str:
        return source_snippet(self.lines, span)

    def appendix(self) -> list[str]:
        """The `ifdef FORMAL` section (lowered after the design, whose names stay as they are)."""
        d = self.d
        base_used = {id(g) for _, g in self.used}
        self.signals = list(d.signals.values())
        ghosts = [s for s in self.signals if s.ghost]
        for escaped in (False, True):  # ghost names after every name of the design
            for s in ghosts:
                if (s.name in VERILOG_KEYWORDS) == escaped:
                    self.names.claim(("sig", s.name), s.name)
        self.constants = self.unwritten_memories(ghosts)
        self.x = FormalExprs(d, self.names, self.gen, self.x.flat | self.constants)
        self.s = FormalStmts(d, self.x, self.gen)
        self.x.source = self.quote
        self.x.prev_guard = self.prev_guard
        counter = itertools.count()
        self.x.labels = lambda base: self.names.claim(("label", next(counter)), base)

        self.naming = []
        ghost_logic = merge_assigns(self.logic(ghost=True))
        self.x.collect = True
        shadows = self.index_checks()
        props = self.properties()
        history = self.history()
        initial = self.named(self.initial())
        used = [(n, g) for n, g in self.gen.name_all(self.naming, self.names) if id(g) not in base_used]
        hist = {id(self.gen.item(tok)) for tok, _, _ in self.x.history.values()}
        generated = [(n, g) for n, g in used if id(g) not in hist]  # history is declared with comments

        ghost_decls = [self.declaration(s) for s in ghosts if not s.is_port]
        decls = ghost_decls + self.generated_decls(generated)
        sections = [(["// Ghost state and logic: they exist only for the proof."] if ghost_decls else [])
                    + decls, self.functions(generated)]
        sections += ghost_logic + [history, initial] + shadows + [props]
        intro = [INDENT + "// For formal verification (yosys read_verilog -formal, SymbiYosys): the "
                 "properties `sysr check` proves,",
                 INDENT + "// with its semantics. Without FORMAL defined, this is the design of "
                 "`sysr lower`."]
        return ["", "`ifdef FORMAL"] + intro + layout(sections) + ["", "`endif"]

    def unwritten_memories(self, ghosts) -> frozenset[str]:
        """Ghost memories never written: arbitrary constants, declared `(* anyconst *)` vectors
        (Yosys 0.23's write_smt2 cannot encode a memory without a write port)."""
        written = {n.target.name for n in syntax_nodes(self.d.module.items) if isinstance(n, S.NbAssign)}
        for s in self.d.signals.values():
            if s.kind == "mem" and s.name not in written and not s.ghost:
                raise FormalUnsupported(
                    f"line {s.span.line}: the memory `{s.name}` is never written; Yosys' formal flow cannot "
                    "encode a memory without a write port (make it a ghost memory, or write it)")
        # (branch `ref`, issue 17) a ghost register without a reset value that nothing writes is
        # the specification's arbitrary-but-fixed value: a constant too, like an unwritten memory.
        return frozenset(s.name for s in ghosts if (s.kind == "mem" or (s.kind == "reg" and s.init is None
                                                                        and not s.is_array))
                         and s.name not in written)

    def declaration(self, sig) -> str:
        if sig.name in getattr(self, "constants", ()) and sig.powerup is not None:  # never written: V throughout
            return f"wire {_range(sig.ty.width)}{self.name(sig)} = {literal(sig.powerup, sig.ty.width)};"
        text = super().declaration(sig)
        return f"(* anyconst *) {text}" if sig.name in getattr(self, "constants", ()) else text

    # ---- history registers -------------------------------------------------------------
    def prev_valid(self, n: int = 1) -> str:
        """The flag that the n cycles before exist and had no reset (`prev_valid`, `prev_valid2`...)."""
        self.deepest = max(getattr(self, "deepest", 0), n)
        return self.names.claim(("formal", "prev_valid", n), "prev_valid" + (str(n) if n > 1 else ""))

    def prev_guard(self, n: int = 1) -> V:
        """When a `prev(e, n)` is meaningful: `prev_valid<n>`, and with an asynchronous reset also
        the reset not active now (in that cycle the registers read as their reset values)."""
        pv = self.prev_valid(n)
        if not self.d.reset_async:
            return V(pv, ATOM, 1)
        return V(f"{pv} && {self.reset_test(active=False)}", LAND, 1)

    def uses_prev(self) -> bool:
        return bool(self.x.history) or any(mentions_prev(s.expr) for s in self.d.specs())

    def history(self) -> list[str]:
        if not self.uses_prev():
            return []
        pv = self.prev_valid()
        flags = [self.prev_valid(n) for n in range(2, getattr(self, "deepest", 1) + 1)]
        lines = ["// History behind `prev`: each register holds its expression's value in the previous "
                 "cycle.", f"reg {pv};  // the previous cycle exists and did not have the reset active"]
        lines += [f"reg {f};  // the {n} cycles before exist and had no reset" for n, f in enumerate(flags, 2)]
        lines += [f"reg {_range(w)}{tok};  // {note}" for tok, w, note in self.x.history.values()]
        if self.d.clock is None:  # a design without a clock: the formal step is the cycle
            clk = self.names.claim(("formal", "clock"), "formal_clock")
            lines.append(f"(* gclk *) reg {clk};")
        else:
            clk = self.name(self.d.signals[self.d.clock])
        # (`prev` is in a module with one domain, A008: its history takes the domain's edge)
        domains = set(self.d.block_domain.values())
        edge = "negedge" if domains and next(iter(domains))[1] == "falling" else "posedge"
        not_reset = "1'b1" if self.d.reset is None else self.reset_test(active=False)
        updates = [f"  {pv} <= {not_reset};"]
        updates += [f"  {f} <= {([pv] + flags)[n - 2]}{'' if self.d.reset is None else ' && ' + not_reset};"
                    for n, f in enumerate(flags, 2)]
        updates += [f"  {tok} <= {key};" for key, (tok, _, _) in self.x.history.items()]
        return self.named(lines + [f"always @({edge} {clk}) begin"] + updates + ["end"])

    def initial(self) -> list[str]:
        regs = [s for s in self.signals if s.is_state and s.init is not None]
        sets = [f"  {self.name(s)} = {self.reset_value(s)};" for s in regs]
        sets += ["  " + self.powerup_set(s) for s in self.signals  # ghost power-ups (the design's: `powerups`)
                 if s.ghost and s.powerup is not None and s.name not in self.constants]
        if self.uses_prev():
            sets += [f"  {self.prev_valid(n)} = 1'b0;" for n in range(1, getattr(self, "deepest", 1) + 1)]
        if not sets:
            return []
        return ["// The state starts as after a reset, as in `sysr check`'s bounded check (memories "
                "and history: any value).", "initial begin"] + sets + ["end"]

    # ---- index checks ------------------------------------------------------------------
    def index_checks(self) -> list[list[str]]:
        """An `always @*` per block that indexes dynamically or divides; expressions outside
        blocks add their checks to the properties'."""
        out = []
        for item in self.d.module.items:
            if isinstance(item, S.WireDecl) and item.value is not None:
                self.x(item.value, checking(Ctx("assign")))
            elif isinstance(item, S.ModAssign):
                self.x(item.value, checking(Ctx("assign")))
            elif isinstance(item, (S.CombBlock, S.SeqBlock)):
                out.append(self.shadow(item))
        return [b for b in out if b]

    def shadow(self, item) -> list[str]:
        comb = isinstance(item, S.CombBlock)
        what = ("ghost " if item.ghost else "") + ("comb" if comb else "seq")
        if comb:
            own = self.driven(item)
            self.x.shadow = {s.name: self.gen.temp(f"{self.name(s)}_chk", s.ty.width) for s in own}
            ctx = checking(Ctx("comb", block=frozenset(s.name for s in own)))
        else:
            self.s.drop_writes = True
            ctx = checking(Ctx("seq"))
        try:
            ir = self.s.block(item.body, ctx)
        finally:
            self.x.shadow, self.s.drop_writes = {}, False
        ir, _ = prune(ir, lambda a: comb, self.gen)
        if not any(isinstance(st, Check) for st in leaves(ir)):
            return []
        defaults = [Assign(t, literal(0, self.gen.item(t).width), "=", "temp", t) for t in nested_temps(ir)]
        if defaults:
            ir = [Group("temporaries set only in some branches start at 0", defaults)] + ir
        note = (f"// Index and divisor checks of the {what} block at line {item.span.line}"
                + (" (its signals as `_chk` copies)." if comb else " (without its writes)."))
        return self.named([note, "always @* begin"] + render(ir, 1) + ["end"])

    # ---- properties ----------------------------------------------------------------------
    def properties(self) -> list[str]:
        body = self.enum_checks()
        for spec in self.d.specs():
            v = self.x(spec.expr, checking(Ctx("assign")))
            kind = "cover" if spec.kind == "cover" else self.check_kind(spec.kind)
            note = f"line {spec.span.line}: {spec.kind} {self.quote(spec.expr.span)}"
            check = Check(v.rhs, kind, self.x.labels(f"{spec.kind}_l{spec.span.line}"))
            depth = S.prev_depth(spec.expr, self.d.const_values)
            if depth:
                cycles = "a cycle" if depth == 1 else f"{depth} cycles"
                when = (f"only after {cycles} without reset, and without reset now" if self.d.reset_async
                        else f"only after {cycles} without reset")
                guard = self.prev_guard(depth)
                body += [Group(f"{note}  ({when})", [If(guard.text, guard.prec == ATOM, [check], [])])]
            else:
                body += [Group(note, [check])]
        if self.x.obligations:
            body.append(Group("dynamic indexes and divisors outside blocks: each in range, or not zero, "
                              "where it is evaluated",
                              self.x.obligations))
        if not body:
            return []
        return self.named([self.properties_head(),
                           "always @* begin"] + render(body, 1) + ["end"])

    def properties_head(self) -> str:
        return ("// The properties, in every cycle: `requires` are assumed, the others asserted." if self.top else
                "// The properties, in every cycle, all asserted: this module is an instance, whose "
                "`requires` its parent meets.")

    def check_kind(self, spec_kind: str) -> str:
        """`assume` for the top's `requires`, `assert` for every other property."""
        return "assume" if spec_kind == "requires" and self.top else "assert"

    def enum_checks(self) -> list:
        """An enum input is assumed to hold a variant; an enum register is asserted to, where the
        checker's induction takes it for granted (`sysr.elab.variant_registers`)."""
        out = []
        always_variant = elaborate(self.d, "contract").enum_state  # the registers the checker's induction trusts
        for s in self.signals:
            if s.ty is not None and s.ty.kind == "enum" and (s.is_input or s.name in always_variant):
                out += self.variant_check(s, "assume" if self.top and s.is_input else "assert")
        return out

    def variant_check(self, s, kind: str) -> list:
        """`kind` (assume or assert) that enum signal `s` holds a variant; none when every
        encoding is one."""
        info = self.d.enums[s.ty.enum]
        if len(set(info.variants.values())) == 1 << s.ty.width:
            return []
        name = self.name(s)
        cond = " || ".join(f"{name} == {self.names[('variant', info.name, v)]}" for v in info.variants)
        what = " (implicit requires)" if s.is_input else ""
        return [Check(cond, kind, self.x.labels(f"enum_{name}"), f"{name} holds a variant of {info.name}{what}")]
