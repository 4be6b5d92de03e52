"""`sysr lower --formal`, and yosys-smtbmc as an independent prover of every verdict of `sysr check`.

- Each design in tests/formal/ lowers with `--formal` to exactly its expected file
  tests/formal/<name>.v (refresh with `SYSR_UPDATE=1 pytest tests/test_formal.py`).
- Without FORMAL defined, the `--formal` output is `sysr lower`'s design, for every design here.
- The cross-check (`bench.checker.crosscheck`): every task reference, example and accepted test design is
  proven by yosys-smtbmc (BMC from reset and k-induction to the checker's depths), every seeded bug
  and every test design rejected by the proofs is refuted by it in the same cycle (or, for V001,
  has unsatisfiable assumptions in the same cycle; for V007, fails k-induction at the same k).
  The designs run two at a time. The default run takes every design but those whose smtbmc run
  is slow (`SLOW`: five references and rv32i-ex's split one, and the wide divisions, which z3 bit-blasts in smtbmc's
  flow); `benchmarks/crosscheck_full.py` runs those too. Every code path of the cross-check is in
  the default run: the 8-bit and 4-bit divisions of tests/verify/div_*.sysr, tests/formal,
  tests/lower and examples/divider.sysr, signed and unsigned, guarded, unguarded and in `prev`,
  and the hierarchies of tests/verify/hier_*.sysr (the composed design, with every child's logic).
"""

from __future__ import annotations

import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from bench.checker.crosscheck import cross_check
from bench.checker.smtbmc import formal_flow
from sysr.lower import lower_text

ROOT = Path(__file__).parent.parent
HERE = Path(__file__).parent / "formal"
UPDATE = os.environ.get("SYSR_UPDATE") == "1"
EXAMPLES = sorted((ROOT / "examples").glob("*.sysr"))
SOURCES = sorted(HERE.glob("*.sysr"))


def verify_cases(accepted: bool) -> list[Path]:
    cases = sorted((ROOT / "tests" / "verify").glob("*.sysr"))
    return [p for p in cases if (p.read_text().splitlines()[0].split(":", 1)[1].strip() == "accepted") == accepted]


ACCEPTED = (sorted(ROOT.glob("tasks/*/ref.sysr")) + [ROOT / "tasks/rv32i-ex/split.sysr"] + EXAMPLES + sorted((ROOT / "tests/cases/good").glob("*.sysr"))
            + sorted((ROOT / "tests/lower").glob("*.sysr")) + sorted(HERE.glob("*.sysr")) + verify_cases(True))
REJECTED = sorted((ROOT / "tests/seeded").glob("*.sysr")) + verify_cases(False)

# The designs whose smtbmc run takes from 10 s to minutes on 2 cores: they run with
# `-m formal_full` (benchmarks/crosscheck_full.py); every other design runs by default, each in
# under 5 s (benchmarks/crosscheck_times.py prints the figures). The five references (and the
# split rv32i-ex, whose composed design is the flat one's) are slow in BMC to 20 cycles; the
# 32-bit divisions in a single cycle (about 290 s for div_unsigned: z3 bit-blasts 32-bit dividers
# and multipliers, with no option of yosys-smtbmc making it faster: --noincr and --unroll still
# time out at 150 s); the 16-bit division of tests/cases/good in BMC to 20 cycles and induction
# (about 105 s: `avg * n + sum % n`, a 16-bit divider and multiplier per cycle); the 8x8
# shift-and-add multipliers of tests/verify, which the checker proves step by step (about 70-90 s
# for smtbmc on a loaded machine, one multiplier against another; at 16x16 it does not finish).
SLOW = {"tasks/icache/ref.sysr", "tasks/axi-lite/ref.sysr", "tasks/rv32i-ex/ref.sysr", "tasks/rv32i-ex/split.sysr",
        "tasks/fifo/ref.sysr", "tasks/mac/ref.sysr", "tests/verify/div_unsigned.sysr",
        "tests/verify/div_guarded_wide.sysr", "tests/cases/good/division.sysr",
        # two FIFO bindings with memories, composed: about 45 s of BMC on 2 cores loaded (the
        # bindings' proofs in the default run: tests/verify/param_pair.sysr, param_binding.sysr)
        "examples/param_fifo.sysr",
        "tests/verify/shift_add_signed.sysr", "tests/verify/shift_add_unsigned.sysr",
        # rules 90 and 110 on 512 cells, every cell's next value stated bit by bit (512 dynamic
        # selects of a 514-bit vector per property and cycle): BMC 5 minutes and more; the CRC-16
        # loop against the byte-wide formula in every cycle, about a minute (its refutation,
        # tests/verify/fn_crc_wrong_poly.sysr, and the 1,024-bit mux run by default)
        "tests/lower/rule90.sysr", "tests/lower/rule110.sysr", "tests/lower/crc16.sysr",
        # the suite solutions of rules 90 and 110: the rule applied by a 512-step loop in a fn,
        # against the shift-and-mask step, in every cycle: BMC about 90 s and 200 s
        "tests/verify/suite_rule90.sysr", "tests/verify/suite_rule110.sysr",
        # ChipBench's asynchronous FIFO at its 16-deep default, a reset per side: BMC past 4 minutes
        # at step 16 (its 4-deep shape runs by default: examples/async_fifo_resets.sysr, about a
        # minute, and the refuted tests/seeded/async_fifo_resets.sysr)
        "tests/verify/suite_async_fifo.sysr"}


