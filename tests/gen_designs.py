"""Random well-typed sysr designs, written as source text, for the differential tests.

`DesignGen(chooser).generate()` writes one file (an enum, consts, fns and one module) that
passes the static checks of `sysr.pipeline.analyze`, so every design goes through the real
parser and checker. Generation is type-directed: `expr(ty, depth, scope)` returns source text
of type `ty`, and every production knows which of its operands must carry a type of their own
(a cast source, a concatenation element, a comparison side...) and which may be a bare literal
that takes its type from context.

What a design contains: a clock, a reset (`reset`, `reset_n`, or the asynchronous `areset` or
`areset_n`, which logic reads now and then, some outputs forced to a constant while it is
active), 1-4 inputs and 1-4 outputs
(some registered) of random types (bool, uN and sN of widths 1..64, an enum), registers with
reset values and some without (every register of a clocked design without a reset port, one
design in twelve), some of those with a power-up value (`initial e`), sometimes a register array and a memory of 2-128 entries (written in `seq`, read
in `seq` and `comb`, with indexes in range by their width or guarded by a comparison); one
design in ten is purely combinational (no clock, no reset, no state). Wires and outputs are
driven at module level, by `wire` with a value and by `comb` blocks (defaults, then
if/match/let/for with whole, bit and slice writes), registers by one or two `seq` blocks with
partial writes; a few `assert`s (with `prev`, `prev(e, n)` and quantifiers, and the bounded
forms `a ==> next(b, n)` and `a ==> within(b, n)`) give the z3 test properties to compare. Ports and module items come in random order. Expressions use every operator, shifts by constants
0..width+3 and by dynamic amounts of other widths, casts in every direction, slices, constant,
dynamic (in range by width) and guarded (`if i < W then x[i] else ...`) bit indexes,
concatenation, if and match expressions (with overlapping arms and a `_` arm that may come
before other arms), every builtin, fn calls, and constant expressions in consts and reset values.
`/` and `%` (unsigned and signed) divide by a divisor that cannot be zero (`d | 0x1`) or under a
guard (`if v != 0 then n / v else ...`, `v != 0 && ...`), with a signal or loop variable `v`.
Some signals are named after Verilog keywords, after names the lowering makes up (helper
functions, enum localparams, escaped keywords, memory ports), after sysr keywords written as
raw identifiers (`r#match`) or after the words that are keywords only in some places (`in`,
`areset`, `then`), to exercise the naming of the parser and of the lowering.

Choices come from a `Chooser`: `RandomChooser(seed)` for batches (a design is reproduced from
its seed with `design_from_seed`), `DrawChooser(draw)` under hypothesis (`designs()` is the
strategy; every choice shrinks towards the first option, so failures shrink to small designs).

The generator is in three files: tests/gen_base.py (choices, scopes, the word lists),
tests/gen_exprs.py (names, types, literals, expressions: `ExprGen`) and this one (statements,
declarations, the module: `DesignGen` and `ModuleParts`, and the entry points).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from gen_base import Arr, DrawChooser, Fn, Generated, RandomChooser, Scope, Val
from gen_clocks import with_clocks
from gen_exprs import ExprGen
from sysr.types import BOOL, Ty, bits_for, uint


# ---- the generator -------------------------------------------------------------------------

class DesignGen(ExprGen):
    """Statements, declarations and the module, on top of the expressions of `ExprGen`."""

    def block(self, n: int, d: int, sc: Scope, mode: str, targets: list) -> list[str]:
        lines: list[str] = []
        for _ in range(n):
            text, sc = self.stmt(d, sc, mode, targets)
            lines.append(text)
        return lines

    def stmt(self, d: int, sc: Scope, mode: str, targets: list) -> tuple[str, Scope]:
        opts = [(5, "write"), (1, "let")]
        if d > 0:
            opts += [(3, "if"), (1, "for")] + ([(1, "match")] if mode != "fn" else [])
        kind = self.ch.weighted(opts)
        if kind == "let":
            return self.let_stmt(sc)
        if kind == "write" or not targets:
            return self.write(self.ch.pick(targets), sc, mode), sc
        if kind == "if":
            return self.if_stmt(d, sc, mode, targets), sc
        if kind == "match":
            return self.match_stmt(d, sc, mode, targets), sc
        return self.for_stmt(d, sc, mode, targets), sc

    def let_stmt(self, sc: Scope) -> tuple[str, Scope]:
        name = self.fresh("t")
        ty = self.any_type()
        if self.ch.chance(0.5):
            return f"let {name}: {self.type_name(ty)} = {self.expr(ty, self.depth - 1, sc)};", sc.add(Val(name, ty))
        return f"let {name} = {self.expr(ty, self.depth - 1, sc, own=True)};", sc.add(Val(name, ty))

    def sub_block(self, d: int, sc: Scope, mode: str, targets: list) -> str:
        return "{ " + " ".join(self.block(self.ch.int(1, 3), d, sc, mode, targets)) + " }"

    def if_stmt(self, d: int, sc: Scope, mode: str, targets: list) -> str:
        text = f"if {self.expr(BOOL, self.depth - 1, sc)} {self.sub_block(d - 1, sc, mode, targets)}"
        if self.ch.chance(0.3):
            return text + " else " + self.if_stmt(d - 1, sc, mode, targets) if d > 1 else text
        if self.ch.chance(0.6):
            text += " else " + self.sub_block(d - 1, sc, mode, targets)
        return text

    def match_stmt(self, d: int, sc: Scope, mode: str, targets: list) -> str:
        sty = self.subject_type()
        subject = self.expr(sty, self.depth - 1, sc, own=True)
        arms = [f"{p} => {self.sub_block(d - 1, sc, mode, targets)}" for p in self.arm_patterns(sty)]
        return f"match {subject} {{ {', '.join(arms)} }}"

    def for_stmt(self, d: int, sc: Scope, mode: str, targets: list) -> str:
        k = self.fresh("k")
        start = self.ch.int(0, 2)
        end = start + self.ch.int(1, 6)
        inner = sc.add(Val(k, uint(bits_for(end - 1)), bound=end))
        return f"for {k} in {start}..{end} {self.sub_block(d - 1, inner, mode, targets)}"

    def write(self, target, sc: Scope, mode: str) -> str:
        op = "<=" if mode == "seq" else "="
        d = self.depth - 1
        if isinstance(target, Arr):
            index = self.index(target.size, d, sc)
            value = self.expr(target.ty, d, sc)
            if index is None:
                i = self.guard_index(target.size, sc)
                if i is None:
                    return f"{target.name}[0] {op} {value};"
                return f"if {i} < {target.size} {{ {target.name}[{i}] {op} {value}; }}"
            return f"{target.name}[{index}] {op} {value};"
        if target.ty.kind == "struct" and self.ch.chance(0.5):  # `t.f op e`, `t.f.g op e`
            path, ty = [target.name], target.ty
            while ty.kind == "struct" and (len(path) == 1 or self.ch.chance(0.5)):
                name, ty = self.ch.pick(list(ty.fields))
                path.append(name)
            return f"{'.'.join(path)} {op} {self.expr(ty, d, sc)};"
        kind = self.ch.int(0, 5) if not target.ty.is_named else 0
        if kind <= 2:
            return f"{target.name} {op} {self.expr(target.ty, d, sc)};"
        if kind <= 4:
            w = target.ty.width
            index = self.index(w, d, sc)
            value = self.expr(BOOL, d, sc)
            if index is None:
                i = self.guard_index(w, sc)
                if i is None:
                    return f"{target.name}[0] {op} {value};"
                return f"if {i} < {w} {{ {target.name}[{i}] {op} {value}; }}"
            return f"{target.name}[{index}] {op} {value};"
        lo = self.ch.int(0, target.ty.width - 1)
        hi = self.ch.int(lo, target.ty.width - 1)
        return f"{target.name}[{hi}:{lo}] {op} {self.expr(uint(hi - lo + 1), d, sc)};"

    # ---- declarations --------------------------------------------------------------------
    def enum_decl(self) -> str:
        name = self.fresh("E")
        n = self.ch.int(1, 5)
        explicit = self.ch.chance(0.4)
        if explicit:
            codes = self.ch.shuffle(sorted(set(self.ch.int(0, 20) for _ in range(n))))
        else:
            codes = list(range(n))
        variants = [(f"V{i}", c) for i, c in enumerate(codes)]
        width = bits_for(max(codes))
        repr_ = ""
        if explicit and self.ch.chance(0.5):
            width += self.ch.int(0, 2)
            repr_ = f": u{width}"
        self.enums.append((Ty("enum", width, name), variants))
        body = ", ".join(f"{v} = {c}" if explicit else v for v, c in variants)
        return f"enum {name}{repr_} {{ {body} }}"

    def const_decls(self, n: int) -> tuple[list[str], list[Val]]:
        lines, vals = [], []
        for _ in range(n):
            ty = self.any_type(wide=False)
            sc = Scope(vals=tuple(vals), match=False)
            name = self.fresh("C")
            lines.append(f"const {name}: {self.type_name(ty)} = {self.expr(ty, 2, sc)};")
            vals.append(Val(name, ty, const=True))
        return lines, vals

    def fn_decls(self, n: int, consts: list[Val]) -> tuple[list[str], list[Fn]]:
        lines, fns = [], []
        for _ in range(n):
            params = tuple((self.fresh("fp"), self.any_type(wide=False)) for _ in range(self.ch.int(1, 3)))
            ret = self.any_type(wide=False)
            sc = Scope(vals=tuple(consts) + tuple(Val(p, t) for p, t in params), fns=tuple(fns))
            lets = []
            for _ in range(self.ch.int(0, 2)):
                text, sc = self.let_stmt(sc)
                lets.append(text)
            if self.ch.chance(0.4):  # a body of statements: `let mut`, writes, `if`, `for` (unrolled)
                lets, sc = self.fn_statements(lets, sc)
            name = self.fresh("f")
            sig = ", ".join(f"{p}: {self.type_name(t)}" for p, t in params)
            body = self.expr(ret, self.depth, sc)
            lines.append(f"fn {name}({sig}) -> {self.type_name(ret)} {{ {' '.join(lets)} {body} }}")
            fns.append(Fn(name, params, ret))
        return lines, fns

    def fn_statements(self, lets: list[str], sc: Scope) -> tuple[list[str], Scope]:
        """One or two `let mut` variables and statements that write them (whole, bits, slices,
        under `if`s and in `for` loops); the fn's value may read them."""
        muts = []
        for _ in range(self.ch.int(1, 2)):
            v = Val(self.fresh("acc"), self.any_type(wide=False))
            lets.append(f"let mut {v.name}: {self.type_name(v.ty)} = {self.expr(v.ty, self.depth - 1, sc)};")
            sc = sc.add(v)
            muts.append(v)
        lets += self.block(self.ch.int(1, 3), 2, sc, "fn", muts)
        return lets, sc

    def init_value(self, ty: Ty, consts: list[Val]) -> str:
        if self.ch.chance(0.2):
            return self.expr(ty, 1, Scope(vals=tuple(consts), match=False))
        return self.literal(ty, own=False)

    def port_type(self) -> Ty:
        if self.ch.chance(0.02):  # a wide bus, past the 256 bits of older versions
            return self.int_type_of(self.ch.pick([300, 512, 1024]))
        return self.any_type(wide=False)

    # ---- the module ------------------------------------------------------------------------
    def generate(self) -> Generated:
        items = [self.enum_decl()]
        if self.with_structs:
            items += [self.struct_decl() for _ in range(self.ch.int(1, 2))]
        consts_text, consts = self.const_decls(self.ch.int(0, 2))
        fns_text, fns = self.fn_decls(self.ch.int(0, 2), consts)
        items += consts_text + fns_text
        m = ModuleParts(self, consts, fns)
        items.append(with_clocks(m.text(), resets=self.resets) if self.clocks else m.text())
        return Generated("\n".join(items) + "\n", self.module_name, m.memories)


