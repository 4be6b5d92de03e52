"""Random well-typed hierarchies: a top module with instances of generated child modules.

`hierarchy_from_seed(seed)` writes one file: an enum, consts and fns (shared), one to three
child modules generated like tests/gen_designs.py's designs (`ModuleParts`), some purely
combinational, and a top module `dut` that instantiates them (one to four instances, a child
maybe twice). An instance binds every input of its child, the clock and the reset passed
through, its inputs from expressions over what the top reads (consts, inputs, registers) and the
outputs of the instances declared before it, so that no combinational cycle can arise; the top's
logic, seq blocks and asserts read every instance's outputs (`u1.y3`). The modules share one
kind of reset, as an instance's reset is its parent's (now and then none has one: registers
without reset values all through). A child may itself instantiate an earlier
child (two levels below the top). Every child is instantiated somewhere.

Each child also gets outputs with a contract that holds by construction (`add_contracts`), so
that facts cross the instance boundary: a combinational `k = e;` with `ensures k == e;`, and in a
child with a clock a registered `q <= e;` with `ensures q == prev(e);` (`e` over the child's
inputs): the parent's proofs assume them about `u.k` and `u.q`, with the bindings for the inputs.

`extern_text` is the same file with some children (those without instances of their own)
declared as extern modules: their ports and those `ensures` (tests/test_differential_hier.py
checks that a parent takes them as it takes the children, and lowers to the same Verilog less
their modules).

Parameters (§4.8): now and then a child is made generic (`parameterize`): one of its widths
becomes a parameter `W` (written `u[W]`, or an exact expression of `W` and `K` that equals it),
set by its instances to the width it had; and now and then the top also instantiates a fixed
generic module `pk` twice with two random bindings (`ParamChild`), whose outputs it reads.

The semantics of the whole hierarchy is the evaluator's flat system (`sysr.elab.flat`), which
the differential tests compare with Icarus on the lowered hierarchy and with z3, and with the
top's system for its proofs (`sysr.elab.contract`).
"""

from __future__ import annotations

import re

from gen_base import Generated, RandomChooser, Scope, Val
from gen_designs import RESETS, DesignGen, ModuleParts
from sysr.types import uint

WIDTH_FORMS = ("W", "W + K - K", "(W * 2) / 2", "clog2(1 << W)", "(if K > 100 then 1 else W)")


def parameterize(g: DesignGen, parts: ModuleParts, text: str) -> str:
    """`text` (the child's module) with one of its unsigned widths made the parameter `W`; its
    instances set `W` to that width (`parts.inst_params`), so the hierarchy means what it did."""
    widths = sorted({int(n) for n in re.findall(r"\bu(\d+)\b", text)})
    if not widths:
        return text
    n = g.ch.pick(widths)
    form = g.ch.pick(WIDTH_FORMS)
    k = g.ch.int(0, 9)
    text = re.sub(rf"\bu{n}\b", f"u[{form}]", text)
    head, rest = text.split("(", 1)
    parts.inst_params = f"<W = {n}, K = {k}>" if g.ch.chance(0.5) else f"<K = {k}, W = {n}>"
    return f"{head}<W: int = {g.ch.int(1, 16)}, K: int = 0>({rest}"


class ParamChild:
    """One binding of the generic module `pk` (`text` writes it), as `ModuleParts` shows a child
    to the parent that instantiates it."""

    def __init__(self, w: int, k: int, reset: tuple[str, str], has_reset: bool) -> None:
        self.name, self.stateful, self.reset, self.has_reset = "pk", True, reset, has_reset
        self.inst_params = f"<W = {w}, K = {k}>"
        self.inputs = [Val("x", uint(w))]
        self.outputs = [(Val("y", uint(w)), False, None), (Val("q", uint(w)), True, None)]

    def text(self) -> str:
        rst = f", {self.reset[0]}: {self.reset[1]}" if self.has_reset else ""
        init = " = K % (M + 1)" if self.has_reset else ""
        return (f"module pk<W: int = 4, K: int = 1>(clk: clock{rst}, x: in u[W], y: out u[W],\n"
                f"                                  q: out reg u[W]{init}) {{\n"
                "  const M: int = (1 << W) - 1;\n"
                "  y = (x ^ M) + K % (M + 1);\n"
                "  seq { q <= if x > K % (M + 1) then x - 1 else (x >> clog2(W)) + 1; }\n"
                "  ensures y == ~x + K % (M + 1);\n"
                "}")


