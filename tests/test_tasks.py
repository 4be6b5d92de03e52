"""Every benchmark task follows tasks/README.md: complete folders, matching interfaces, references
that pass their testbench in both languages, stubs with only holes, spec stubs that the reference
proves, a seeded bug for each (their codes are checked by test_bench_cli.py through `bench seeded`),
and mutants that the testbench rejects.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.judge.tasks import ROOT, load_tasks, task_names
from bench.verilog.ports import compare_ports, sysr_ports
from bench.judge.probe import read_ports, simulate
from sysr.lower import lower_text
from sysr.pipeline import Options, analyze, check

NAMES = task_names() if (ROOT / "tasks").is_dir() else []
TASKS = {t.name: t for t in load_tasks(NAMES)} if NAMES else {}
MUTANTS = sorted((ROOT / "tests" / "fixtures" / "mutants").glob("*/*.v"))


def codes_of(outcome) -> list[str]:
    return sorted({d.code for d in outcome.diagnostics if d.severity.name == "ERROR"})


@pytest.mark.parametrize("name", NAMES)
def test_iface_and_stub_agree(name: str) -> None:
    task = TASKS[name]
    got, res = read_ports(task.text("iface.v"), task.top)
    assert got is not None, res.output
    stub = analyze(task.text("stub.sysr"))
    assert stub.design is not None and stub.design.module.name == task.top
    assert compare_ports(sysr_ports(stub.design), got) is None
    # the same requirements: one bullet in iface.v's comment per `requires` of the stub
    iface = task.text("iface.v")
    assert "// Requirements on the inputs:" in iface
    bullets = re.findall(r"^//\s+- ", iface, re.M)
    requires = [s for s in stub.design.specs() if s.kind == "requires"]
    assert len(bullets) == len(requires), "iface.v and stub.sysr state the same requirements"


STUBS = [(n, "stub.sysr") for n in NAMES] + [(n, "spec-stub.sysr") for n in NAMES if TASKS[n].has_spec_stub]


@pytest.mark.parametrize("name, stub", STUBS)
def test_stubs_have_only_holes(name: str, stub: str) -> None:
    task = TASKS[name]
    outcome = analyze(task.text(stub))
    assert codes_of(outcome) == ["H001"], [d.message for d in outcome.diagnostics]
    outputs = [p.name for p in outcome.design.module.ports if p.kind in ("out", "out_reg")]
    assert len([d for d in outcome.diagnostics if d.code == "H001"]) >= len(outputs)
    if stub == "stub.sysr":
        kinds = {s.kind for s in outcome.design.specs()}
        assert kinds <= {"requires"}, "a stub states no ensures or invariants"


@pytest.mark.parametrize("name", NAMES)
def test_ref_v_passes(name: str, tmp_path: Path) -> None:
    task = TASKS[name]
    verdict, res = simulate(task.text("tb.v"), task.text("ref.v"), tmp_path)
    assert verdict == "PASS", res.output[-2000:]


@pytest.mark.parametrize("name", NAMES)
def test_ref_sysr_is_proven_and_passes(name: str, tmp_path: Path) -> None:
    task = TASKS[name]
    outcome = check(task.text("ref.sysr"), Options())
    assert outcome.accepted, [d.message for d in outcome.diagnostics]
    kinds = {p["kind"] for p in outcome.properties}
    assert kinds & {"ensures", "invariant", "assert"}, "the reference states real properties"
    verilog, diags = lower_text(task.text("ref.sysr"), "ref.sysr")
    assert verilog is not None, diags
    got, res = read_ports(verilog, task.top)
    want, _ = read_ports(task.text("iface.v"), task.top)
    assert got is not None and compare_ports(got, want) is None
    verdict, res = simulate(task.text("tb.v"), verilog, tmp_path)
    assert verdict == "PASS", res.output[-2000:]


def with_spec(ref: str, spec_stub: str) -> str:
    """ref.sysr with the spec stub's marked regions pasted in (see tasks/README.md)."""
    def region(tag: str) -> str:
        m = re.search(rf"^\s*// {tag} begin\s*$(.*?)^\s*// {tag} end\s*$", spec_stub, re.S | re.M)
        return m.group(1) if m else ""
    body = region("spec")
    assert body.strip(), "spec-stub.sysr has no `// spec begin` ... `// spec end` region"
    links = re.search(r"/\*\s*spec-links\b(.*?)\*/", ref, re.S)
    close = ref.rstrip().rfind("}")
    return (region("spec-globals") + "\n" + ref[:close] + body + "\n" + (links.group(1) if links else "")
            + "\n}\n")


@pytest.mark.parametrize("name", [n for n in NAMES if TASKS[n].has_spec_stub])
def test_ref_proven_against_spec_stub(name: str) -> None:
    task = TASKS[name]
    combined = with_spec(task.text("ref.sysr"), task.text("spec-stub.sysr"))
    outcome = check(combined, Options())
    assert outcome.accepted, [d.message for d in outcome.diagnostics]


@pytest.mark.parametrize("path", MUTANTS, ids=[f"{p.parent.name}/{p.stem}" for p in MUTANTS])
def test_mutant_fails_its_testbench(path: Path, tmp_path: Path) -> None:
    task = TASKS[path.parent.name]
    verdict, res = simulate(task.text("tb.v"), path.read_text(), tmp_path)
    assert verdict.startswith("FAIL cycle "), (verdict, res.output[-1000:])


def test_every_task_has_seeded_bug_and_mutants() -> None:
    for name in NAMES:
        if name not in ("mac", "sync-ram"):
            assert (ROOT / "tests" / "seeded" / f"{name}.sysr").is_file(), name
        assert len(list((ROOT / "tests" / "fixtures" / "mutants" / name).glob("*.v"))) >= 3, name
