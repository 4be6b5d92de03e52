"""What keeps a small check fast (issue 28), held as counts, never as times: how many solver
queries the proofs of a small design ask, and what its start-up imports.

The verdicts these designs get are held by their expected outputs (tests/verify, and the
examples' in test_cases); here, that the fast paths are the ones taken, and that they still reach
the same verdicts when a property needs more than the fast path.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from sysr.pipeline import Options, check
from sysr.smt import prove
from sysr.smt.induction import Induction

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def counted(monkeypatch, path: Path, options: Options | None = None):
    """Check `path`, counting the one-shot queries by who asked them and the checks of the
    requirements' incremental solver. (outcome, {caller: queries}, requirement checks)"""
    asked: dict[str, int] = {}
    real_decide = prove.Prover.decide

    def decide(self, terms, goal, quick=False, need_model=True):
        caller = sys._getframe(1).f_code.co_name
        caller = sys._getframe(2).f_code.co_name if caller == "decide_one" else caller
        asked[caller] = asked.get(caller, 0) + 1
        return real_decide(self, terms, goal, quick, need_model)

    checks = [0]
    real_make = prove.make_solver

    def make_solver(*args, **kwargs):
        s = real_make(*args, **kwargs)
        real_check = s.check

        def check_counted(*assumptions):
            checks[0] += 1
            return real_check(*assumptions)

        s.check = check_counted
        return s

    monkeypatch.setattr(prove.Prover, "decide", decide)
    monkeypatch.setattr(prove, "make_solver", make_solver)
    outcome = check(path.read_text(), options or Options())
    return outcome, asked, checks[0]


def test_a_small_design_whose_properties_hold_one_cycle_after_any_state_takes_two_queries(monkeypatch) -> None:
    """stream_reg's three properties hold one cycle after any state: cycle 0 from reset is one
    query, and one more proves all three for every later cycle (no bounded cycles past 0, no
    induction). The requirements read state (`prev`), so whether they can hold is asked to the
    depth: once at cycle 0, once at k - 1, once at the depth, not once per cycle."""
    outcome, asked, checks = counted(monkeypatch, EXAMPLES / "stream_reg.sysr")
    assert outcome.accepted and [p["status"] for p in outcome.properties] == ["proven"] * 3
    assert all(p["depth"] == 20 for p in outcome.properties)
    assert asked == {"bmc": 1, "settle": 1}
    assert checks == 3


def test_settle_drops_what_its_counterexample_breaks_and_proves_the_rest_together(monkeypatch) -> None:
    """bcd_counter's digit bound does not hold one cycle after an arbitrary state (a digit of 12
    counts on to 13): settle's first query over all five properties is broken by it alone, the
    second proves the other four together, and induction proves the bound."""
    settled: list[set[int]] = []
    real = Induction.settle

    def recording(self, k):
        got = real(self, k)
        settled.append({i for i, v in enumerate(self.verdicts) if id(v) in got})
        return got

    monkeypatch.setattr(Induction, "settle", recording)
    outcome, asked, _ = counted(monkeypatch, EXAMPLES / "bcd_counter.sysr")
    assert outcome.accepted and [p["status"] for p in outcome.properties] == ["proven"] * 5
    assert asked["settle"] == 2
    assert len(settled) == 1 and len(settled[0]) == 4
    assert asked["induction"] == 1


def test_k_one_settles_in_any_state(monkeypatch) -> None:
    """With --induction 1 there are no bounded cycles past 0 to lean on: settle asks whether each
    property holds in any state (not one cycle after), and what it cannot prove goes to
    induction, with the same verdicts."""
    outcome, asked, _ = counted(monkeypatch, EXAMPLES / "bcd_counter.sysr", Options(induction=1))
    assert outcome.accepted and [p["status"] for p in outcome.properties] == ["proven"] * 5
    assert asked["settle"] >= 1 and asked.get("induction", 0) >= 1


def test_the_requirements_failing_past_k_are_still_named_at_their_first_cycle() -> None:
    """When the one question to the depth says the requirements cannot hold, the cycle-by-cycle
    check names the first cycle where they cannot (as tests/verify/dead_end.expected shows)."""
    outcome = check((ROOT / "tests" / "verify" / "dead_end.sysr").read_text(), Options())
    v001 = [d for d in outcome.diagnostics if d.code == "V001"]
    assert len(v001) == 1 and "cycle 5" in v001[0].message


def test_the_parser_loads_without_the_regex_module() -> None:
    """lark imports the third-party `regex` module when it is installed (tiktoken, of the Inspect
    extra, installs it); sysr's grammar does not use it, and the parser is imported without it,
    which leaves it importable for others."""
    code = ("import importlib.util, sys; import sysr.front.parse as p; tree, diags = p.parse('module m() {}'); "
            "print(tree is not None, 'regex' in sys.modules, importlib.util.find_spec('regex') is not None)")
    out = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    installed = importlib.util.find_spec("regex") is not None
    assert out.stdout.split() == ["True", "False", str(installed)]
