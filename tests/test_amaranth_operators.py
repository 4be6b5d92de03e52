"""`sysr.amaranth`'s operators at their edge values, simulated by Amaranth against `sysr.types`.

Every operator at its edge values (wrap-around, large shifts, signed comparison, casts), and
`/` and `%` on every pair of edge values from 1 to 256 bits (zero divisors, `MIN / -1`, signs),
against `sysr.types` and against the numbers themselves (the random designs of
tests/test_differential_amaranth.py cover the rest). The rest of the back end is tested in
tests/test_amaranth.py.
"""

from __future__ import annotations

import random

import pytest
from amaranth.hdl import Signal, signed

import sysr.amaranth as sa
from sysr import elab as E
from sysr.types import BOOL, mask, op_binary, op_cast, op_divide, op_unary, sint, uint
from test_amaranth import run

# ---- every operator at its edges, against sysr.types ----------------------------------------

TYPES = [uint(1), uint(8), sint(8), uint(13), sint(13), uint(64), sint(64), uint(100)]
SHIFTS = [uint(3), uint(4), uint(7), uint(64)]


def edge_values(ty, rng, n=10) -> list[int]:
    w = ty.width
    edges = [0, 1, mask(w), 1 << (w - 1), mask(w) >> 1, (1 << (w - 1)) + 1]
    return [v & mask(w) for v in edges] + [rng.getrandbits(w) for _ in range(n - len(edges))]


def operator_design() -> tuple[str, list]:
    """One combinational design with an output per (operator, type) and its reference function."""
    ports, body, checks = [], [], []
    for k, ty in enumerate(TYPES):
        ports += [f"a{k}: in {ty}", f"b{k}: in {ty}"]
        for j, op in enumerate(["+", "-", "*", "&", "|", "^"]):
            ports.append(f"o{k}_{j}: out {ty}")
            body.append(f"o{k}_{j} = a{k} {op} b{k};")
            checks.append((f"o{k}_{j}", lambda v, k=k, op=op, ty=ty: op_binary(op, v[f"a{k}"], v[f"b{k}"], ty)))
        for j, op in enumerate(["==", "!=", "<", "<=", ">", ">="]):
            ports.append(f"c{k}_{j}: out bool")
            body.append(f"c{k}_{j} = a{k} {op} b{k};")
            checks.append((f"c{k}_{j}", lambda v, k=k, op=op, ty=ty: op_binary(op, v[f"a{k}"], v[f"b{k}"], ty)))
        ports += [f"n{k}: out {ty}", f"i{k}: out {ty}"]
        body += [f"n{k} = -a{k};", f"i{k} = ~a{k};"]
        checks += [(f"n{k}", lambda v, k=k, ty=ty: op_unary("-", v[f"a{k}"], ty)),
                   (f"i{k}", lambda v, k=k, ty=ty: op_unary("~", v[f"a{k}"], ty))]
        for j, sh in enumerate(SHIFTS):
            ports += [f"sl{k}_{j}: out {ty}", f"sr{k}_{j}: out {ty}"]
            body += [f"sl{k}_{j} = a{k} << s{j};", f"sr{k}_{j} = a{k} >> s{j};"]
            checks += [(f"sl{k}_{j}", lambda v, k=k, j=j, ty=ty, sh=sh: op_binary("<<", v[f"a{k}"], v[f"s{j}"], ty, sh)),
                       (f"sr{k}_{j}", lambda v, k=k, j=j, ty=ty, sh=sh: op_binary(">>", v[f"a{k}"], v[f"s{j}"], ty, sh))]
        for j, dst in enumerate(TYPES):
            ports.append(f"x{k}_{j}: out {dst}")
            body.append(f"x{k}_{j} = a{k} as {'u1' if dst == BOOL else dst};")
            checks.append((f"x{k}_{j}", lambda v, k=k, ty=ty, dst=dst: op_cast(v[f"a{k}"], ty, dst)))
    ports += [f"s{j}: in {sh}" for j, sh in enumerate(SHIFTS)]
    return "module ops(" + ", ".join(ports) + ") {\n  " + "\n  ".join(body) + "\n}\n", checks


