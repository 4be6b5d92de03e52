"""sysr's expression IR (`sysr.elab`) as Amaranth values: the translator.

`ValueBuilder.value(ir)` builds an IR expression bottom-up, once per node (the IR is a DAG:
`let`s, unrolled loops, inlined fns share nodes), with the operators of `sysr.amaranth.ops`.
The translation is a table: `NODES` maps an IR node type to a method; a node type or operator
missing from the tables raises `Unsupported` naming it, so that an IR that grows (new
operators, new node types) gives a clear error here until the table learns it, never a wrong
circuit. Operands that are constants are folded with `sysr.types` (the reference semantics),
and `sysr.amaranth.patterns` turns the IR's long chains for dynamic bit writes into one
expression.

Shared subexpressions and very deep or large expressions become named intermediate signals,
so that the Amaranth expression trees stay small and shallow whatever the design unrolls into.

Array values (`ArrVar`, `ConstArr`, an array-valued `Ite`) build to no Amaranth value: they are
only ever read from, and `n_read` looks the storage up, including a register array as read
under an asynchronous reset (`Ite(reset_active, ConstArr(init), ArrVar)`: the reset value while
the reset is active, else the stored element). `same_as` builds a node as another one the
caller knows to be equal (the registers under a domain's asynchronous reset).
"""

from __future__ import annotations

from typing import Callable

from amaranth.hdl import Cat, Const, Mux, Signal, Value

from .. import elab as E
from ..types import Ty, op_binary, op_builtin, op_cast, op_concat, op_slice, op_unary, to_signed
from .ops import BINARY, BUILTINS, UNARY, Unsupported, extend, guarded, in_range, shape_of, typed, uns
from .patterns import BitWrite, bit_write, ir_children


# When a value is given a signal of its own. Amaranth's simulator compiles a `Mux` inside a
# `Mux` into nested Python blocks (Python allows 100 levels; an IR node adds at most two `Mux`
# levels), and Amaranth's passes walk an expression as a tree: the depth and the size of the
# tree an expression stands for are bounded, and an operand that an operator uses more than
# once (`multi_use`) is a signal. Every signal costs the simulator a delta cycle to settle
# through, so there are no more of them than that.
MAX_DEPTH = 12
MAX_WEIGHT = 400  # operator nodes in the tree


def multi_use(n) -> tuple:
    """The operands that the Amaranth value of IR node `n` uses more than once."""
    if isinstance(n, E.Cast) and n.a.ty.signed and n.ty.width > n.a.ty.width:
        return (n.a,)  # the sign bit, replicated
    if isinstance(n, (E.BitIdx, E.Read)) and not isinstance(n.i, E.Const):
        return (n.i,)  # the range check and the selection
    if isinstance(n, E.Bin) and n.op in ("<<", ">>"):
        if not isinstance(n.b, E.Const):
            return (n.b,)
        return (n.a,) if n.op == ">>" and n.ty.signed else ()
    if isinstance(n, E.Bin) and n.op in ("/", "%"):
        return (n.a, n.b)  # signs, magnitudes and the zero-divisor case
    if isinstance(n, E.Builtin) and n.name in ("popcount", "onehot", "onehot0"):
        return (n.a,)
    if isinstance(n, BitWrite):
        return (n.old, n.i, n.v)
    return ()


CHAIN = 8  # likewise for the `Mux` chains of array writes: a signal every CHAIN links


