"""yosys-smtbmc as an independent prover for `sysr check`: one design, both provers, their disagreements.

`cross_check(path, workdir)` checks a sysr design with `sysr check` (default options), lowers it
with `sysr lower --formal` and runs the formal flow of `bench.checker.smtbmc` on it to the same depths
(`--depth 20 --induction 2`, the induction deeper for properties that read further back,
`sysr.elab.induction_depth`; a design without state is decided by one cycle, as in the checker,
so both use 1 and 1). Then it compares, verdict by verdict:

- accepted: smtbmc's BMC and k-induction pass;
- V002 (a property fails from reset): smtbmc's BMC fails no later than the checker's
  counterexample (the same cycle when the checker's bounded check found it, the shortest; its
  random runs may find a longer one), and every assertion it names is one the checker did not prove
  (but for an index out of range or a zero divisor in that cycle: the checker gives it a value, 0
  or SMT-LIB's quotient, and Verilog x, any value, so other assertions may fail with it);
- V001 (the requirements cannot hold): smtbmc finds the assumptions unsatisfiable in that cycle;
- V007 only (true up to the depth, not inductive): BMC passes, k-induction fails at the same k, and
  the assertions its counterexample breaks are among those the checker found not inductive. A
  V007 property may well be true; "refuted" then means only "not k-inductive", which both agree on.

A file with several modules: the checker proves each module with its instances' contracts, and
`--formal` keeps the hierarchy with every requirement but the top's asserted, so smtbmc proves
the real composed design (`sysr.lower.formal`). Accepted must still mean proven. A refutation
can be one of the abstract design only (a child's outputs the checker chose within its
contract): the real design then fails no earlier, and in the same cycle where the checker's
replay on the real hierarchy says it fails too (`real_failure`); a V007 alone means no failure
within the depth in both. Failing assertions inside an instance are not matched line by line
(a broken requirement can break the child's own properties in the same step).

Any difference is a soundness bug in one of the two (or in the `--formal` lowering). The record
is data; the caller decides what to do with the disagreements.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from sysr.elab import elaborate, induction_depth
from sysr.lower import FormalUnsupported, lower_formal_hierarchy
from sysr.pipeline import Options, check

from .smtbmc import FlowResult, formal_flow, is_multiclock

DEPTH, INDUCTION = Options().depth, Options().induction
_LABEL = re.compile(r"^(ensures|invariant|assert|index|divisor|requires)_l(\d+)(?:_\d+)?$")
_CYCLE = re.compile(r"in cycle (\d+)")
_UNDEFINED = ("index", "divisor")  # obligations whose failure gives x in Verilog


@dataclass(frozen=True)
class CrossCheck:
    path: str
    codes: tuple[str, ...]  # the checker's error codes (empty: accepted)
    depth: int
    induction: int
    flow: FlowResult | None  # None when the design could not be lowered
    disagreements: tuple[str, ...]
    check_s: float

    @property
    def checker(self) -> str:
        return "accepted" if not self.codes else " ".join(self.codes)


def _lines(props: list[dict], status: str, cycle: int | None = None) -> set[int]:
    """Source lines of the checker's properties with this status (and failing cycle)."""
    out = set()
    for p in props:
        if p["status"] != status:
            continue
        if cycle is not None and (p.get("trace") or {}).get("failing_cycle") != cycle:
            continue
        out.add((p.get("clause") or p["span"])["line"])  # an instance's requirement: the child's clause
    return out


def _strangers(labels, lines: set[int]) -> list[str]:
    """The failing assertions that do not name one of these source lines."""
    out = []
    for label in labels:
        m = _LABEL.match(label)
        if m is None or int(m.group(2)) not in lines:
            out.append(label)
    return out