def test_every_operator_matches_sysr_types_at_its_edge_values():
    text, checks = operator_design()
    c = sa.from_text(text, verify=False)
    rng = random.Random(7)
    d = c.design
    inputs = [(n, d.signals[n].ty) for n in c.port_names if d.signals[n].kind == "in"]
    vectors = []
    for t in range(12):
        row = {}
        for name, ty in inputs:
            vals = edge_values(ty, rng, 12) if not name.startswith("s") else \
                [0, 1, mask(ty.width), 7, 8, 12, 13, 63, 64, 99, 100, rng.getrandbits(ty.width)]
            row[name] = vals[t] & mask(ty.width)
        vectors.append(row)
    wrong = []

    async def testbench(ctx):
        for row in vectors:
            for name, v in row.items():
                ctx.set(c.port(name), v)
            for name, ref in checks:
                sig = c.port(name)
                got = ctx.get(sig) & mask(len(sig))
                if got != ref(row):
                    wrong.append(f"{name} with {row}: Amaranth {got:#x}, sysr {ref(row):#x}")

    run(c, testbench, clock=False)
    assert not wrong, "\n".join(wrong[:10])


# ---- division and remainder at their edges ---------------------------------------------------
#
# Amaranth's own `//` and `%` floor and give 0 for a zero divisor; sysr's are Verilog's
# (truncating, the remainder with the dividend's sign, `MIN / -1 == MIN`) with SMT-LIB's values
# for a zero divisor (`sysr.types.op_divide`). Every pair of edge values, at widths from 1 to 256,
# with dynamic and constant divisors (a non-zero constant builds no zero-divisor case).

DIV_TYPES = [uint(1), sint(1), sint(2), uint(8), sint(8), uint(13), sint(13), uint(64), sint(64),
             sint(65), uint(256), sint(256)]


def divisor_constants(ty) -> list[int]:
    """Constant divisors (as the numbers written) for a type: 1, 3, -1, -3, MIN, MAX, all ones."""
    w = ty.width
    if not ty.signed:
        return sorted({1, 3 % (1 << w) or 1, mask(w)})
    return sorted({c for c in (1, 3, -1, -3, -(1 << (w - 1)), (1 << (w - 1)) - 1)
                   if c != 0 and -(1 << (w - 1)) <= c < (1 << (w - 1))})


def division_design() -> tuple[str, list]:
    ports, body, checks = [], [], []
    for k, ty in enumerate(DIV_TYPES):
        ports += [f"a{k}: in {ty}", f"b{k}: in {ty}", f"q{k}: out {ty}", f"r{k}: out {ty}"]
        body += [f"q{k} = a{k} / b{k};", f"r{k} = a{k} % b{k};"]
        checks += [(f"q{k}", lambda v, k=k, ty=ty: op_divide("/", v[f"a{k}"], v[f"b{k}"], ty)),
                   (f"r{k}", lambda v, k=k, ty=ty: op_divide("%", v[f"a{k}"], v[f"b{k}"], ty))]
        for j, c in enumerate(divisor_constants(ty)):
            ports += [f"cq{k}_{j}: out {ty}", f"cr{k}_{j}: out {ty}"]
            body += [f"cq{k}_{j} = a{k} / {c};", f"cr{k}_{j} = a{k} % {c};"]
            checks += [(f"cq{k}_{j}", lambda v, k=k, ty=ty, c=c: op_divide("/", v[f"a{k}"], c & mask(ty.width), ty)),
                       (f"cr{k}_{j}", lambda v, k=k, ty=ty, c=c: op_divide("%", v[f"a{k}"], c & mask(ty.width), ty))]
    return "module div(" + ", ".join(ports) + ") {\n  " + "\n  ".join(body) + "\n}\n", checks


def division_values(ty, rng) -> list[int]:
    """0, 1, -1 (all ones), MIN, MAX, MIN + 1, 2, -2, and two random patterns, as bit patterns."""
    w = ty.width
    edges = [0, 1, mask(w), 1 << (w - 1), mask(w) >> 1, (1 << (w - 1)) + 1, 2, mask(w) - 1]
    return sorted({v & mask(w) for v in edges} | {rng.getrandbits(w) for _ in range(2)})


def settle(c, rows: list[dict], names: list[str]) -> list[dict]:
    """The values of outputs `names` of a combinational component for each row of inputs."""
    out = []

    async def testbench(ctx):
        for row in rows:
            for name, v in row.items():
                ctx.set(c.port(name), v)
            out.append({n: ctx.get(c.port(n)) & mask(len(c.port(n))) for n in names})

    run(c, testbench, clock=False)
    return out