def add_contracts(g: DesignGen, parts: ModuleParts, text: str) -> tuple[str, str]:
    """The child's text with outputs whose `ensures` hold by construction (see the docstring);
    `parts.outputs` gets them, so that the parent reads them. Also the child as an extern module:
    its ports (registered outputs without their reset and power-up values) and those `ensures`."""
    sc = Scope(vals=tuple(parts.consts) + tuple(parts.inputs), fns=parts.fns)
    ports, lines = [], []
    ty = g.port_type()
    k, e = Val(g.signal_name("k"), ty), g.expr(ty, 2, sc)
    ports.append(f"{k.name}: out {g.type_name(ty)}")
    lines += [f"{k.name} = {e};", f"ensures {k.name} == ({e});"]
    parts.outputs.append((k, False, None))
    if parts.stateful and ty.kind != "enum":  # (an enum register needs a reset value)
        q, e = Val(g.signal_name("q"), ty), g.expr(ty, 2, sc)
        init = f" = {parts.g.init_value(ty, parts.consts)}" if parts.has_reset else ""
        ports.append(f"{q.name}: out reg {g.type_name(ty)}{init}")
        lines += [f"seq {{ {q.name} <= {e}; }}", f"ensures {q.name} == prev({e});"]
        parts.outputs.append((q, True, None))
    head, rest = text.split("(", 1)
    body = rest.rsplit("\n}", 1)[0]
    extern_ports = [p.split(" = ")[0] for p in ports]  # (the contract's outputs: `q: out reg T = V`)
    contract = "".join(f"  {ln}\n" for ln in lines if ln.startswith("ensures"))
    extern = f"extern {head}({', '.join(extern_ports + [parts.extern_ports])}) {{\n{contract}}}"
    text = f"{head}({', '.join(ports)}, {body}\n" + "".join(f"  {ln}\n" for ln in lines) + "}"
    # as many lines as the child, so that the modules after it keep their spans
    return text, extern + "\n" * (text.count("\n") - extern.count("\n"))


def hierarchy_from_seed(seed: int, module: str = "dut") -> Generated:
    g = DesignGen(RandomChooser(seed), module)
    ch = g.ch
    items = [g.enum_decl()]
    consts_text, consts = g.const_decls(ch.int(0, 2))
    fns_text, fns = g.fn_decls(ch.int(0, 2), consts)
    items += consts_text + fns_text
    reset = ch.weighted(RESETS)
    has_reset = not ch.chance(0.08)  # now and then no module has a reset port
    children: list[ModuleParts] = []
    externs = list(items)  # the file with some children declared `extern`
    for i in range(ch.int(1, 3)):
        g.module_name = f"sub{i + 1}"
        grand = [(f"g{i + 1}", children[-1])] if children and ch.chance(0.3) else []
        parts = ModuleParts(g, consts, fns, stateful=ch.chance(0.7) or any(c.stateful for _, c in grand),
                            reset=reset, has_reset=has_reset, children=grand)
        text, extern = add_contracts(g, parts, parts.text())
        generic = ch.chance(0.4)
        items.append(parameterize(g, parts, text) if generic else text)
        # a child without instances or parameters of its own may be extern (its children would be left unused)
        externs.append(extern if not grand and not generic and ch.chance(0.4) else items[-1])
        children.append(parts)
    inside = {id(c) for parts in children for _, c in parts.children}
    chosen = [c for c in children if id(c) not in inside]  # every child is instantiated somewhere
    chosen += [ch.pick(children) for _ in range(ch.int(0, 2))]
    if ch.chance(0.4):  # two bindings of one generic module
        pks = [ParamChild(w, ch.int(0, 20), reset, has_reset) for w in (ch.int(1, 8), ch.int(1, 12))]
        items.append(pks[0].text())
        externs.append(items[-1])
        chosen += pks
    insts = [(f"u{k + 1}", c) for k, c in enumerate(ch.shuffle(chosen))]
    g.module_name = module
    top = ModuleParts(g, consts, fns, stateful=True, reset=reset, has_reset=has_reset, children=insts)
    items.append(top.text())
    externs.append(items[-1])
    return Generated("\n".join(items) + "\n", module, extern_text="\n".join(externs) + "\n")
