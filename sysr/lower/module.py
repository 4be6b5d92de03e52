"""One checked design to one Verilog-2005 module: ports, declarations and always blocks.

Layout of the output: a header comment, the module with ANSI ports in source order, then
localparams (consts and enum variants), declarations, helper functions, and the logic in
source order: `assign` for module-level assignments and wires, `always @*` for comb blocks,
and per seq block an `always @(posedge clk)` with the synchronous reset branch first (with an
asynchronous reset, `always @(posedge clk or posedge arst)`, `negedge` for an active-low one,
holding the registers that have reset values). Memory writes go to a separate clocked block
with no reset branch (only the reset as a write enable, since nothing in a seq block happens
in a reset cycle), so that Yosys infers RAM. Ghost state and logic, and specifications, are
not lowered. Instances are `sysr.lower.instances`'s; a file with several modules is lowered by
`lower_hierarchy`, one Verilog module per sysr module.
"""

from __future__ import annotations

import re

from ..elab import elaborate
from ..evaluate import Evaluator
from ..front import syntax as S
from ..model import INST_KINDS, Design, Hierarchy, Signal
from .expr import Ctx, Exprs, _range, literal, syntax_nodes
from .instances import InstanceLowering, extern_names, module_names
from .ir import INDENT, Assign, Gen, Group, If, assignment, assignments, nested_temps, prune, render
from .names import VERILOG_KEYWORDS, Names, escape_keyword, source_names
from .stmt import Stmts


_CONST_INDEX = re.compile(r"\[([0-9]+)\]$")


def lower(design: Design, source_name: str) -> str:
    """The Verilog text of a module that passed the static checks (its instances as instances)."""
    return ModuleLowering(design, source_name).run()


def lower_hierarchy(h: Hierarchy, source_name: str) -> str:
    """The Verilog text of a file's top module and every module it instantiates."""
    return "\n".join(m.run() for m in lowerings(h, source_name))


def lowerings(h: Hierarchy, source_name: str) -> list["ModuleLowering"]:
    """One lowering per module the top reaches, the top first (`lower_hierarchy` runs them; a
    caller that needs the Verilog names of signals inside instances asks them). An extern module
    has none: its Verilog is the user's, and the top's header comment names it."""
    names = module_names(h)
    ours = [d for d in h.reachable() if not d.extern]
    out = [ModuleLowering(d, source_name, names, i == 0) for i, d in enumerate(ours)]
    out[0].externs = extern_names(h)
    return out