def compare(outcome, flow: FlowResult, multiclock: bool = False) -> list[str]:
    """What smtbmc says that the checker does not (empty: they agree). With several clocks or
    edges (`multiclock`), smtbmc's step is its global clock's: a clock needs a step low before
    each edge, so the checker's cycle t is at most smtbmc's step 2t + 1."""
    codes = sorted({d.code for d in outcome.diagnostics if d.severity.name == "ERROR"})
    props = outcome.properties
    v = flow.verdict
    if v == "error":
        return [f"the formal flow failed: {flow.prep.log or flow.bmc.log or flow.induction.log}"[:2000]]
    if "V003" in codes:
        return [f"the checker gave up (V003), so nothing can be compared; smtbmc says {v}"]
    if not codes:
        return [] if v == "proven" else [f"the checker proved every property; smtbmc: {v} "
                                         f"(step {flow.bmc.step}, {', '.join(flow.bmc.failed or flow.induction.failed)})"]
    if outcome.hierarchy is not None and any(d.instances for d in outcome.hierarchy.modules.values()) \
            and "V001" not in codes:
        return compare_hierarchy(codes, props, flow)
    if "V002" in codes:
        first = min(p["trace"]["failing_cycle"] for p in props if p["status"] == "refuted")
        # The checker's trace is a real run, the shortest one when the bounded check found it,
        # maybe a longer one when its random runs did (docs/reference.md §6.1): smtbmc's shortest
        # fails no later. What it breaks there must be a property the checker did not prove (it
        # stops at the first failure and leaves the rest not inductive, under it).
        latest = 2 * first + 1 if multiclock else first
        if v != "refuted" or flow.bmc.step is None or flow.bmc.step > latest:
            return [f"the checker refutes a property in cycle {first}; smtbmc: {v} (step {flow.bmc.step})"]
        unproven = {(p.get("clause") or p["span"])["line"] for p in props if p["status"] != "proven"}
        odd = _strangers(flow.bmc.failed, unproven if flow.bmc.step < first else
                         _lines(props, "refuted", first) | _lines(props, "not-inductive") | _lines(props, "unknown"))
        if any(p["kind"] in _UNDEFINED and p["status"] == "refuted" and p["trace"]["failing_cycle"] == first
               for p in props):
            # an index out of range or a zero divisor has a value for the checker and x (any
            # value) in Verilog: in that cycle smtbmc may break other assertions too; only the
            # step has to agree, and what it breaks be of those kinds
            odd = [label for label in odd if label.split("_l")[0] in _UNDEFINED]
        return [f"smtbmc's trace breaks {', '.join(odd)} in step {flow.bmc.step}, which the checker proves"] \
            if odd else []
    if "V001" in codes:
        diag = next(d for d in outcome.diagnostics if d.code == "V001")
        m = _CYCLE.search(diag.message)
        cycle = int(m.group(1)) if m else 0
        if v != "vacuous" or flow.bmc.step != cycle:
            return [f"the checker finds the requirements unsatisfiable in cycle {cycle}; smtbmc: {v} "
                    f"(step {flow.bmc.step})"]
        return []
    if codes == ["V007"]:
        if v != "not-inductive":
            return [f"the checker finds a property true to the depth but not inductive; smtbmc: {v}"]
        odd = _strangers(flow.induction.failed, _lines(props, "not-inductive"))
        return [f"smtbmc's counterexample to induction breaks {', '.join(odd)}, which the checker "
                "proves"] if odd else []
    return [f"unexpected checker verdict {codes}"]


def compare_hierarchy(codes: list[str], props: list[dict], flow: FlowResult) -> list[str]:
    """The comparison for a file with instances (see the module docstring)."""
    v = flow.verdict
    if "V002" in codes:
        refuted = [p for p in props if p["status"] == "refuted"]
        first = min(p["trace"]["failing_cycle"] for p in refuted)
        real = any(p.get("real_failure", True) for p in refuted if p["trace"]["failing_cycle"] == first)
        if real:
            if v != "refuted" or flow.bmc.step != first:
                return [f"the checker refutes a property in cycle {first} on the real hierarchy; smtbmc: {v} "
                        f"(step {flow.bmc.step})"]
            return []
        if v == "refuted" and flow.bmc.step < first:
            return [f"smtbmc refutes in step {flow.bmc.step}, before the checker's first failure ({first})"]
        return []
    if codes == ["V007"]:
        return [] if v in ("proven", "not-inductive") else [f"the checker finds no failure within the depth; "
                                                            f"smtbmc: {v} (step {flow.bmc.step})"]
    return [f"unexpected checker verdict {codes}"]


def cross_check(path: Path, workdir: Path, timeout_s: float = 300.0) -> CrossCheck:
    text = path.read_text()
    t0 = time.perf_counter()
    outcome = check(text, Options())
    check_s = time.perf_counter() - t0
    codes = tuple(sorted({d.code for d in outcome.diagnostics if d.severity.name == "ERROR"}))
    if outcome.design is None or any(not c.startswith("V") for c in codes):
        return CrossCheck(str(path), codes, 0, 0, None, ("rejected by the static checks",), check_s)
    system = elaborate(outcome.design)
    stateless = not system.state
    depth, k = (1, 1) if stateless else (DEPTH, induction_depth(system, INDUCTION))
    failing = [p["trace"]["failing_cycle"] for p in outcome.properties if p["status"] == "refuted" and p.get("trace")]
    if failing and min(failing) >= depth:  # found past the depth by the checker's random runs (§6.1)
        depth = min(failing) + 1
    try:
        verilog = lower_formal_hierarchy(outcome.hierarchy, path.name, text)
    except FormalUnsupported as e:
        return CrossCheck(str(path), codes, depth, k, None, (f"--formal: {e}",), check_s)
    multiclock = is_multiclock(verilog)
    if multiclock:  # (smtbmc's steps: up to twice the checker's cycles, see `compare`)
        depth, k = max(depth, 2 * min(failing) + 2) if failing else depth, 2 * k + 1
    flow = formal_flow(verilog, depth, k, workdir, timeout_s)
    return CrossCheck(str(path), codes, depth, k, flow, tuple(compare(outcome, flow, multiclock)), check_s)
