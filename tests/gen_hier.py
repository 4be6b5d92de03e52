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

The semantics of the whole hierarchy is the evaluator's flat system (`sysr.hier.flat`), which
the differential tests compare with Icarus on the lowered hierarchy and with z3.
"""

from __future__ import annotations

from gen_designs import RESETS, DesignGen, Generated, ModuleParts, RandomChooser


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
    for i in range(ch.int(1, 3)):
        g.module_name = f"sub{i + 1}"
        grand = [(f"g{i + 1}", children[-1])] if children and ch.chance(0.3) else []
        parts = ModuleParts(g, consts, fns, stateful=ch.chance(0.7) or any(c.stateful for _, c in grand),
                            reset=reset, has_reset=has_reset, children=grand)
        items.append(parts.text())
        children.append(parts)
    inside = {id(c) for parts in children for _, c in parts.children}
    chosen = [c for c in children if id(c) not in inside]  # every child is instantiated somewhere
    chosen += [ch.pick(children) for _ in range(ch.int(0, 2))]
    insts = [(f"u{k + 1}", c) for k, c in enumerate(ch.shuffle(chosen))]
    g.module_name = module
    top = ModuleParts(g, consts, fns, stateful=True, reset=reset, has_reset=has_reset, children=insts)
    items.append(top.text())
    return Generated("\n".join(items) + "\n", module)