class ModuleLowering(InstanceLowering):
    def __init__(self, design: Design, source_name: str, modules: dict[str, str] | None = None,
                 header: bool = True) -> None:
        self.d = design
        self.source = source_name
        self.names = source_names(design)
        self.gen = Gen()
        self.verilog_modules = modules or {design.name: escape_keyword(design.module.name)}
        self.with_header = header
        self.rst = design.reset  # the reset of the block being lowered (§4.10; the first outside one)
        self.externs: list[str] = []  # (the top's) the extern modules the file needs, by Verilog name
        # The top of a module with parameters keeps them as Verilog `parameter`s (§8).
        self.parameters = [(self.names.claim(("param", p), p), v) for p, v in design.binding] if header else []
        self.signals = [s for s in design.signals.values() if not s.ghost and s.kind not in INST_KINDS]
        self.claim_instance_names()
        self.x = Exprs(design, self.names, self.gen, self.constant_address_memories())
        self.s = Stmts(design, self.x, self.gen)
        self.semantics: Evaluator | None = None  # the design's evaluator, built when first needed
        self.constant = {id(i) for i in design.module.items
                         if isinstance(i, S.CombBlock) and not i.ghost and not self.reads_signals(i)}

    def constant_address_memories(self) -> frozenset[str]:
        """Memories written only at constant addresses: Yosys would turn them into registers
        with a warning, so they are lowered like register arrays (flat vectors, never reset)."""
        gen = Gen()
        x = Exprs(self.d, self.names, gen)
        writes: dict[str, list[int | None]] = {}  # memory -> written addresses (None: dynamic)
        for item in self.d.module.items:
            if isinstance(item, S.SeqBlock) and not item.ghost:
                for a in assignments(Stmts(self.d, x, gen).block(item.body, Ctx("seq"))):
                    if a.kind == "mem":
                        m = _CONST_INDEX.search(a.lhs)
                        writes.setdefault(a.signal, []).append(int(m.group(1)) if m else None)
        flat = {m for m, addrs in writes.items() if None not in addrs}
        self.partly_written = {m for m in flat if len(set(writes[m])) < self.d.signals[m].size}
        return frozenset(flat)

    def name(self, sig: Signal) -> str:
        return self.names[("sig", sig.name)]

    def driven(self, item) -> list[Signal]:
        return [s for s in self.signals if self.d.drivers.get(s.name) is item]

    def is_reg(self, sig: Signal) -> bool:
        """Whether a combinational signal is assigned in an always block (so declared `reg`)."""
        drv = self.d.drivers.get(sig.name)
        return isinstance(drv, S.CombBlock) and id(drv) not in self.constant

    def reads_signals(self, item: S.CombBlock) -> bool:
        """Whether a comb block reads a signal it does not assign (else @* would never fire)."""
        own = {s.name for s in self.driven(item)}
        for node in syntax_nodes(item.body):
            ref = self.d.refs.get(id(node))
            if isinstance(ref, Signal) and ref.name not in own and not isinstance(node, S.LValue):
                return True
        return False

    # ---- whole module ------------------------------------------------------------------
    def run(self) -> str:
        self.naming: list[str] = []  # texts in the order their generated names are handed out
        logic = self.logic()
        used = self.used = self.gen.name_all(self.naming, self.names)
        sections = [self.localparams(), self.declarations() + self.generated_decls(used),
                    self.functions(used)] + merge_assigns(logic) + [self.powerups()]
        body = layout(sections) + self.appendix()
        text = "\n".join(self.header() + body + ["", "endmodule", ""])
        return self.gen.subst(text)

    def appendix(self) -> list[str]:
        """Lines after the logic, before `endmodule` (the `--formal` lowering adds its section)."""
        return []

    def header(self) -> list[str]:
        ports = [INDENT + self.port(p) for p in self.d.ports]
        lines = [f"// Generated by sysr from {self.source}; do not edit."] if self.with_header else []
        if self.with_header and self.externs:
            lines.append(f"// Instantiates extern modules that sysr does not write: {', '.join(self.externs)} "
                         "(compile their Verilog with this file).")
        lines += struct_layouts(s.ty for s in self.signals)
        name = self.verilog_modules[self.d.name]
        if self.parameters:
            params = [f"{INDENT}parameter {p} = {v}" for p, v in self.parameters]
            lines += [f"module {name} #("] + [p + ("," if i < len(params) - 1 else "") for i, p in enumerate(params)]
            lines += [") ("]
        else:
            lines += [f"module {name} ("]
        lines += [p + ("," if i < len(ports) - 1 else "") for i, p in enumerate(ports)]
        return lines + [");"] + self.parameter_guard()

    def parameter_guard(self) -> list[str]:
        """The top was checked and lowered for one binding: with other values, elaboration fails
        on a missing module whose name says which values to lower it with."""
        if not self.parameters:
            return []
        values = "_".join(f"{p}{v}" if v >= 0 else f"{p}m{-v}" for p, v in self.d.binding)
        differs = " || ".join(f"{p} != {v}" for p, v in self.parameters)
        block = self.names.claim(("gen", "checked"), "other_parameters")
        return ["", f"{INDENT}// checked and lowered with {', '.join(f'{p} = {v}' for p, v in self.d.binding)} "
                    "only: `sysr lower --param` for others",
                f"{INDENT}generate",
                f"{INDENT * 2}if ({differs}) begin : {block}",
                f"{INDENT * 3}sysr_checked_with_{values} lower_again_with_param ();",
                f"{INDENT * 2}end",
                f"{INDENT}endgenerate"]

    def port(self, p: S.Port) -> str:
        sig = self.d.signals[p.name]
        width = 1 if sig.ty is None else sig.ty.width
        if p.kind in ("in", "clock") + S.RESET_KINDS:
            kind = "input wire"
        elif p.kind == "out_reg" or self.is_reg(sig):
            kind = "output reg"
        else:
            kind = "output wire"
        return f"{kind} {_range(width)}{self.name(sig)}"

    def powerups(self) -> list[str]:
        """An `initial` block that sets the registers with a power-up value (§4.2): Yosys keeps
        each as its register's `init` attribute, and Icarus sets it at time 0 as an event, so
        that the `always @*` blocks that read it run. (A declaration's initial value would not
        be an event under `-g2012`: those blocks would keep x until some input changed.)"""
        regs = [s for s in self.signals if s.powerup is not None]
        if not regs:
            return []
        return (["// power-up values (FPGA configuration; Yosys keeps them as `init` attributes)", "initial begin"]
                + [INDENT + self.powerup_set(s) for s in regs] + ["end"])

    def powerup_set(self, sig: Signal) -> str:
        """`r = V;`: a register set to its power-up value (in an `initial` block)."""
        return f"{self.name(sig)} = {literal(sig.powerup, sig.ty.width)};"

    # ---- declarations ------------------------------------------------------------------
    def localparams(self) -> list[str]:
        """Enum variants, then consts as written (a const may name a variant or a const)."""
        out = []
        for e in self.d.enums.values():
            out += [f"localparam {_range(e.ty.width)}{self.names[('variant', e.name, v)]} = "
                    f"{literal(code, e.ty.width)};" for v, code in e.variants.items()]
        decls = {i.name: i for i in self.d.file.items + self.d.module.items if isinstance(i, S.ConstDecl)}
        for c, (ty, known) in self.d.consts.items():
            value = self.x(decls[c].value, Ctx("assign")).rhs
            if "\x00" in value:  # it needs a generated helper: write the value the checker computed
                value = literal(known, ty.width)
            out.append(f"localparam [{ty.width - 1}:0] {self.names[('const', c)]} = {value};")
        return out

    def declarations(self) -> list[str]:
        return [self.declaration(sig) for sig in self.signals if not sig.is_port] + self.instance_decls()

    def declaration(self, sig: Signal) -> str:
        name, w = self.name(sig), sig.ty.width
        if self.x.is_ram(sig):
            return f"reg {_range(w)}{name} [0:{sig.size - 1}];"
        if sig.is_array:
            what = "never reset, " if sig.kind == "mem" else ""
            return (f"reg {_range(w * sig.size)}{name};  // {sig.size} x {sig.ty}, {what}"
                    f"element i is {name}[i * {w} +: {w}]")
        if sig.kind == "reg" or self.is_reg(sig):
            return f"reg {_range(w)}{name};"
        return f"wire {_range(w)}{name};"

    def generated_decls(self, used) -> list[str]:
        regs = [f"reg {_range(g.width)}{n};" for n, g in used if g.kind == "reg"]
        wires = [f"wire {_range(g.width)}{n} = {g.init};" for n, g in used if g.kind == "wire"]
        return regs + wires

    def functions(self, used) -> list[str]:
        out: list[str] = []
        for _, g in used:
            if g.kind == "fn":
                out += ([""] if out else []) + g.lines
        return out

    # ---- logic -------------------------------------------------------------------------
    def logic(self, ghost: bool = False) -> list[list[str]]:
        """The design's logic (or, with ghost=True, its ghost logic), block by block."""
        blocks = []
        for item in self.d.module.items:
            if is_ghost(self.d, item) != ghost:
                continue
            if isinstance(item, S.WireDecl) and item.value is not None:
                blocks.append(self.continuous(item.name, item.value))
            elif isinstance(item, S.ModAssign):
                blocks.append(self.continuous(item.target, item.value))
            elif isinstance(item, S.CombBlock):
                blocks.append(self.comb(item))
            elif isinstance(item, S.SeqBlock):
                blocks += self.seq(item)
            elif isinstance(item, S.InstDecl) and not ghost:
                blocks.append(self.instance(item))
        held = [s for s in self.signals if s.ghost == ghost and s.init is not None and s.name not in self.d.drivers]
        if held:
            self.domain, self.rst = None, self.d.reset
            blocks.append(self.clocked(self.reset_branch(held, []), self.d.reset_async))
        return [b for b in blocks if b]

    def continuous(self, target: str, value) -> list[str]:
        v = self.x(value, Ctx("assign"))
        return self.named(assignment(f"assign {self.name(self.d.signals[target])} = ", v.rhs, v.chain))

    def named(self, lines: list[str], first: list[str] = ()) -> list[str]:
        """Record `lines` for naming (after `first`, which then reads in source order)."""
        self.naming += list(first) + lines
        return lines

    def comb(self, item: S.CombBlock) -> list[str]:
        if id(item) in self.constant:
            known = self.s.evaluate(item.body, Ctx("assign", known={})).known
            lines = [f"assign {self.name(s)} = {known[s.name].text};" for s in self.driven(item)]
            return self.named(["// a comb block that reads no signal: its results"] + lines if lines else [])
        driven = frozenset(s.name for s in self.driven(item))
        ir, _ = prune(self.s.block(item.body, Ctx("comb", block=driven)), lambda a: True, self.gen)
        if not ir:
            return []
        defaults = [Assign(t, literal(0, self.gen.item(t).width), "=", "temp", t)
                    for t in nested_temps(ir)]
        if defaults:
            ir = [Group("temporaries set only in some branches start at 0 (no latch)", defaults)] + ir
        lines = ["always @* begin"] + render(ir, 1) + ["end"]
        if not self.reads_any(lines, driven):
            return self.constant_results(item)
        return self.named(lines, first=render(ir[1:] if defaults else ir, 1))

    def reads_any(self, lines: list[str], driven: frozenset[str]) -> bool:
        """Whether the emitted block reads a signal it does not assign. An `always @*` block that
        reads none never runs in simulation, so its results would stay x."""
        text = "\n".join(lines)
        outside = {self.name(s) for s in self.signals if s.name not in driven} | set(self.instance_wires())
        if outside & set(re.findall(r"[A-Za-z_][A-Za-z0-9_$]*", text.replace("\x00", " "))):
            return True
        return any(self.gen.item(t).init for t in self.gen.reads(text))  # a hoisted wire

    def constant_results(self, item: S.CombBlock) -> list[str]:
        """A block whose results depend on no signal: assign the values the semantics give them."""
        self.constant.add(id(item))  # its outputs are declared as wires
        if self.semantics is None:
            self.semantics = Evaluator(elaborate(self.d, "shallow"))
        ev = self.semantics
        env = {n: 0 for n, _ in ev.sys.inputs}
        env.update(ev.initial_state())
        lines = [f"assign {self.name(s)} = {literal(ev.eval(ev.comb[s.name], env, {}), s.ty.width)};"
                 for s in self.driven(item)]
        return self.named(["// a comb block whose results depend on no signal"] + lines)

    def seq(self, item: S.SeqBlock) -> list[list[str]]:
        """A register block (with the reset branch) and a memory block, as needed, on the
        block's clock and edge."""
        self.domain = self.d.block_domain.get(id(item))
        self.rst = self.d.block_reset.get(id(item), self.d.reset)  # (§4.10: its own reset)
        driven = self.driven(item)
        if self.d.resets.get(self.rst, "").startswith("areset"):
            return self.seq_async(item, driven)
        regs = [s for s in driven if not self.x.is_ram(s)]
        out = []
        if regs:
            body, _ = prune(self.s.block(item.body, Ctx("seq")), lambda a: a.kind != "mem", self.gen)
            hold = [Assign(self.name(s), self.name(s), "<=", "reg") for s in regs
                    if s.name in self.partly_written]
            if hold:  # else Yosys finds bits that are read but never driven
                body = [Group("memory words never written keep their contents", hold)] + body
            out.append(self.clocked(self.reset_branch(regs, body)))
        if any(self.x.is_ram(s) for s in driven):
            body, _ = prune(self.s.block(item.body, Ctx("seq")), lambda a: a.kind == "mem", self.gen)
            if self.rst is not None:
                body = [If(self.reset_test(active=False), False, body, [])]
            out.append(self.clocked(body))
        return out

    def seq_async(self, item: S.SeqBlock, driven: list[Signal]) -> list[list[str]]:
        """With an asynchronous reset: the registers in `always @(posedge clk or posedge arst)`
        with the reset branch first, and the memories (never reset; RAMs and flat vectors) in a
        plain clocked block with the reset as a write enable, so that block RAM is inferred."""
        reset = [s for s in driven if s.init is not None]
        kept = [s for s in driven if s.init is None]
        out = []
        if reset:
            names = {s.name for s in reset}
            body, _ = prune(self.s.block(item.body, Ctx("seq")), lambda a: a.signal in names, self.gen)
            out.append(self.clocked(self.reset_branch(reset, body), reset_edge=True))
        if kept:
            names = {s.name for s in kept}
            body, _ = prune(self.s.block(item.body, Ctx("seq")), lambda a: a.signal in names, self.gen)
            hold = [Assign(self.name(s), self.name(s), "<=", "reg", signal=s.name) for s in kept
                    if s.name in self.partly_written]
            if hold:
                body = [Group("memory words never written keep their contents", hold)] + body
            out.append(self.clocked([If(self.reset_test(active=False), False, body, [])]))
        return out

    @property
    def rst_low(self) -> bool:
        """Whether the current block's reset (`self.rst`) is active low."""
        return self.d.resets.get(self.rst, "").endswith("_n")

    def reset_test(self, active: bool) -> str:
        rst = self.name(self.d.signals[self.rst])
        return rst if active != self.rst_low else f"!{rst}"

    def reset_branch(self, regs: list[Signal], body: list) -> list:
        if self.rst is None:
            return body
        resets = [Assign(self.name(s), self.reset_value(s), "<=", "reg") for s in regs
                  if s.init is not None]
        if not resets:  # only memories lowered as vectors: the reset is a write enable
            return [If(self.reset_test(active=False), False, body, [])]
        return [If(self.reset_test(active=True), not self.rst_low, resets, body, chain=False)]

    def reset_value(self, sig: Signal) -> str:
        v = self.x(sig.decl.init, Ctx("assign")).rhs
        return f"{{{sig.size}{{{v}}}}}" if sig.is_array else v

    def clocked(self, stmts: list, reset_edge: bool = False) -> list[str]:
        """An always block on the edge of the current seq block's clock (`self.domain`; the
        first clock's rising edge outside one) and, with `reset_edge`, on the edge that asserts
        the asynchronous reset."""
        clock, edge = getattr(self, "domain", None) or (self.d.clock, "rising")
        clk = self.name(self.d.signals[clock])
        events = f"{'negedge' if edge == 'falling' else 'posedge'} {clk}"
        if reset_edge:
            edge = "negedge" if self.rst_low else "posedge"
            events += f" or {edge} {self.name(self.d.signals[self.rst])}"
        return self.named([f"always @({events}) begin"] + render(stmts, 1) + ["end"])


