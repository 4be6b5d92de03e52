"""The result cache of `bench score` (bench.judge.cache): a second score of the same candidate runs no
tool, anything the result depends on misses, tool failures and unsandboxed results are never
stored, a corrupt entry is ignored, the cache stays within its size, `--no-cache` bypasses it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import bench.judge.cache as cache
import bench.judge.score as score
from bench.judge.cache import FORMAT, ResultCache, tree_digest
from bench.judge.results import CandidateResult
from bench.judge.score import Limits, Scorer
from bench.judge.session import Session
from bench.judge.tasks import load_tasks

FIXTURE = Path(__file__).parent / "fixtures" / "toy"


@pytest.fixture
def toy(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "tasks" / "toy")
    return load_tasks(["toy"], tmp_path / "tasks")[0]


@pytest.fixture
def runs(monkeypatch) -> list[str]:
    """The tools run from now on, sandboxed (Session.run) or not (the scorer's sysr stages)."""
    ran: list[str] = []
    run, bounded = Session.run, score.run_bounded
    monkeypatch.setattr(Session, "run", lambda self, argv, *a: ran.append(Path(argv[0]).name) or run(self, argv, *a))
    monkeypatch.setattr(score, "run_bounded", lambda argv, *a, **k: ran.append("sysr") or bounded(argv, *a, **k))
    return ran


def entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json"))


@pytest.mark.parametrize("lang, ref, tools", [
    ("verilog", "ref.v", ["iverilog", "yosys", "verilator", "iverilog", "iverilog", "vvp"]),
    ("sysr", "ref.sysr", ["sysr", "sysr", "iverilog", "yosys", "verilator", "iverilog", "iverilog", "vvp"]),
])
def test_a_second_score_runs_no_tool(toy, tmp_path, runs, lang, ref, tools) -> None:
    scorer = Scorer(cache=ResultCache(tmp_path / "cache"))
    scorer.iface_ports(toy)  # read once per process: not a run of the candidate's
    runs.clear()
    first = scorer.score(toy, lang, toy.text(ref))
    assert first.result == "PASS" and not first.cached and runs == tools
    runs.clear()
    second = Scorer(cache=ResultCache(tmp_path / "cache")).score(toy, lang, toy.text(ref).replace("\n", "\r\n"))
    assert runs == [] and second.cached and second.result == "PASS"
    assert second.model_dump(exclude={"cached"}) == first.model_dump(exclude={"cached"})
    assert len(entries(tmp_path / "cache")) == 1


def test_what_the_result_depends_on_misses(toy, tmp_path, runs, monkeypatch) -> None:
    """A changed task file, tool, limit or project source is a different key: the tools run again."""
    folder = tmp_path / "cache"
    ref = toy.text("ref.v")

    def tools_ran(**scorer) -> bool:
        runs.clear()
        r = Scorer(cache=ResultCache(folder), **scorer).score(toy, "verilog", ref)
        assert r.result == "PASS"
        return bool(runs) and not r.cached

    assert tools_ran() and not tools_ran()
    toy.path("tb.v").write_text(toy.text("tb.v") + "// a comment\n")
    assert tools_ran() and not tools_ran()
    toy.path("notes.txt").write_text("a file the scoring does not read today\n")
    assert tools_ran()
    version = cache.tool_version
    monkeypatch.setattr(cache, "tool_version", lambda name: "Yosys 0.99" if name == "yosys" else version(name))
    assert tools_ran() and not tools_ran()
    assert tools_ran(limits=Limits(sim_s=59))
    assert tools_ran(lint=True) and not tools_ran(lint=True)
    monkeypatch.setattr(cache, "project", lambda: {"source": "another commit"})
    assert tools_ran() and not tools_ran()
    assert len(entries(folder)) == 7


def test_the_project_digest_follows_every_source_file(tmp_path) -> None:
    (tmp_path / "bench" / "__pycache__").mkdir(parents=True)
    (tmp_path / "sysr").mkdir()
    (tmp_path / "bench" / "score.py").write_text("x = 1\n")
    (tmp_path / "sysr" / "grammar.lark").write_text("start: x\n")
    digest = tree_digest(tmp_path, ("bench", "sysr"))
    (tmp_path / "bench" / "__pycache__" / "score.pyc").write_bytes(b"\0")
    assert tree_digest(tmp_path, ("bench", "sysr")) == digest  # caches are not the source
    (tmp_path / "sysr" / "grammar.lark").write_text("start: y\n")
    changed = tree_digest(tmp_path, ("bench", "sysr"))
    (tmp_path / "bench" / "new.py").write_text("")
    assert len({digest, changed, tree_digest(tmp_path, ("bench", "sysr"))}) == 3


def test_tool_failures_and_unsandboxed_results_are_not_stored(toy, tmp_path, runs, monkeypatch) -> None:
    import bench.judge.tools as tools

    folder = tmp_path / "cache"
    monkeypatch.setenv("IVERILOG", "/nonexistent/iverilog")
    tools.tool_version.cache_clear()
    try:
        for _ in range(2):
            runs.clear()
            r = Scorer(cache=ResultCache(folder)).score(toy, "verilog", toy.text("ref.v"))
            assert r.result == "tool-failure" and not r.cached
    finally:
        monkeypatch.delenv("IVERILOG")
        tools.tool_version.cache_clear()
    assert entries(folder) == []
    monkeypatch.setenv("BENCH_UNSANDBOXED", "1")
    for _ in range(2):
        runs.clear()
        r = Scorer(cache=ResultCache(folder)).score(toy, "verilog", toy.text("ref.v"))
        assert r.result == "PASS" and not r.cached and runs
    assert entries(folder) == []


def test_a_corrupt_entry_is_ignored(toy, tmp_path, runs) -> None:
    folder = tmp_path / "cache"
    scorer = Scorer(cache=ResultCache(folder))
    scorer.score(toy, "verilog", toy.text("ref.v"))
    (entry,) = entries(folder)
    good = entry.read_text()
    for bad in ("{not json", json.dumps({"key": "another", "result": json.loads(good)["result"]}),
                json.dumps({"key": entry.stem, "result": {"task": "toy"}}), ""):
        entry.write_text(bad)
        runs.clear()
        r = scorer.score(toy, "verilog", toy.text("ref.v"))
        assert r.result == "PASS" and not r.cached and runs
        assert json.loads(entry.read_text())["key"] == entry.stem  # stored again, whole


def test_the_cache_is_bounded_and_keeps_the_recent(tmp_path) -> None:
    c = ResultCache(tmp_path)
    result = CandidateResult(task="toy", lang="verilog", result="wrong-output")
    for i in range(60):
        c.put(f"{i:064x}", result)
    assert c.prune() == 0  # within the bound: nothing goes
    size = sum(p.stat().st_size for p in entries(tmp_path))
    c.max_bytes = size // 3  # about 20 entries
    for i in range(50, 60):
        assert c.get(f"{i:064x}") is not None  # used now: the most recent
    assert c.prune() > 0
    assert sum(p.stat().st_size for p in entries(tmp_path)) <= c.max_bytes * 3 // 4
    assert all(c.get(f"{i:064x}") is not None for i in range(50, 60)) and c.get(f"{0:064x}") is None


def test_parallel_stores_never_show_half_an_entry(tmp_path) -> None:
    c = ResultCache(tmp_path)
    result = CandidateResult(task="toy", lang="verilog", result="PASS")
    k = "ab" * 32
    c.put(k, result)
    misses = []

    def hammer() -> None:
        for _ in range(200):
            c.put(k, result)
            if c.get(k) is None:
                misses.append(1)

    threads = [threading.Thread(target=hammer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert misses == [] and entries(tmp_path) == [tmp_path / f"v{FORMAT}" / "ab" / f"{k}.json"]


def test_cli_reads_the_cache_unless_told_not_to(toy, tmp_path) -> None:
    folder = tmp_path / "cache"
    env = {"BENCH_TASKS_DIR": str(toy.path("").parent), "BENCH_CACHE_DIR": str(folder), "PATH": "/usr/bin:/bin"}
    argv = [sys.executable, "-m", "bench.cli", "score", "--lang", "verilog", "--tasks", "toy", "--json"]

    def cached(*extra: str) -> bool:
        out = subprocess.run([*argv, *extra], capture_output=True, text=True, env=env, timeout=120)
        assert out.returncode == 0, out.stderr
        (r,) = json.loads(out.stdout)["results"]
        return r["cached"]

    assert [cached(), cached()] == [False, True]
    (entry,) = entries(folder)
    before = entry.stat().st_mtime_ns
    assert cached("--no-cache") is False
    assert entries(folder) == [entry] and entry.stat().st_mtime_ns == before  # neither read nor written
