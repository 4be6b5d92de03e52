"""Hostile checkouts given to `bench suite import` (tests/attacks/checkout.toml): nothing in a
checkout runs, points outside, or grows without bound (issue 24, cause 6).

Each attack is a small VerilogEval-layout checkout (two problems of tests/fixtures/suites, in a
git repository made here) with one hostile change, imported through the real command line
with a secret in its environment. Besides each attack's own expectation: nothing is written
outside --out, no marker of a command the checkout asks git to run exists, and no file written
holds the secret or a line of /etc/passwd.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bench.suites import checkout

HERE = Path(__file__).parent
ROOT = HERE.parent
TABLE = {a["name"]: a for a in tomllib.loads((HERE / "attacks" / "checkout.toml").read_text())["attack"]}
FIXTURE = HERE / "fixtures" / "suites" / "verilogeval" / "dataset_spec-to-rtl"
SECRET = "bench-attack-secret-7d1e"
PROBLEMS = ("Prob001_and2", "Prob002_dffar")
DATASET = "dataset_spec-to-rtl"


def git(cwd: Path, *args: str) -> str:
    env = {"PATH": os.environ["PATH"], "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", "-c", "core.hooksPath=/dev/null", *args], cwd=cwd, env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


def make(tmp: Path, pinned: bool = True) -> Path:
    src = tmp / "checkout"
    (src / DATASET).mkdir(parents=True)
    for p in PROBLEMS:
        for f in FIXTURE.glob(f"{p}_*"):
            shutil.copy(f, src / DATASET / f.name)
    if pinned:
        git(src, "init", "-q")
        git(src, "add", ".")
        git(src, "commit", "-qm", "fixture")
    return src


def setup(name: str, tmp: Path) -> tuple[Path, Path, list[Path]]:
    """(the checkout, the folder given to the importer, markers that must not exist)."""
    src = make(tmp, pinned=name != "unpinned")
    data = src / DATASET
    marker = tmp / "MARKER"
    if name == "fsmonitor":
        git(src, "config", "core.fsmonitor", f"touch {marker}; env > {marker}")
        git(src, "config", "core.untrackedCache", "true")
    elif name == "hooks-and-filters":
        (src / ".gitattributes").write_text("*.sv filter=evil\n")
        git(src, "add", ".gitattributes")
        git(src, "commit", "-qm", "attributes")
        hooks = src / ".git" / "hooks"
        for hook in ("post-checkout", "pre-commit", "post-index-change"):
            (hooks / hook).write_text(f"#!/bin/sh\ntouch {marker}\n")
            (hooks / hook).chmod(0o755)
        git(src, "config", "filter.evil.clean", f"sh -c 'touch {marker}; cat'")
        git(src, "config", "core.pager", f"touch {marker}")
        os.utime(data / "Prob001_and2_ref.sv")  # racily clean: status would run the clean filter
    elif name == "dotdot-in-problem-list":
        (data / "problems.txt").write_text("Prob001_and2\n../../escaped\n../Prob001_and2\n")
        (tmp / "escaped_prompt.txt").write_text("outside the checkout\n")
    elif name == "symlink-prompt-environ":
        (data / "Prob001_and2_prompt.txt").unlink()
        (data / "Prob001_and2_prompt.txt").symlink_to("/proc/self/environ")
    elif name == "symlink-ref-passwd":
        (data / "Prob002_dffar_ref.sv").unlink()
        (data / "Prob002_dffar_ref.sv").symlink_to("/etc/passwd")
    elif name == "symlink-dataset-folder":
        outside = tmp / "outside"
        shutil.move(str(data), outside)
        data.symlink_to(outside)
        return src, src, [marker]
    elif name == "fifo-prompt":
        (data / "Prob001_and2_prompt.txt").unlink()
        os.mkfifo(data / "Prob001_and2_prompt.txt")
    elif name == "huge-prompt":
        with open(data / "Prob001_and2_prompt.txt", "r+b") as f:
            f.truncate(5 * 1024**2)
    return src, data, [marker]


def run_import(given: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_SECRET_TOKEN": SECRET}
    return subprocess.run([sys.executable, "-m", "bench.cli", "suite", "import", "verilogeval", str(given), "--out",
                           str(out), "--json", *extra], capture_output=True, text=True, timeout=300, env=env)


def written(folder: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


@pytest.mark.parametrize("name", sorted(TABLE))
def test_hostile_checkout(name, tmp_path):
    attack = TABLE[name]
    src, given, markers = setup(name, tmp_path)
    out = tmp_path / "box" / "out"
    out.parent.mkdir()
    before = {p for p in tmp_path.rglob("*") if not p.is_relative_to(out.parent)}
    res = run_import(given, out)
    assert "Traceback" not in res.stderr
    for m in markers:
        assert not m.exists(), f"{name}: a command from the checkout's git config ran"
    after = {p for p in tmp_path.rglob("*") if not p.is_relative_to(out.parent)}
    assert after == before, f"{name}: written outside --out: {sorted(map(str, after - before))}"
    assert {p.name for p in out.parent.iterdir()} <= {"out"}
    if attack["expect"] == "refused":
        assert res.returncode == 2, res.stdout
        assert attack["reason"] in res.stderr
        assert not out.exists()
        return
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    text = written(out)
    assert SECRET not in text and "root:x:0:0" not in text
    if attack["expect"] == "pinned":
        assert report["commit"] == git(src, "rev-parse", "HEAD")
        assert report["valid"] == len(PROBLEMS)
        assert all(json.loads((out / p / "task.json").read_text())["origin"]["commit"] == report["commit"]
                   for p in PROBLEMS)
    else:
        reasons = [e["reason"] for e in report["invalid"]]
        assert any(attack["reason"] in r for r in reasons), reasons
        assert report["valid"] + len(report["invalid"]) == report["tasks"]


def test_an_unpinned_checkout_imports_when_the_user_says_so(tmp_path):
    src = make(tmp_path, pinned=False)
    res = run_import(src / DATASET, tmp_path / "out", "--allow-unpinned")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["commit"] == "unknown"


def test_the_commit_is_read_from_the_git_files(tmp_path):
    src = make(tmp_path)
    head = git(src, "rev-parse", "HEAD")
    assert checkout.commit(src / DATASET) == head
    git(src, "pack-refs", "--all")  # the branch only in packed-refs
    assert checkout.commit(src) == head
    git(src, "update-index", "--index-version", "4")
    assert checkout.commit(src) == head
    (src / DATASET / "Prob001_and2_ref.sv").write_text("module RefModule(); endmodule\n")
    assert checkout.commit(src / DATASET) == head + "-dirty"
    (src / DATASET / "Prob001_and2_ref.sv").unlink()
    assert checkout.commit(src) == head + "-dirty"
    git(src, "checkout", "-q", "--", ".")
    (src / DATASET / "untracked.txt").write_text("not part of the commit\n")
    assert checkout.commit(src) == head
    git(src, "checkout", "-q", "--detach")
    assert checkout.commit(src) == head
    assert checkout.commit(tmp_path / "nowhere") == "unknown"


def test_a_worktree_checkout_is_read_through_its_gitdir_file(tmp_path):
    src = make(tmp_path)
    git(src, "worktree", "add", "-q", str(tmp_path / "wt"))
    assert checkout.commit(tmp_path / "wt" / DATASET) == git(src, "rev-parse", "HEAD")


def test_read_under_refuses_links_on_the_way(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "f.txt").write_text("text")
    (tmp_path / "via").symlink_to(tmp_path / "real")
    assert checkout.read_under(tmp_path, tmp_path / "real" / "f.txt") == "text"
    assert checkout.read_under(tmp_path, tmp_path / "real" / "missing.txt") is None
    with pytest.raises(checkout.Unsafe, match="symbolic link"):
        checkout.read_under(tmp_path, tmp_path / "via" / "f.txt")
    with pytest.raises(checkout.Unsafe, match="outside"):
        checkout.read_under(tmp_path / "real", tmp_path / "real" / ".." / "via" / "f.txt")


@pytest.mark.parametrize("name,ok", [("Prob001_and2", True), ("rom-table.v2", True), ("../x", False),
                                     ("a/b", False), (".hidden", False), ("a..b", False), ("", False)])
def test_safe_names(name, ok):
    assert checkout.safe_name(name) is ok


def test_fenced_blocks_are_read_as_the_lazy_regular_expression_reads_them():
    """The prompt's fenced blocks, read in one pass, are what the old lazy regular expression
    found, on random texts made of fence lines, code and blanks."""
    import random
    import re

    from bench.verilog.modules import fenced_blocks

    oracle = re.compile(r"^[ \t]*```[^\n]*\n(.*?)^[ \t]*```", re.S | re.M)
    rng = random.Random(7)
    pieces = ["```", "```verilog", "  ```", "x ```", "module m; endmodule", "", "\t```sv", "text"]
    for _ in range(3000):
        text = "\n".join(rng.choice(pieces) for _ in range(rng.randrange(0, 12)))
        if rng.random() < 0.5:
            text += "\n"
        assert fenced_blocks(text) == oracle.findall(text), repr(text)