RESETS = [(5, ("rst", "reset")), (2, ("rst_n", "reset_n")), (2, ("arst", "areset")), (1, ("arst_n", "areset_n"))]


class ModuleParts:
    """The pieces of one module, decided in order: ports, state, comb drivers, seq, asserts.

    `stateful`, `reset` and `has_reset` fix those choices (a hierarchy's modules share one kind of reset,
    tests/gen_hier.py); `children` are (instance name, the child's parts) to instantiate, each
    bound from what the module reads and what earlier instances output."""

    def __init__(self, g: DesignGen, consts: list[Val], fns: list[Fn], stateful: bool | None = None,
                 reset: tuple[str, str] | None = None, has_reset: bool | None = None,
                 children: list | None = None) -> None:
        self.g = g
        ch = g.ch
        self.consts = consts
        self.fns = tuple(fns)
        self.children = children or []
        self.stateful = not ch.chance(0.1) if stateful is None else stateful  # else no clock, no reset
        self.reset = ch.weighted(RESETS) if reset is None else reset
        # now and then a clocked design without a reset port, whose registers have no reset value
        self.has_reset = self.stateful and (not ch.chance(0.08) if has_reset is None else has_reset)
        self.inputs = [Val(g.signal_name("a"), g.port_type()) for _ in range(ch.int(1, 4))]
        self.outputs = []  # (Val, registered, init): init None for a register without a reset value
        for _ in range(ch.int(1, 4)):
            ty = g.port_type()
            reg = self.stateful and ch.chance(0.3)
            if reg and ty.kind == "enum" and not self.has_reset:
                ty = g.int_type()  # an enum register needs a reset value
            self.outputs.append((Val(g.signal_name("y"), ty), reg, self.reset_value(ty) if reg else None))
        self.powerups: dict[str, str] = {}  # register -> its power-up value (only without a reset value)
        for v, reg, init in self.outputs:
            self.powerup(v, reg and init is None)
        self.regs = []
        for _ in range(ch.int(0, 3) if self.stateful else 0):
            ty = g.port_type()
            if ty.kind == "enum" and not self.has_reset:
                ty = g.int_type()
            self.regs.append((Val(g.signal_name("r"), ty), self.reset_value(ty)))
            self.powerup(self.regs[-1][0], self.regs[-1][1] is None)
        self.arrays: list[tuple[Arr, str | None]] = []
        if self.has_reset and ch.chance(0.3):
            ty = g.any_type(wide=False)
            arr = Arr(g.fresh("ra"), ty, ch.pick([2, 4, 8, 3, 5, 70]), mem=False)
            self.arrays.append((arr, g.init_value(ty, consts)))
        self.memories = []
        if self.stateful and ch.chance(0.3):
            ty = g.any_type(wide=False, enum=False)
            size = ch.pick([2, 4, 8, 16, 32, 64, 128, 3, 100])  # > 64: z3 arrays, not bit-vectors
            self.arrays.append((Arr(g.fresh("m"), ty, size, mem=True), None))
            self.memories.append((self.arrays[-1][0].name, size))
        self.wires = [Val(g.signal_name("w"), g.any_type(wide=False)) for _ in range(ch.int(0, 3))]
        if self.memories and self.wires and ch.chance(0.2):  # the name of a memory's read port
            self.wires[0] = Val(f"{self.memories[0][0]}_{ch.pick(['rd', 'addr'])}", self.wires[0].ty)
        self.lines: list[str] = []

    def reset_value(self, ty: Ty) -> str | None:
        """A register's reset value, or None (no reset value) for some non-enum registers."""
        if ty.kind != "enum" and (not self.has_reset or self.g.ch.chance(0.2)):
            return None
        return self.g.init_value(ty, self.consts)

    def powerup(self, v: Val, reset_less: bool) -> None:
        """Now and then a power-up value (`initial e`) for a register without a reset value."""
        if reset_less and self.g.ch.chance(0.4):
            self.powerups[v.name] = self.g.init_value(v.ty, self.consts)

    def initial(self, name: str) -> str:
        return f" initial {self.powerups[name]}" if name in self.powerups else ""

    def state_vals(self) -> list[Val]:
        outs = [v for v, reg, _ in self.outputs if reg]
        return [v for v, _ in self.regs] + outs

    def base_scope(self) -> Scope:
        """What logic reads: consts, inputs, state (and a synchronous reset, now and then)."""
        reset = (Val(self.reset[0], BOOL),) if self.has_reset and self.g.ch.chance(0.3) else ()
        self.reads_reset = bool(reset)
        return Scope(vals=tuple(self.consts) + tuple(self.inputs) + reset + tuple(self.state_vals()),
                     fns=self.fns)

    def ports_text(self) -> str:
        g = self.g
        ports = [("clk: clock", 0)] if self.stateful else []
        if self.has_reset:
            ports.append((f"{self.reset[0]}: {self.reset[1]}", 1))
        ports += [(f"{v.name}: in {g.type_name(v.ty)}", 2) for v in self.inputs]
        bare = {}  # port -> its text in an extern declaration (no reset or power-up value)
        for v, reg, init in self.outputs:
            tail = f" = {init}" if init is not None else ""
            ports.append((f"{v.name}: out reg {g.type_name(v.ty)}{tail}{self.initial(v.name)}" if reg
                          else f"{v.name}: out {g.type_name(v.ty)}", 3))
            bare[ports[-1][0]] = f"{v.name}: out reg {g.type_name(v.ty)}" if reg else ports[-1][0]
        if g.ch.chance(0.5):  # any order: the lowering must keep it
            ports = g.ch.shuffle(ports)
        self.extern_ports = ", ".join(bare.get(p, p) for p, _ in ports)
        return ", ".join(p for p, _ in ports)

    def decls(self) -> list[str]:
        g = self.g
        out = [f"reg {v.name}: {g.type_name(v.ty)}{f' = {init}' if init is not None else ''}{self.initial(v.name)};"
               for v, init in self.regs]
        for arr, init in self.arrays:
            tail = f" = {init}" if init is not None else ""
            out.append(f"reg {arr.name}: {g.type_name(arr.ty)}[{arr.size}]{tail};")
        return out

    def comb_drivers(self, sc: Scope) -> tuple[list[str], Scope]:
        """Drivers for wires and plain outputs, each reading only signals driven before it."""
        g, ch = self.g, self.g.ch
        sigs = self.wires + [v for v, reg, _ in self.outputs if not reg]
        order = ch.shuffle(sigs)
        arrays = tuple(a for a, _ in self.arrays if not a.mem or g.comb_mem_reads)
        read = replace(sc, arrays=arrays)
        items, wire_decls = [], []
        wires = {w.name for w in self.wires}
        i = 0
        while i < len(order):
            group = order[i: i + ch.int(1, 3)]
            i += len(group)
            kind = ch.int(0, 2) if len(group) == 1 else 2
            if kind == 0 and group[0].name in wires:
                v = group[0]
                items.append(f"wire {v.name}: {g.type_name(v.ty)} = {g.expr(v.ty, g.depth, read)};")
            elif kind <= 1:
                v = group[0]
                items.append(f"{v.name} = {self.forced(v.ty, g.expr(v.ty, g.depth, read))};")
            else:
                items.append(self.comb_block(group, read))
            read = read.add(*group)
        declared = {t.split()[1].rstrip(":") for t in items if t.startswith("wire ")}
        wire_decls = [f"wire {w.name}: {g.type_name(w.ty)};" for w in self.wires if w.name not in declared]
        return wire_decls + items, read

    def forced(self, ty: Ty, value: str) -> str:
        """`value`, or now and then, where logic reads the reset, `if <reset active> then
        <literal> else (value)`: forced while the reset is active (of any kind; an asynchronous
        one in the same cycle, between the clock edges)."""
        if not self.reads_reset or not self.g.ch.chance(0.4):
            return value
        active = f"!{self.reset[0]}" if self.reset[1].endswith("_n") else self.reset[0]
        return f"if {active} then {self.g.literal(ty, False)} else ({value})"

    def comb_block(self, group: list[Val], sc: Scope) -> str:
        g, ch = self.g, self.g.ch
        lines = []
        for v in group:
            if ch.chance(0.75):
                lines.append(f"{v.name} = {g.expr(v.ty, g.depth, sc)};")
            else:  # every branch assigns: no default needed
                c = g.expr(BOOL, g.depth - 1, sc)
                lines.append(f"if {c} {{ {v.name} = {g.expr(v.ty, g.depth - 1, sc)}; }} "
                             f"else {{ {v.name} = {g.expr(v.ty, g.depth - 1, sc)}; }}")
        sc = sc.add(*group)
        lines += g.block(ch.int(0, 4), 2, sc, "comb", group)
        return "comb { " + " ".join(lines) + " }"

    def seq_blocks(self, sc: Scope) -> list[str]:
        g, ch = self.g, self.g.ch
        targets = self.state_vals() + [a for a, _ in self.arrays]
        if not targets:
            return []
        sc = replace(sc, arrays=tuple(a for a, _ in self.arrays))
        split = ch.int(1, len(targets)) if len(targets) > 1 and ch.chance(0.3) else len(targets)
        blocks = []
        for part in (targets[:split], targets[split:]):
            if not part:
                continue
            lines = [g.write(t, sc, "seq") for t in part]
            lines += g.block(ch.int(0, 4), 2, sc, "seq", part)
            blocks.append("seq { " + " ".join(lines) + " }")
        return blocks

    def asserts(self, sc: Scope) -> list[str]:
        g = self.g
        spec = replace(sc, spec=True, arrays=tuple(a for a, _ in self.arrays))
        if self.has_reset and self.g.ch.chance(0.3):  # properties may read any reset
            spec = spec.add(Val(self.reset[0], BOOL))
        out = []
        for _ in range(g.ch.int(0, 2)):
            kind = g.ch.pick(("assert", "assert", "cover", "bounded"))
            if kind == "bounded":  # `a ==> next(b, n)` or `a ==> within(b, n)`: prev chains of a and b
                form, n = g.ch.pick(("next", "within")), g.ch.int(1, 3)
                out.append(f"assert {g.expr(BOOL, 1, spec)} ==> {form}({g.expr(BOOL, 1, spec)}, {n});")
            else:
                out.append(f"{kind} {g.expr(BOOL, 2, spec)};")
        return out

    def instances(self, sc: Scope) -> tuple[list[str], Scope]:
        """`inst` lines for `children`, and the scope with their outputs."""
        g, lines = self.g, []
        for name, child in self.children:
            binds = []
            if child.stateful:
                binds.append("clk: clk")
            if child.has_reset:
                binds.append(f"{child.reset[0]}: {self.reset[0]}")
            binds += [f"{v.name}: {g.expr(v.ty, g.depth, sc)}" for v in child.inputs]
            params = getattr(child, "inst_params", "")  # `<W = 8>`: a binding (tests/gen_hier.py)
            lines.append(f"inst {name} = {child.name}{params}({', '.join(g.ch.shuffle(binds))});")
            sc = sc.add(*(Val(f"{name}.{v.name}", v.ty) for v, _, _ in child.outputs))
        return lines, sc

    def text(self) -> str:
        g = self.g
        sc = self.base_scope()
        insts, sc = self.instances(sc)
        comb, full = self.comb_drivers(sc)
        body = self.decls() + insts + comb + self.seq_blocks(full) + self.asserts(full)
        if g.ch.chance(0.3):  # the order of module items does not matter
            body = g.ch.shuffle(body)
        inner = "\n".join("  " + line for line in body)
        self.name = g.module_name
        return f"module {g.module_name}({self.ports_text()}) {{\n{inner}\n}}"


# ---- entry points ----------------------------------------------------------------------------

def design_from_seed(seed: int, module: str = "dut", **opts) -> Generated:
    """The design for a seed: the same seed gives the same text."""
    return DesignGen(RandomChooser(seed), module, **opts).generate()


@st.composite
def designs(draw, **opts) -> Generated:
    """A hypothesis strategy of generated designs; shrinks towards small ones."""
    return DesignGen(DrawChooser(draw), **opts).generate()
