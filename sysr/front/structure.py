"""Structure checks on a resolved design: drivers, latches, read-before-assign, loops, clock, reset.

Runs after `sysr.front.check` has resolved names, on each module after the modules it
instantiates. Works out which item drives each signal (one driver each), that every
combinational signal is assigned on every path through its block, that no combinational cycle
exists (and the evaluation order of the drivers), that outputs and wires are driven, that
registers have reset values, and that the clock and reset are present where registers need
them; and that an invariant names no wire or output whose value depends on an input (a
per-signal dataflow through comb blocks: data, conditions, `let`s, and a whole assignment
replacing what came before). Also reports each hole (H001).

Instances: the binding of input `x` of instance `u` drives the signal `u.x`, and the instance
drives each output `u.y` (an `InstOutput`), which reads the `u.x` that the child's summary says
`y` depends on in the same cycle. So a combinational cycle through an instance is found from
the child's summary, without looking inside it, and each module's own summary (`Design.summary`:
each output -> the inputs it depends on) is worked out here for the modules above it.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, Related, error
from ..model import Design, Hierarchy, InstOutput, Signal
from . import syntax as S
from .domains import DomainChecks


def _with_reset_value(s: Signal, value: str = "0") -> str:
    """The declaration of `s` with a reset value, as the user would write it."""
    if s.kind == "out_reg":
        return f"{S.written(s.name)}: out reg {s.ty} = {value}"
    return f"{'ghost ' if s.ghost else ''}reg {S.written(s.name)}: {s.ty} = {value};"


def _walk_expr(e, fn, under_prev=False):
    """Call fn(node, under_prev) for every Name-like node in e."""
    if e is None:
        return
    if isinstance(e, (S.Name, S.InstPort)):
        fn(e, under_prev)
        return
    if isinstance(e, S.Call) and e.func == "prev":
        for a in e.args:
            _walk_expr(a, fn, True)
        return
    if isinstance(e, S.Index):
        fn(e.base, under_prev) if isinstance(e.base, S.Name) else _walk_expr(e.base, fn, under_prev)
        _walk_expr(e.index, fn, under_prev)
        return
    for name in getattr(e, "__dataclass_fields__", {}):
        v = getattr(e, name)
        if isinstance(v, tuple):
            for x in v:
                if hasattr(x, "__dataclass_fields__") and not isinstance(x, (S.Span, S.TypeRef)):
                    _walk_expr(x, fn, under_prev)
        elif hasattr(v, "__dataclass_fields__") and not isinstance(v, (S.Span, S.TypeRef)):
            _walk_expr(v, fn, under_prev)


def lvalues(stmts, out: list | None = None) -> list:
    """Every assignment target (`=` and `<=`) in a block, nested statements included, in order."""
    out = [] if out is None else out
    for st in stmts:
        if isinstance(st, (S.Assign, S.NbAssign)):
            out.append(st.target)
        elif isinstance(st, S.If):
            lvalues(st.then, out)
            lvalues(st.else_ or (), out)
        elif isinstance(st, S.Match):
            for arm in st.arms:
                lvalues(arm.body, out)
        elif isinstance(st, S.For):
            lvalues(st.body, out)
    return out


class Structure(DomainChecks):
    def __init__(self, d: Design) -> None:
        self.d = d
        self.diags: list[Diagnostic] = []
        self.drivers: dict[str, object] = {}
        self.driver_span: dict[str, S.Span] = {}
        self.reads: dict[int, set[str]] = {}  # id(driver) -> comb signals read from elsewhere
        self.items: list[object] = []  # comb drivers
        self.early_reads: set[tuple[int, str]] = set()  # (id(block), name) reported as A007
        self.misdriven: set[str] = set()  # wires and outputs assigned with `<=` (A005)
        self.block_deps: dict[int, dict[str, set[str]]] = {}  # id(comb block) -> name -> signals

    def err(self, code, msg, span, *notes, related=()):
        self.diags.append(error(code, msg, span, *notes, related=tuple(related)))

    def sig_of(self, node) -> Signal | None:
        ref = self.d.refs.get(id(node))
        return ref if isinstance(ref, Signal) else None

    def add_driver(self, sig: Signal, item, span: S.Span) -> None:
        prev = self.drivers.get(sig.name)
        if prev is not None and prev is not item:
            self.err("A002", f"{sig.describe()} is driven in more than one place", span,
                     "a signal is assigned in one statement or one block; merge the assignments into one block",
                     related=[Related(self.driver_span[sig.name], "first driven here")])
            return
        if prev is None:
            self.drivers[sig.name] = item
            self.driver_span[sig.name] = span

    # ---- comb drivers ----------------------------------------------------------------
    def expr_reads(self, e, item_id: int, own: set[str], assigned: set[str]) -> None:
        def visit(n, under_prev):
            sig = self.sig_of(n)
            if sig is None or not sig.is_net or under_prev:
                return
            if sig.name in own:
                if sig.name not in assigned and (item_id, sig.name) not in self.early_reads:
                    self.early_reads.add((item_id, sig.name))  # one report per block and name
                    self.err("A007", f"{sig.describe()} is read before it is assigned in this block", n.span,
                             "assign it earlier in the block (a default at the top), or read it after "
                             "its assignment")
            else:
                self.reads[item_id].add(sig.name)
        _walk_expr(e, visit)

    def comb_stmts(self, stmts, item_id: int, own: set[str], assigned: set[str], partial: dict) -> set[str]:
        for st in stmts:
            assigned = self.comb_stmt(st, item_id, own, assigned, partial)
        return assigned

    def comb_stmt(self, st, item_id, own, assigned, partial) -> set[str]:
        if isinstance(st, S.Let):
            self.expr_reads(st.value, item_id, own, assigned)
            return assigned
        if isinstance(st, (S.Assign, S.NbAssign)):  # `<=` here is reported as A005
            lv = st.target
            self.expr_reads(st.value, item_id, own, assigned)
            for x in (lv.index, lv.hi, lv.lo):
                self.expr_reads(x, item_id, own, assigned)
            if lv.index is not None or lv.hi is not None:
                if lv.name in own and lv.name not in assigned:
                    if (item_id, lv.name) not in self.early_reads:
                        self.early_reads.add((item_id, lv.name))
                        shown = S.written(lv.name)
                        sig = self.d.signals.get(lv.name)
                        default = "0" if sig is None or sig.ty is None or sig.ty.kind != "struct" else \
                            f"{S.written(sig.ty.enum)} {{ {S.written(sig.ty.fields[0][0])}: ..., ... }}"
                        self.err("A007", f"part of `{shown}` is assigned before `{shown}` is assigned whole", lv.span,
                                 f"assign a default first, e.g. `{shown} = {default};`")
                    return assigned | {lv.name}
                return assigned
            return assigned | {lv.name}
        if isinstance(st, S.If):
            self.expr_reads(st.cond, item_id, own, assigned)
            a = self.comb_stmts(st.then, item_id, own, set(assigned), partial)
            b = self.comb_stmts(st.else_ or (), item_id, own, set(assigned), partial)
            for n in (a ^ b) - assigned:
                partial.setdefault(n, (st.span, "if"))
            return a & b
        if isinstance(st, S.Match):
            self.expr_reads(st.subject, item_id, own, assigned)
            outs = [self.comb_stmts(arm.body, item_id, own, set(assigned), partial) for arm in st.arms]
            if not outs:
                return assigned
            inter = set.intersection(*outs)
            for n in set.union(*outs) - inter - assigned:
                partial.setdefault(n, (st.span, "match"))
            return inter
        if isinstance(st, S.For):
            after = self.comb_stmts(st.body, item_id, own, set(assigned), partial)
            start = self.d.const_values.get(id(st.start))
            end = self.d.const_values.get(id(st.end))
            if start is not None and end is not None and end > start:
                return after
            for n in after - assigned:
                partial.setdefault(n, (st.span, "for"))
            return assigned
        return assigned

    def comb_block(self, item: S.CombBlock) -> None:
        self.items.append(item)
        self.reads[id(item)] = set()
        own: set[str] = set()
        for lv in lvalues(item.body):
            sig = self.sig_of(lv)
            if sig is not None and sig.is_comb:
                if sig.name not in own:
                    self.add_driver(sig, item, lv.name_span)
                own.add(sig.name)
        partial: dict[str, tuple] = {}
        final = self.comb_stmts(item.body, id(item), own, set(), partial)
        for name in sorted(own - final, key=lambda n: self.d.signals[n].index):
            if (id(item), name) in self.early_reads:
                continue  # the missing default is the one mistake, reported as A007
            span, kind = partial.get(name, (item.span, "block"))
            word = {"if": "one branch of this `if` but not in every branch",
                    "match": "some arms of this `match` but not in all of them",
                    "for": "a loop that may run zero times",
                    "block": "this block on some paths only"}[kind]
            self.err("A001", f"`{S.written(name)}` is assigned in {word}; it would be a latch", span,
                     f"assign `{S.written(name)}` a default value at the top of the block, or in every branch")

    def simple_driver(self, item, name: str, value, span: S.Span) -> None:
        sig = self.d.signals.get(name)
        if sig is None or not sig.is_net:
            return
        self.items.append(item)
        self.reads[id(item)] = set()
        self.add_driver(sig, item, span)
        self.expr_reads(value, id(item), set(), set())
        if name in self.reads[id(item)]:  # `y = y + 1;`: a loop through one driver
            self.reads[id(item)].discard(name)
            self.err("A003", f"combinational cycle: {S.written(name)} -> {S.written(name)}", item.span,
                     f"`{S.written(name)}` is computed from itself; to use its previous value, keep it in a "
                     f"register (`reg NAME: T = INIT;` assigned with `<=` in `seq`)")

    def instance(self, item: S.InstDecl) -> None:
        """The bindings drive `u.x`; the instance drives each `u.y`, from the `u.x` it depends on."""
        inst = self.d.instances.get(item.name)
        if inst is None or inst.decl is not item:
            return
        for port, b in inst.bindings.items():
            self.simple_driver(b, f"{inst.name}.{port}", b.value, b.port_span)
        summary = inst.child.summary if inst.child is not None else {}
        for name, sig in self.d.signals.items():
            if sig.kind != "inst_out" or sig.decl is not item:
                continue
            port = name.split(".", 1)[1]
            out = InstOutput(inst.name, port, item.name_span)
            self.items.append(out)
            self.add_driver(sig, out, item.name_span)
            self.reads[id(out)] = {f"{inst.name}.{x}" for x in summary.get(port, ())
                                   if f"{inst.name}.{x}" in self.d.signals}

    # ---- seq blocks ------------------------------------------------------------------
    def seq_block(self, item: S.SeqBlock) -> None:
        seen: set[str] = set()
        for lv in lvalues(item.body):
            sig = self.sig_of(lv)
            if sig is not None and sig.is_comb:
                self.misdriven.add(sig.name)  # `<=` to a wire or output: reported as A005
            if sig is not None and sig.is_state and sig.name not in seen:
                seen.add(sig.name)
                self.add_driver(sig, item, lv.name_span)

    # ---- cycles ----------------------------------------------------------------------
    def order(self) -> list[object]:
        """Drivers in an order where each comes after the drivers it reads; reports cycles."""
        by_id = {id(i): i for i in self.items}
        deps: dict[int, list[int]] = {}
        for i in self.items:
            ds = []
            for name in sorted(self.reads[id(i)]):
                drv = self.drivers.get(name)
                if drv is not None and id(drv) in by_id and drv is not i:
                    ds.append(id(drv))
            deps[id(i)] = ds
        state: dict[int, int] = {}
        order: list[object] = []
        stack: list[int] = []
        reported: set[frozenset] = set()

        def visit(k: int) -> None:
            state[k] = 1
            stack.append(k)
            for dep in deps[k]:
                if state.get(dep) == 1:
                    cyc = stack[stack.index(dep):]
                    key = frozenset(cyc)
                    if key not in reported:
                        reported.add(key)
                        self.report_cycle([by_id[c] for c in cyc])
                elif state.get(dep) is None:
                    visit(dep)
            stack.pop()
            state[k] = 2
            order.append(by_id[k])

        for i in self.items:
            if id(i) not in state:
                visit(id(i))
        return order

    def driven_names(self, item) -> list[str]:
        return [n for n, d in self.drivers.items() if d is item]

    def report_cycle(self, items: list) -> None:
        names = []
        for it in items:
            names += self.driven_names(it)[:1]
        path = " -> ".join(names + names[:1])
        first = items[0]
        notes = []
        for i, it in enumerate(items):
            if isinstance(it, InstOutput):
                after = self.driven_names(items[(i + 1) % len(items)])[:1]
                on = f"`{after[0]}`" if after else "the instance's inputs"
                notes.append(f"`{it.inst}.{it.port}` depends on {on} in the same cycle, inside "
                             f"`{self.d.instances[it.inst].module}`")
        self.err("A003", f"combinational cycle: {path}", first.span,
                 "each of these is computed from the next; break the cycle with a register", *notes,
                 related=[Related(it.span, f"`{self.driven_names(it)[0]}` is driven here")
                          for it in items[1:] if self.driven_names(it)])

    # ---- whole design ----------------------------------------------------------------
    def run(self) -> None:
        d = self.d
        for item in d.module.items:
            if isinstance(item, S.WireDecl) and item.value is not None:
                self.simple_driver(item, item.name, item.value, item.name_span)
            elif isinstance(item, S.ModAssign):
                self.simple_driver(item, item.target, item.value, item.name_span)
            elif isinstance(item, S.CombBlock):
                self.comb_block(item)
            elif isinstance(item, S.SeqBlock):
                self.seq_block(item)
            elif isinstance(item, S.InstDecl):
                self.instance(item)
        d.comb_order = self.order()
        d.drivers = dict(self.drivers)
        for sig in d.signals.values():
            if d.extern and sig.is_port:
                continue  # an extern's outputs are driven by its Verilog
            if sig.is_comb and sig.name not in self.drivers and sig.name not in self.misdriven:
                self.err("A006", f"{sig.describe()} is never driven", sig.span,
                         f"assign it: `{S.written(sig.name)} = ...;` at module level or in a `comb` block")
        self.clock_reset()
        self.invariant_inputs()
        for hole, ty in d.holes:
            name = f"`?{hole.name}`" if hole.name else "`?`"
            tdesc = f"(of type `{ty}`)" if ty is not None else "(its type is not known here)"
            self.err("H001", f"hole {name} {tdesc} is not filled in", hole.span,
                     f"replace it with an expression of type `{ty}`" if ty is not None else
                     "replace it with an expression")

    def clock_reset(self) -> None:
        d = self.d
        clocks = [p for p in d.module.ports if p.kind == "clock"]
        resets = [p for p in d.module.ports if p.kind in S.RESET_KINDS]
        d.resets = {p.name: p.kind for p in resets}
        if resets:
            d.reset = resets[0].name
            d.reset_active_low = resets[0].kind.endswith("_n")
            d.reset_async = resets[0].kind.startswith("areset")
        if clocks:
            d.clock = clocks[0].name
            d.clocks = [c.name for c in clocks]
            self.domains()
        # (an extern's design registers are A023 already: its clock and reset are its ports' business)
        state = [s for s in d.signals.values() if s.is_state and not (d.extern and not s.ghost and not s.is_port)]
        seqs = [i for i in d.module.items if isinstance(i, S.SeqBlock) and not (d.extern and not i.ghost)]
        if (state or seqs) and not clocks:
            where = state[0].span if state else seqs[0].span
            self.err("A008", "this module has registers but no clock port", where,
                     "add a port `clk: clock`")
        reset_valued = []
        for s in state:
            if s.kind not in ("reg", "out_reg"):
                continue
            if d.extern and s.is_port:
                continue  # (its Verilog's register: a reset value on it is A023)
            if getattr(s.decl, "init", None) is not None:
                reset_valued.append(s)
            else:  # (an extern's registered output is its Verilog's)
                self.reset_less(s)
        if reset_valued and not resets:
            first = reset_valued[0]
            self.err("A008", "this module has registers with reset values but no reset port", first.span,
                     "add a port `rst: reset` (active high) or `rst_n: reset_n` (active low); for an "
                     "asynchronous reset `arst: areset` or `arst_n: areset_n`")
        elif len(resets) > 1:
            self.unreset(reset_valued)

    def reset_less(self, s: Signal) -> None:
        """A register declared without a reset value starts with an arbitrary value that the
        reset leaves alone. An enum register must always hold a variant, so it needs a reset
        value (A009); a design register that nothing writes would be an arbitrary constant in
        the hardware (A006); a ghost one is the specification's arbitrary-but-fixed value. With a
        power-up value (`initial e`) it starts with that value: an enum register too."""
        if getattr(s.decl, "powerup", None) is not None:
            if not s.ghost and s.name not in self.drivers and s.name not in self.misdriven:
                self.err("A006", f"{s.describe()} has a power-up value but is never written, so it is a "
                                 "constant", s.span, f"declare a const: `const {S.written(s.name)}: {s.ty} = ...;`")
            return
        if s.ty is not None and s.ty.kind == "enum" and not s.is_array:
            first = next(iter(self.d.enums[s.ty.enum].variants), "A")
            self.err("A009", f"{s.describe()} has no reset value; an enum register always holds a variant, "
                             "so it needs one", s.span,
                     f"write `{_with_reset_value(s, f'{s.ty}::{first}')}`")
        elif not s.ghost and s.name not in self.drivers and s.name not in self.misdriven:
            self.err("A006", f"{s.describe()} has no reset value and is never written, so its value would be "
                             "arbitrary", s.span,
                     f"write it in a `seq` block, or give it a reset value: `{_with_reset_value(s)}`")

    def deps_of(self, name: str, drv) -> set[str]:
        """The signals that the value `drv` gives `name` is computed from (reads under `prev` excluded)."""
        if isinstance(drv, InstOutput):
            return set(self.reads[id(drv)])
        if not isinstance(drv, S.CombBlock):
            return self.reads_of(drv.value, {}, {})
        if id(drv) not in self.block_deps:
            self.block_deps[id(drv)] = self.comb_deps(drv.body)
        return self.block_deps[id(drv)].get(name, set())

    def reads_of(self, e, state: dict[str, set[str]], lets: dict[int, set[str]]) -> set[str]:
        """Signals `e` reads, seen through `let`s and through the block's own earlier assignments
        (whose current dependencies `state` holds). Reads under `prev` are left out."""
        out: set[str] = set()

        def visit(n, under_prev):
            if under_prev:
                return
            ref = self.d.refs.get(id(n))
            if isinstance(ref, Signal):
                if ref.name in state:
                    out.update(state[ref.name])
                else:
                    out.add(ref.name)
            elif id(ref) in lets:
                out.update(lets[id(ref)])
        _walk_expr(e, visit)
        return out

    def comb_deps(self, stmts) -> dict[str, set[str]]:
        """For each signal a comb block assigns, the signals its final value depends on (through
        data and through the conditions it is assigned under); a whole assignment replaces."""
        return self.flow(stmts, {}, {}, frozenset())

    def flow(self, body, state: dict, lets: dict, ctl: frozenset) -> dict[str, set[str]]:
        for st in body:
            if isinstance(st, S.Let):
                lets[id(self.d.refs.get(id(st)))] = self.reads_of(st.value, state, lets) | ctl
            elif isinstance(st, (S.Assign, S.NbAssign)):
                lv = st.target
                got = ctl.union(*(self.reads_of(x, state, lets) for x in (st.value, lv.index, lv.hi, lv.lo)))
                whole = lv.index is None and lv.hi is None
                state = {**state, lv.name: got if whole else state.get(lv.name, set()) | got}
            elif isinstance(st, S.If):
                c = ctl | self.reads_of(st.cond, state, lets)
                state = _merge([self.flow(st.then, state, lets, c), self.flow(st.else_ or (), state, lets, c)])
            elif isinstance(st, S.Match) and st.arms:
                c = ctl | self.reads_of(st.subject, state, lets)
                state = _merge([self.flow(arm.body, state, lets, c) for arm in st.arms])
            elif isinstance(st, S.For):
                state = self.flow_loop(st, state, lets, ctl)
        return state

    def flow_loop(self, st: S.For, state: dict, lets: dict, ctl: frozenset) -> dict[str, set[str]]:
        """The iterations run in order: repeat the body until nothing changes (or it has run out)."""
        start, end = self.d.const_values.get(id(st.start)), self.d.const_values.get(id(st.end))
        trips = end - start if start is not None and end is not None else 64
        for _ in range(max(0, min(trips, 64))):
            new = self.flow(st.body, state, lets, ctl)
            if new == state:
                break
            state = new
        return state

    def invariant_inputs(self) -> None:
        """An invariant may name a wire or output only when it depends on state alone."""
        d = self.d
        memo: dict[str, str | None] = {}

        def input_of(name: str, seen: frozenset) -> str | None:
            if name in memo:
                return memo[name]
            sig = d.signals[name]
            if sig.is_input:
                return name
            if not sig.is_net or name in seen:
                return None
            drv = self.drivers.get(name)
            found = None
            for dep in sorted(self.deps_of(name, drv)) if drv is not None else ():
                if dep in d.signals:
                    found = input_of(dep, seen | {name})
                    if found:
                        break
            memo[name] = found
            return found

        for spec in d.specs():
            if spec.kind != "invariant":
                continue
            reported = set()

            def visit(n, under_prev):
                s = self.sig_of(n)
                if s is None or not s.is_net or s.name in reported or under_prev:
                    return
                src = input_of(s.name, frozenset())
                if src:
                    reported.add(s.name)
                    self.err("S003", f"an invariant is about state, but {s.describe()} depends on the input `{src}`",
                             n.span, "use `assert` for a property that depends on inputs")
            _walk_expr(spec.expr, visit)

    def summarize(self) -> dict[str, frozenset[str]]:
        """Each combinational output -> the inputs it depends on in the same cycle (an extern
        module's: every input but the clock, as nothing says otherwise)."""
        d = self.d
        if d.extern:
            inputs_now = frozenset(s.name for s in d.signals.values() if s.is_input)
            return {s.name: inputs_now for s in d.signals.values() if s.kind == "out"}
        memo: dict[str, frozenset[str]] = {}

        def inputs(name: str, seen: frozenset) -> frozenset[str]:
            if name in memo:
                return memo[name]
            sig = d.signals.get(name)
            if sig is None or name in seen:
                return frozenset()
            if sig.is_input:
                return frozenset([name])
            drv = self.drivers.get(name)
            if not sig.is_net or drv is None:
                return frozenset()
            out = frozenset().union(*(inputs(dep, seen | {name}) for dep in self.deps_of(name, drv)))
            memo[name] = out
            return out

        return {s.name: inputs(s.name, frozenset()) for s in d.signals.values() if s.kind == "out"}


def _merge(states: list[dict[str, set[str]]]) -> dict[str, set[str]]:
    """Where paths join: a signal depends on what it depends on along any of them."""
    out: dict[str, set[str]] = {}
    for st in states:
        for name, deps in st.items():
            out[name] = out.get(name, set()) | deps
    return out


def check_structure(d: Design) -> list[Diagnostic]:
    s = Structure(d)
    s.run()
    d.summary = s.summarize()
    return s.diags


def check_hierarchy(h: Hierarchy) -> list[Diagnostic]:
    """The structure checks of every module, each after the modules it instantiates."""
    out: list[Diagnostic] = []
    for d in h.bottom_up():
        out += check_structure(d)
    return out
