"""Small random designs with properties over time, for yosys-smtbmc to judge against `sysr check`.

`temporal_design(seed)` writes a module whose state is a shift register of an input (`q` is the
input `a` delayed by D cycles) and a toggle, under one of the four resets, and whose properties
are random `prev(e, n)`, `a ==> next(b, n)` and `a ==> within(b, n)` over the inputs, the state
and their history: some true (the latency stated exactly, or with room), some off by one, some
arbitrary. The cross-check (tests/test_temporal.py) has smtbmc prove or refute each one through
`sysr lower --formal`, an implementation of the same meaning independent of the checker's
(history registers and validity flags written in Verilog rather than elaborated into z3).
"""

from __future__ import annotations

import random

RESETS = (("rst", "reset"), ("rst_n", "reset_n"), ("arst", "areset"), ("arst_n", "areset_n"))


def temporal_design(seed: int) -> str:
    r = random.Random(seed)
    delay = r.randint(1, 4)
    rname, rkind = r.choice(RESETS)
    atoms = ["a", "b", "q", "t", "s[0]", "s[1]", f"prev(a, {r.randint(1, 3)})", "prev(b)", "prev(t, 2)"]

    def cond(depth: int = 2, history: bool = True) -> str:
        if depth == 0 or r.random() < 0.4:
            atom = r.choice(atoms if history else [x for x in atoms if "prev" not in x])
            return f"!{atom}" if r.random() < 0.3 else atom
        return f"({cond(depth - 1, history)} {r.choice(('&&', '||'))} {cond(depth - 1, history)})"

    def prop() -> str:
        shape = r.randrange(7)
        if shape == 0:  # the latency, exact or off by one
            return f"a ==> next(q, {max(1, delay + r.choice((-1, 0, 0, 1)))})"
        if shape == 1:  # with room, or one cycle short of it
            return f"a ==> within(q, {max(1, delay + r.choice((-1, 0, 1, 2)))})"
        if shape == 2:
            return f"q == prev(a, {max(1, delay + r.choice((-1, 0, 0)))})"
        k = r.randint(0, 3)
        if shape == 3:  # a bit of the shift register, as a bounded form and as a `prev`
            return f"{cond(1)} && a ==> next(s[{k}], {k + 1})"
        if shape == 4:
            return f"prev(a && {cond(1, False)}, {k + 1}) ==> s[{k}] && prev(t != b, {k + 1}) == prev(t != b, {k + 1})"
        return f"{cond()} ==> {r.choice(('next', 'within'))}({cond()}, {r.randint(1, 3)})"

    props = "\n".join(f"  assert {prop()};" for _ in range(r.randint(1, 2)))
    return f"""module tp(clk: clock, {rname}: {rkind}, a: in bool, b: in bool, q: out bool) {{
  reg s: u4 = 0;          // `a` over the last four cycles
  reg t: bool = false;    // toggles with `b`
  q = s[{delay - 1}];
  seq {{ s <= {{s[2:0], a}}; if b {{ t <= !t; }} }}
{props}
}}
"""