class ValueBuilder:
    """Turns IR expressions into Amaranth values over the signals `names` gives.

    `names(var)` gives the Amaranth value of a `Var` (a port, register, comb signal or the
    reset); `array(arr_var)` the storage of a register array or memory, as an object with
    `read(index_value, index_ty)`. Intermediate signals and their drivers are appended to
    `comb` (a list of Amaranth statements for `m.d.comb`), each after what it reads.
    """

    def __init__(self, names: Callable[[E.Var], Value], arrays: Callable[[E.ArrVar], object],
                 where: str = "", comb: list | None = None) -> None:
        self.names = names
        self.arrays = arrays
        self.where = where
        self.comb: list = [] if comb is None else comb
        self.memo: dict[int, Value] = {}
        self.depth: dict[int, int] = {}
        self.weight: dict[int, int] = {}
        self.keep: list = []  # the memo is keyed by id: keep the nodes alive
        self.uses: dict[int, int] = {}
        self.rewrites: dict[int, object] = {}
        self.consts: dict[int, int] = {}  # nodes of a constant value -> that value
        self.leaves: set[int] = set()  # values that are a signal or a constant, retyped
        self.aliases: dict[int, object] = {}  # node -> the node it is built as (`same_as`)
        self.temps = 0

    def same_as(self, node, other) -> None:
        """Build `node` as `other`, which the caller knows has the same value in every cycle
        (a register as read under an asynchronous reset, when the clock domain resets it at
        once). For an array, reads of `node` read `other`'s storage."""
        self.aliases[id(node)] = other
        self.keep.append(node)

    def count_uses(self, roots) -> None:
        """Count how often each node is an operand, over every root, before building any: a
        node used more than once becomes an intermediate signal."""
        seen: set[int] = set()
        stack = list(roots)
        while stack:
            n = stack.pop()
            self.uses[id(n)] = self.uses.get(id(n), 0) + 1
            if id(n) in seen:
                continue
            seen.add(id(n))
            self.keep.append(n)
            stack.extend(self.kids(n))

    def kids(self, n) -> tuple:
        if id(n) in self.aliases:
            return (self.aliases[id(n)],)
        return ir_children(self.rewritten(n)) if isinstance(n, E.Ite) else E.children(n)

    def rewritten(self, n):
        """`n`, or the `BitWrite` it is (see `bit_write`)."""
        if id(n) not in self.rewrites:
            self.rewrites[id(n)] = bit_write(n) or n
            self.keep.append(n)
        return self.rewrites[id(n)]

    def postorder(self, root):
        stack = [(root, False)]
        while stack:
            n, expanded = stack.pop()
            if id(n) in self.memo:
                continue
            if expanded:
                yield n
                continue
            stack.append((n, True))
            stack.extend((k, False) for k in self.kids(n) if id(k) not in self.memo)

    def value(self, root) -> Value:
        for n in self.postorder(root):
            if id(n) in self.memo:
                continue
            n_ir, n = n, self.rewritten(n) if isinstance(n, E.Ite) else n
            if id(n_ir) in self.aliases:
                self.memo[id(n_ir)] = self.memo[id(self.aliases[id(n_ir)])]
                self.keep.append(n_ir)
                continue
            folded = self.fold(n)
            if folded is not None:
                taken = folded[1]
                self.memo[id(n_ir)] = folded[0]
                self.depth[id(n_ir)] = self.depth.get(id(taken), 0)
                self.weight[id(n_ir)] = self.weight.get(id(taken), 1)
                self.keep.append(n_ir)
                continue
            method = NODES.get(type(n))
            if method is None:
                raise Unsupported(f"the Amaranth back end cannot build the IR node "
                                  f"{type(n).__name__}{self.where}")
            for k in multi_use(n):
                if self.weight.get(id(k), 1) > 1:
                    self.memo[id(k)] = self.temp(self.memo[id(k)], k)
                    self.depth[id(k)], self.weight[id(k)] = 0, 1
            v = method(self, n)
            kids = ir_children(n)
            depth = 1 + max((self.depth.get(id(k), 0) for k in kids), default=0)
            weight = 1 + sum(self.weight.get(id(k), 1) for k in kids)
            big = depth > MAX_DEPTH or weight > MAX_WEIGHT
            if v is not None and not isinstance(n, (E.Const, E.Var)) and (self.uses.get(id(n_ir), 0) > 1 or big):
                v, depth, weight = self.temp(v, n), 0, 1
            self.memo[id(n_ir)] = v
            self.depth[id(n_ir)] = depth
            self.weight[id(n_ir)] = weight
            self.keep.append(n_ir)
        return self.memo[id(root)]

    def fold(self, n) -> tuple[Value, object] | None:
        """(value, node it stands for) when the operands of `n` are constants (an `if` on a
        constant: the branch taken), computed with `sysr.types`, the reference semantics;
        else None."""
        if isinstance(n, E.Ite) and n.ty is not None and id(n.c) in self.consts:
            taken = n.a if self.consts[id(n.c)] else n.b
            if id(taken) in self.consts:
                self.consts[id(n)] = self.consts[id(taken)]
            return self.memo[id(taken)], taken
        if isinstance(n, E.Const):
            self.consts[id(n)] = n.value
            return None
        kids = ir_children(n)
        if not kids or not all(id(k) in self.consts for k in kids):
            return None
        v = [self.consts[id(k)] for k in kids]
        if isinstance(n, E.Bin) and n.op in BINARY:
            r = op_binary(n.op, v[0], v[1], n.a.ty, n.b.ty)
        elif isinstance(n, E.Un) and n.op in UNARY:
            r = op_unary(n.op, v[0], n.ty)
        elif isinstance(n, E.Cast):
            r = op_cast(v[0], n.a.ty, n.ty)
        elif isinstance(n, E.Slice):
            r = op_slice(v[0], n.hi, n.lo)
        elif isinstance(n, E.Cat):
            r = op_concat([(x, p.ty.width) for x, p in zip(v, n.parts)])
        elif isinstance(n, E.Builtin) and n.name in BUILTINS:
            r = op_builtin(n.name, v[0], n.a.ty)
        elif isinstance(n, E.BitIdx):
            r = (v[0] >> v[1]) & 1 if v[1] < n.a.ty.width else 0
        else:
            return None
        self.consts[id(n)] = r
        return self.n_const(E.Const(r, n.ty)), None

    def leaf(self, v: Value) -> Value:
        """`v`, as a signal unless it is a signal or a constant already (for a value that many
        expressions share, so that the expression is not repeated in each)."""
        if isinstance(v, (Signal, Const)) or id(v) in self.leaves:
            return v
        return self.signal(v, "w")

    def temp(self, v: Value, n) -> Value:
        return self.retyped(self.signal(v), n.ty)

    def retyped(self, s: Value, ty: Ty | None) -> Value:
        out = typed(s, ty) if ty is not None and ty.width == len(s) else s
        self.leaves.add(id(out))
        self.keep.append(out)
        return out

    def signal(self, v: Value, prefix: str = "t") -> Signal:
        """A new signal driven by `v` (unsigned, of its width)."""
        self.temps += 1
        sig = Signal(len(v), name=f"{prefix}{self.temps}")
        self.comb.append(sig.eq(v))
        return sig

    def link(self, v: Value, k: int) -> Value:
        """Link k of a chain: every CHAIN links the chain so far becomes a signal."""
        return self.signal(v, "c") if k % CHAIN == CHAIN - 1 else v

    def of(self, n) -> Value:
        return self.memo[id(n)]

    # ---- node kinds --------------------------------------------------------------------
    def n_const(self, n: E.Const) -> Value:
        return Const(to_signed(n.value, n.ty.width) if n.ty.signed else n.value, shape_of(n.ty))

    def n_var(self, n: E.Var) -> Value:
        return self.retyped(uns(self.names(n)), n.ty)

    def n_bin(self, n: E.Bin) -> Value:
        build = BINARY.get(n.op)
        if build is None:
            raise Unsupported(f"the Amaranth back end cannot build the operator `{n.op}`{self.where}")
        return build(self.of(n.a), self.of(n.b), n)

    def n_un(self, n: E.Un) -> Value:
        build = UNARY.get(n.op)
        if build is None:
            raise Unsupported(f"the Amaranth back end cannot build the operator `{n.op}`{self.where}")
        return build(self.of(n.a), n)

    def n_ite(self, n: E.Ite) -> Value:
        if n.ty is None:
            return None  # an array value: only ever read from (`n_read` checks its shape)
        return typed(Mux(self.of(n.c), uns(self.of(n.a)), uns(self.of(n.b))), n.ty)

    def n_cast(self, n: E.Cast) -> Value:
        return typed(extend(self.of(n.a), n.a.ty, n.ty.width), n.ty)

    def n_slice(self, n: E.Slice) -> Value:
        return typed(uns(self.of(n.a))[n.lo:n.hi + 1], n.ty)

    def n_bitidx(self, n: E.BitIdx) -> Value:
        w = n.a.ty.width
        guard, index = in_range(self.of(n.i), n.i.ty, w)
        return guarded(guard, uns(self.of(n.a)).bit_select(index, 1), n.ty)

    def n_cat(self, n: E.Cat) -> Value:
        return Cat(*[uns(self.of(p)) for p in reversed(n.parts)])

    def n_builtin(self, n: E.Builtin) -> Value:
        build = BUILTINS.get(n.name)
        if build is None:
            raise Unsupported(f"the Amaranth back end cannot build the builtin `{n.name}`{self.where}")
        v = build(uns(self.of(n.a)))
        return typed(extend(v, n.ty, n.ty.width), n.ty)

    def n_read(self, n: E.Read) -> Value:
        arr = self.aliases.get(id(n.arr), n.arr)
        size = getattr(arr, "size", None)
        if isinstance(n.i, E.Const) and size is not None and n.i.value >= size:
            return self.n_const(E.Const(0, n.ty))
        if isinstance(arr, E.ArrVar):
            return typed(uns(self.arrays(arr).read(self.of(n.i), n.i.ty)), n.ty)
        if (isinstance(arr, E.Ite) and isinstance(arr.a, E.ConstArr) and isinstance(arr.b, E.ArrVar)
                and arr.a.size == arr.b.size):
            # a register array as read under an asynchronous reset (`System.visible`): its
            # reset value while the reset is active, else what it stores; 0 out of range
            guard, _ = in_range(self.of(n.i), n.i.ty, arr.a.size)
            init = guarded(guard, self.n_const(E.Const(arr.a.value, n.ty)), n.ty)
            stored = self.arrays(arr.b).read(self.of(n.i), n.i.ty)
            return typed(Mux(self.of(arr.c), uns(init), uns(stored)), n.ty)
        raise Unsupported(f"a read from a computed array value{self.where}")

    def n_bitwrite(self, n: "BitWrite") -> Value:
        old, i, v = uns(self.of(n.old)), uns(self.of(n.i)), uns(self.of(n.v))
        return typed(Cat(*[Mux(i == j, v, old[j]) for j in range(n.ty.width)]), n.ty)

    def n_arrvar(self, n):
        return None  # an array: only ever read from, and a Read looks the storage up itself

    def n_array(self, n) -> Value:
        raise Unsupported(f"a whole array used as a value{self.where}")


NODES: dict[type, Callable] = {
    E.Const: ValueBuilder.n_const,
    E.Var: ValueBuilder.n_var,
    E.Bin: ValueBuilder.n_bin,
    E.Un: ValueBuilder.n_un,
    E.Ite: ValueBuilder.n_ite,
    E.Cast: ValueBuilder.n_cast,
    E.Slice: ValueBuilder.n_slice,
    E.BitIdx: ValueBuilder.n_bitidx,
    E.Cat: ValueBuilder.n_cat,
    E.Builtin: ValueBuilder.n_builtin,
    E.Read: ValueBuilder.n_read,
    E.ArrVar: ValueBuilder.n_arrvar,
    E.Store: ValueBuilder.n_array,
    E.ConstArr: ValueBuilder.n_arrvar,
    BitWrite: ValueBuilder.n_bitwrite,
}