@pytest.fixture(scope="module")
def divider():
    text, checks = division_design()
    return sa.from_text(text, verify=False), checks  # unproven: the divisors may be zero


def test_division_matches_sysr_types_at_every_pair_of_edge_values(divider):
    c, checks = divider
    rng = random.Random(11)
    values = [division_values(ty, rng) for ty in DIV_TYPES]
    rows = []
    for t in range(max(len(v) for v in values) ** 2):
        rows.append({})
        for k, vals in enumerate(values):
            n = len(vals)
            rows[-1][f"a{k}"], rows[-1][f"b{k}"] = vals[(t // n) % n], vals[t % n]
    got = settle(c, rows, [name for name, _ in checks])
    wrong = [f"{name} of a, b = {row['a' + k]:#x}, {row['b' + k]:#x}: Amaranth {g[name]:#x}, sysr {ref(row):#x}"
             for row, g in zip(rows, got) for name, ref in checks
             if g[name] != ref(row) for k in [name.lstrip("cqr").split("_")[0]]]
    assert not wrong, "\n".join(wrong[:10])
    pairs = {(r["a4"], r["b4"]) for r in rows}  # s8: the cases that matter were all driven
    assert {(0x80, 0xff), (0x80, 0), (0x7f, 0), (0, 0), (0xff, 0x80)} <= pairs


S8, U8, S1, S256 = sint(8), uint(8), sint(1), sint(256)
DIVISION_CASES = [  # (type, a, b, a / b, a % b), as numbers
    (S8, -7, 2, -3, -1), (S8, 7, -2, -3, 1), (S8, -7, -2, 3, -1), (S8, 7, 2, 3, 1),
    (S8, -128, -1, -128, 0),  # the overflow wraps to MIN
    (S8, -128, 1, -128, 0), (S8, -128, -128, 1, 0), (S8, 127, -128, 0, 127), (S8, -127, -128, 0, -127),
    (S8, 5, 0, -1, 5), (S8, -5, 0, 1, -5), (S8, 0, 0, -1, 0), (S8, -128, 0, 1, -128),  # SMT-LIB's x / 0
    (U8, 200, 0, 255, 200), (U8, 0, 0, 255, 0), (U8, 255, 16, 15, 15), (U8, 255, 255, 1, 0),
    (S1, -1, -1, -1, 0), (S1, 0, -1, 0, 0), (S1, -1, 0, -1, -1), (S1, 0, 0, -1, 0),
    (S256, -(1 << 255), -1, -(1 << 255), 0), (S256, -(1 << 255), 0, 1, -(1 << 255)), (S256, -7, 2, -3, -1),
]


def test_division_edge_cases_have_verilogs_and_smt_libs_values(divider):
    """The numbers themselves, so that the test does not lean on `sysr.types` alone."""
    c, _ = divider
    rows, want = [], []
    for ty, a, b, q, r in DIVISION_CASES:
        k = DIV_TYPES.index(ty)
        rows.append({f"a{k}": a & mask(ty.width), f"b{k}": b & mask(ty.width)})
        want.append({f"q{k}": q & mask(ty.width), f"r{k}": r & mask(ty.width)})
    got = settle(c, rows, sorted({n for w in want for n in w}))
    wrong = [(case, {n: g[n] for n in w}, w) for case, g, w in zip(DIVISION_CASES, got, want)
             if any(g[n] != v for n, v in w.items())]
    assert not wrong, wrong
    assert all(op_divide(op, a & mask(ty.width), b & mask(ty.width), ty) == v & mask(ty.width)
               for ty, a, b, q, r in DIVISION_CASES for op, v in (("/", q), ("%", r)))


def test_a_division_is_as_wide_as_its_operands_and_has_their_signedness():
    from sysr.amaranth.ops import BINARY
    for ty in (uint(8), sint(8), sint(1), uint(256)):
        a, b = Signal(signed(ty.width) if ty.signed else ty.width), Signal(signed(ty.width) if ty.signed else ty.width)
        for op in "/%":
            for divisor in (E.Var("b", ty), E.Const(1, ty)):
                v = BINARY[op](a, b, E.Bin(op, E.Var("a", ty), divisor, ty))
                assert (len(v), v.shape().signed) == (ty.width, ty.signed), (op, ty, v.shape())
