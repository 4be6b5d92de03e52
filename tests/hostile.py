"""Hostile sysr designs, generated at any size: the inputs that crashed or exhausted the checker.

Each generator takes a size and returns the text of one file (`bytes` where the point is the
encoding). tests/test_limits.py runs each just past the limit it meets (small and fast);
benchmarks/hostile_inputs.py runs each at the size of the original attack, under the
benchmark's limits. `ATTACKS` names them with their sizes and the codes they get.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

HEADER = "module m(clk: clock, rst: reset, a: in u8, y: out u8) {\n"


def operator_chain(n: int) -> str:
    """`y = a + a + ... + a` with n operators (issue 11: ~260 overflowed the recursion)."""
    return HEADER + "  y = " + " + ".join(["a"] * (n + 1)) + ";\n}\n"


def if_chain(n: int) -> str:
    """`if a == 0 then 0 else if a == 1 then 1 else ...`: n nested ifs."""
    body = "".join(f"if a == {i % 256} then {i % 256} else " for i in range(n)) + "0"
    return HEADER + f"  y = {body};\n}}\n"


def unary_chain(n: int) -> str:
    return HEADER + "  y = " + "~" * n + "a;\n}\n"


def parens(n: int) -> str:
    """Parentheses nest the parser, not the tree: this one is fine at any size."""
    return HEADER + "  y = " + "(" * n + "a" + ")" * n + ";\n}\n"


def nested_statements(n: int) -> str:
    body = "".join(f"if a == {i % 256} {{ " for i in range(n)) + "y = a; " + "} " * n
    return HEADER + f"  comb {{ y = 0; {body}}}\n}}\n"


def long_literal(digits: int) -> str:
    """A decimal literal of `digits` digits (issue 11: 5,000 hit int()'s digit limit)."""
    return HEADER + f"  y = a;\n  ensures y != {'9' * digits} as u8;\n}}\n"


def long_type_name(digits: int) -> str:
    return f"module m(a: in u{'9' * digits}, y: out bool) {{ y = true; }}\n"


def long_name(chars: int) -> str:
    name = "n" * chars
    return f"module m(a: in u8, {name}: out u8) {{ {name} = a; }}\n"


def nested_quantifiers(levels: int) -> str:
    """`forall` over u8 nested `levels` deep (issue 11: four ran out of memory or time)."""
    names = [f"q{i}" for i in range(levels)]
    quants = "".join(f"forall {v}: u8 :: " for v in names)
    return HEADER + f"  reg r: u8 = 0;\n  seq {{ r <= a; }}\n  y = r;\n  assert {quants}({' ^ '.join(names)}) != r || true;\n}}\n"


def diagnostic_flood(n: int) -> str:
    """n outputs, each driven from an unknown name: n N001 errors (issue 11: the JSON report
    outgrew the scorer's 256 KiB cap and no longer parsed)."""
    outs = ", ".join(f"y{i}: out u8" for i in range(n))
    body = "".join(f"  y{i} = zz{i};\n" for i in range(n))
    return f"module m(a: in u8, {outs}) {{\n{body}}}\n"


def long_comment(size: int) -> str:
    """A design after a comment of `size` bytes (issue 11: 10 MB ran lark out of memory)."""
    return "/*" + "x" * size + "*/\nmodule m(a: in u8, y: out u8) { y = a; }\n"


def many_ports(n: int) -> str:
    """n input ports and a register (issue 11: 100,000 ports ran z3 out of memory)."""
    ports = ", ".join(f"p{i}: in u8" for i in range(n))
    return (f"module m(clk: clock, rst: reset, {ports}, y: out u8) {{\n  reg r: u8 = 0;\n"
            "  seq { r <= p0; }\n  y = r;\n  ensures y == prev(p0) || !prev(true);\n}\n")


def unrolled_loops(n: int) -> str:
    """Two nested `for` loops of n iterations each: n * n unrolled assignments."""
    return (HEADER.replace("y: out u8", "y: out u8, b: in u16") +
            f"  comb {{ y = a; for i in 0..{n} {{ for j in 0..{n} {{ if b == i as u16 {{ y = y + 1; }} }} }} }}\n}}\n")


def doubling_fns(n: int) -> str:
    """fn f{k} calls f{k-1} twice: inlining doubles the work n times."""
    fns = "fn f0(x: u8) -> u8 { x + 1 }\n"
    fns += "".join(f"fn f{k}(x: u8) -> u8 {{ f{k - 1}(x) ^ f{k - 1}(x + 1) }}\n" for k in range(1, n + 1))
    return fns + f"module m(a: in u8, y: out u8) {{ y = f{n}(a); }}\n"


def deep_fn_chain(n: int) -> str:
    """fn f{k} nests f{k-1} inside an expression: nesting adds up once the fns are inlined."""
    depth = 40
    fns = "fn f0(x: u8) -> u8 { x }\n"
    fns += "".join(f"fn f{k}(x: u8) -> u8 {{ {'~' * depth}f{k - 1}(x) }}\n" for k in range(1, n + 1))
    return fns + f"module m(a: in u8, y: out u8) {{ y = f{n}(a); }}\n"


def wire_chain(n: int) -> str:
    """n wires, each computed from the one before."""
    wires = "".join(f"  wire w{i}: u8 = w{i - 1} + 1;\n" for i in range(1, n))
    return f"module m(a: in u8, y: out u8) {{\n  wire w0: u8 = a;\n{wires}  y = w{n - 1};\n}}\n"


def long_line(n: int) -> str:
    """The whole design on one line, with an error at its end."""
    wires = " ".join(f"wire w{i}: u8 = a;" for i in range(n))
    return f"module m(a: in u8, y: out u8) {{ {wires} y = nope; }}"


def wide_multipliers(n: int) -> str:
    """n 256-bit registers, each multiplied by an odd input every cycle, and proven never 0 (true:
    a product of odd numbers is odd): proving it bit-blasts every multiplier, and z3 runs out of
    memory. (A property refuted in cycle 1, as this had, is now decided before memory runs out.)"""
    ports = ", ".join(f"p{i}: in u256" for i in range(n))
    regs = "".join(f"  reg r{i}: u256 = 1;\n" for i in range(n))
    seqs = " ".join(f"r{i} <= r{i} * p{i};" for i in range(n))
    reqs = "".join(f"  requires p{i}[0];\n" for i in range(n))
    props = "".join(f"  invariant r{i} != 0;\n" for i in range(n))
    return (f"module m(clk: clock, rst: reset, {ports}, y: out u256) {{\n{regs}  seq {{ {seqs} }}\n  y = r0;\n"
            f"{reqs}{props}}}\n")


def many_instances(n: int) -> str:
    """n instances of one small module in the top."""
    insts = "".join(f"  inst u{i} = leaf(x: a);\n" for i in range(n))
    return "module leaf(x: in u8, y: out u8) {\n  y = x + 1;\n}\n" + HEADER + insts + "  y = u0.y;\n}\n"


def deep_hierarchy(n: int) -> str:
    """n modules, each the only instance inside the next."""
    out = ["module m0(x: in u8, y: out u8) {\n  y = x;\n}\n"]
    out += [f"module m{i}(x: in u8, y: out u8) {{\n  inst u = m{i - 1}(x: x);\n  y = u.y;\n}}\n"
            for i in range(1, n)]
    return "".join(out)


def doubling_instances(n: int) -> str:
    """n modules, each with two instances of the one below: 2^(n-1) leaves when flattened (each
    module is proven on its own, so only a replay on the flattened hierarchy meets its size). The
    top's property is false, so its counterexample is replayed (tests/test_limits.py)."""
    out = ["module m0(x: in u8, y: out u8) {\n  y = x + 1;\n}\n"]
    out += [f"module m{i}(x: in u8, y: out u8) {{\n  inst a = m{i - 1}(x: x);\n  inst b = m{i - 1}(x: a.y);\n"
            f"  y = b.y;\n}}\n" for i in range(1, n)]
    out.append(f"module top(x: in u8, y: out u8) {{\n  inst t = m{n - 1}(x: x);\n  y = t.y;\n  assert y != 7;\n}}\n")
    return "".join(out)


def not_utf8(n: int) -> bytes:
    return b"// " + b"\xff" * n + b"\nmodule m(a: in u8, y: out u8) { y = a; }\n"


def nul_bytes(n: int) -> bytes:
    return b"module m(a: in u8, y: out u8) { y = a; }" + b"\x00" * n


@dataclass(frozen=True)
class Attack:
    make: Callable[[int], str | bytes]
    size: int  # as the original attack (benchmarks/hostile_inputs.py)
    code: str | None  # what that size gets; None: it is accepted
    test_size: int  # just past the limit (tests/test_limits.py)
    test_code: str
    proofs: bool = False  # whether the limit is met only once the design is elaborated
    memory: int = 0  # MiB of address space to run it in (0: it needs no memory limit)
    lowers: bool = False  # whether `sysr lower` takes it all the same (the limit is the prover's)


ATTACKS = {
    "operator chain": Attack(operator_chain, 260, None, 600, "L003"),
    "if chain": Attack(if_chain, 5_000, "L003", 600, "L003"),
    "unary chain": Attack(unary_chain, 100_000, "L003", 600, "L003"),
    "nested statements": Attack(nested_statements, 5_000, "L003", 600, "L003"),
    "long literal": Attack(long_literal, 5_000, "L004", 4_300, "L004"),
    "long type name": Attack(long_type_name, 5_000, "L004", 300, "L004"),
    "long name": Attack(long_name, 100_000, "L004", 300, "L004"),
    "nested quantifiers": Attack(nested_quantifiers, 4, "L005", 3, "L005", proofs=True),
    "diagnostic flood": Attack(diagnostic_flood, 3_000, "N001", 300, "N001"),
    "long comment": Attack(long_comment, 10_000_000, "L001", (1 << 20) + 1, "L001"),
    "many ports": Attack(many_ports, 100_000, "L001", 4_100, "L006"),
    "unrolled loops": Attack(unrolled_loops, 4_096, "L007", 500, "L007", proofs=True),
    "doubling fns": Attack(doubling_fns, 40, "L007", 18, "L007", proofs=True),
    "deep fn chain": Attack(deep_fn_chain, 500, "L003", 60, "L003", proofs=True),
    "wide multipliers": Attack(wide_multipliers, 90, "L008", 30, "L008", proofs=True, memory=1024,
                               lowers=True),
    "many instances": Attack(many_instances, 100_000, "L001", 1_025, "L009"),
    "deep hierarchy": Attack(deep_hierarchy, 10_000, "L010", 33, "L010"),
    "not UTF-8": Attack(not_utf8, 1_000, "L002", 1, "L002"),
    "NUL bytes": Attack(nul_bytes, 1_000, "L002", 1, "L002"),
}