# Proofs yosys-smtbmc cannot redo in any time a benchmark can wait for, each with why: the
# cross-check then asserts only that smtbmc does not refute them in its bound. The same identity
# at 8 bits (tests/verify/div_guarded.sysr) is confirmed by default, and at 16 bits in about
# 10 minutes (one step of BMC 415 s, induction 170 s on 2 cores).
BEYOND_SMTBMC = {
    "tests/verify/div_guarded_wide.sysr":
        "`q * b + r == a` over a 32-bit divider and multiplier: the checker settles it by rewriting "
        "`%` before bit-blasting (sysr/smt/words.py); z3 in smtbmc (and bitwuzla, tried alone) bit-blast "
        "the identity and do not finish in 10 minutes",
}


def rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def cases(paths: list[Path]):
    return [pytest.param(p, id=rel(p), marks=pytest.mark.formal_full if rel(p) in SLOW else ()) for p in paths]


def formal(path: Path) -> str:
    code, diags = lower_text(path.read_text(), path.name, formal=True)
    assert code is not None, [d.message for d in diags]
    return code


# ---- the output --------------------------------------------------------------------------

def expected_of(src: Path) -> Path:
    return src.with_suffix(".v")


@pytest.mark.parametrize("src", SOURCES, ids=[rel(p) for p in SOURCES])
def test_expected_output(src: Path) -> None:
    code = formal(src)
    exp = expected_of(src)
    if UPDATE:
        exp.write_text(code)
    assert exp.exists(), f"no {exp.name}; run `SYSR_UPDATE=1 pytest tests/test_formal.py`"
    assert code == exp.read_text(), f"{exp.name} differs; if intended, regenerate with SYSR_UPDATE=1"


def test_every_design_has_its_expected_file() -> None:
    assert {p.stem for p in HERE.glob("*.v")} == {p.stem for p in HERE.glob("*.sysr")}


_SECTION = re.compile(r"\n`ifdef FORMAL\n.*?\n`endif\n", re.S)
# an instance of an extern module's binding: its formal model, else the user's module (§4.9)
_ALTERNATIVE = re.compile(r"\n *`ifdef FORMAL\n[^\n]*\n *`else\n([^\n]*)\n *`endif\n")


@pytest.mark.parametrize("src", ACCEPTED + REJECTED, ids=[rel(p) for p in ACCEPTED + REJECTED])
def test_without_formal_it_is_the_plain_design(src: Path) -> None:
    code = _ALTERNATIVE.sub(r"\n\1\n", formal(src))
    assert len(_SECTION.findall(code)) == len(re.findall(r"^module ", code, re.M))  # one per module
    plain, _ = lower_text(src.read_text(), src.name)
    assert _SECTION.sub("", code) == plain