def is_ghost(d: Design, item) -> bool:
    """Whether a module item is ghost logic (or a ghost declaration)."""
    if isinstance(item, S.ModAssign):
        return d.signals[item.target].ghost
    return getattr(item, "ghost", False)


def layout(sections: list[list[str]]) -> list[str]:
    """Non-empty sections, each after a blank line, indented one level."""
    body = []
    for lines in sections:
        if lines:
            body += [""] + [INDENT + line if line else "" for line in lines]
    return body


def merge_assigns(blocks: list[list[str]]) -> list[list[str]]:
    """Consecutive blocks of `assign`s form one paragraph."""
    out: list[list[str]] = []
    for b in blocks:
        if out and b[0].startswith("assign ") and out[-1][0].startswith("assign "):
            out[-1] = out[-1] + b
        else:
            out.append(b)
    return out


def struct_layouts(types) -> list[str]:
    """A comment line per struct type among `types` (nested ones too): where its fields are in
    the vector that stands for it."""
    seen: dict[str, object] = {}

    def visit(ty) -> None:
        if ty is None or ty.kind != "struct" or ty.enum in seen:
            return
        seen[ty.enum] = ty
        for _, fty in ty.fields:
            visit(fty)

    for ty in types:
        visit(ty)
    out = []
    for name, ty in seen.items():
        parts = []
        for fname, fty in ty.fields:
            hi, lo, _ = ty.field(fname)
            parts.append(f"{fname} [{hi}:{lo}]" if hi != lo else f"{fname} [{hi}]")
        out.append(f"// struct {name} ({ty.width} bits): {', '.join(parts)}")
    return out