def test_cli_writes_the_formal_output(tmp_path: Path) -> None:
    src = HERE / "prev_ghost.sysr"
    out = tmp_path / "hold.v"
    r = subprocess.run([sys.executable, "-m", "sysr.cli", "lower", "--formal", str(src), "-o", str(out)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert out.read_text() == (HERE / "prev_ghost.v").read_text()


@pytest.mark.parametrize("text, message", [
    ("module m(clk: clock, a: in u2, y: out u8) {\n  reg rom: u8[4];\n  seq { }\n  y = 0;\n"
     "  ensures y == 0;\n}\n",
     "line 2: the memory `rom` is never written; Yosys' formal flow cannot encode a memory without a "
     "write port (make it a ghost memory, or write it)"),
    ("module m(clk: clock, a: in u8, y: out u8) {\n  y = a;\n  ghost wire g: u8;\n  ghost wire h: u8;\n"
     "  ghost comb { g = a; h = prev(g); }\n}\n",
     "line 5: `prev(g)` reads a value that its own comb block assigned; --formal cannot keep its "
     "history: compute it in a ghost wire first"),
])
def test_what_formal_cannot_express_is_a_clear_error(text: str, message: str, tmp_path: Path) -> None:
    src = tmp_path / "d.sysr"
    src.write_text(text)
    r = subprocess.run([sys.executable, "-m", "sysr.cli", "lower", "--formal", str(src)],
                       capture_output=True, text=True, cwd=ROOT)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == f"sysr: error: {src}: {message}\n"


def test_smtbmc_refutes_a_broken_formal_output(tmp_path: Path) -> None:
    """The flow can fail: the same design with one assertion made false is refuted at step 1 (the first with a previous cycle)."""
    code = formal(HERE / "prev_ghost.sysr").replace("assert (!prev_value || q == prev_d)", "assert (q == 8'd1)")
    flow = formal_flow(code, 20, 2, tmp_path)
    assert (flow.verdict, flow.bmc.step, flow.bmc.failed) == ("refuted", 1, ("ensures_l12",))


# ---- the cross-check ---------------------------------------------------------------------

def _run(path: str):
    with tempfile.TemporaryDirectory(prefix="sysr-formal-") as d:
        return cross_check(Path(path), Path(d))


@pytest.fixture(scope="module")
def cross_checks(request):
    """Every selected design's cross-check, two at a time, started when the first is needed."""
    wanted = [item.callspec.params["path"] for item in request.session.items
              if item.module is request.module and hasattr(item, "callspec") and "path" in item.callspec.params]
    pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("forkserver"))
    futures = {p: pool.submit(_run, str(p)) for p in dict.fromkeys(wanted)}
    yield futures
    pool.shutdown(cancel_futures=True)


@pytest.mark.parametrize("path", cases(ACCEPTED))
def test_smtbmc_confirms_every_proof(path: Path, cross_checks) -> None:
    r = cross_checks[path].result()
    assert r.codes == (), f"the checker rejects {rel(path)}: {r.codes}"
    if rel(path) in BEYOND_SMTBMC:  # out of smtbmc's reach: it must at least find no counterexample
        assert r.flow is not None and r.flow.verdict not in ("refuted", "vacuous", "not-inductive"), r.flow
        return
    assert r.flow is not None and r.flow.verdict == "proven", r.disagreements
    assert r.disagreements == ()


# Hierarchies rejected only because a child's contract is too weak for what the parent claims
# (the checker's note says so): the real composed design holds, and smtbmc, which proves it with
# every child's logic, proves it.
WEAK_CONTRACTS = {"tests/verify/hier_claims_more.sysr", "tests/verify/hier_not_inductive.sysr"}


@pytest.mark.parametrize("path", cases(REJECTED))
def test_smtbmc_refutes_every_rejected_design(path: Path, cross_checks) -> None:
    r = cross_checks[path].result()
    expected = path.read_text().splitlines()[0].split(":", 1)[1].split()
    assert list(r.codes) == sorted({w.split("@")[0] for w in expected})
    verdicts = ("proven",) if rel(path) in WEAK_CONTRACTS else ("refuted", "vacuous", "not-inductive")
    assert r.flow is not None and r.flow.verdict in verdicts
    assert r.disagreements == ()


COVERS = [  # (a design, the covers `sysr check` must reach, by line, and those it must not)
    (HERE / "covers.sysr", None),
    (None, """module m(clk: clock, rst: reset, en: in bool, q: out reg u3 = 0) {
  seq { if en && q != 5 { q <= q + 1; } }
  cover q == 5;
  cover q == 6;
  cover prev(q == 4) && q == 4 && en;
}"""),
]


@pytest.mark.parametrize("path,text", COVERS, ids=["covers", "unreachable"])
def test_smtbmc_reaches_the_covers_the_checker_reaches(path, text, tmp_path: Path) -> None:
    """yosys-smtbmc's cover mode (`-c`) on the `--formal` output reaches each cover in the cycle in
    which `sysr check` reaches it (the shortest), and no cover the checker calls unreachable."""
    from bench.checker.smtbmc import cover_flow
    from sysr.pipeline import Options, check
    text = text if text is not None else path.read_text()
    out = check(text, Options())
    covers = [p for p in out.properties if p["kind"] == "cover"]
    assert covers
    verilog, _ = lower_text(text, "covers.sysr", formal=True)
    reached = cover_flow(verilog, 20, tmp_path)
    assert reached is not None, "yosys or yosys-smtbmc failed"
    want = {f"cover_l{p['span']['line']}": p["depth"] - 1 for p in covers if p["status"] == "reached"}
    assert reached == want
    assert any(p["status"] == "unreachable" for p in covers) == (text is COVERS[1][1])
