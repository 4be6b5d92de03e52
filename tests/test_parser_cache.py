"""The parser tables cache (sysr/front/tables.py): what a start-up loads instead of rebuilding.

A cache is used only for the grammar (and builder, lark and Python) it was made from; a corrupt
or unreadable one is ignored and replaced; a parser loaded from it gives the same trees and
diagnostics as one built from the grammar; processes starting together never read a half-written
file; and the static stages start without importing the prover or other heavy packages.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import lark
import pytest

from sysr.front import parse as P
from sysr.front import tables as T

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = (ROOT / "sysr" / "front" / "grammar.lark").read_text()
DESIGNS = sorted([*(ROOT / "tests" / "cases").glob("*/*.sysr"), *(ROOT / "examples").glob("*.sysr"),
                  *(ROOT / "tasks").glob("*/ref.sysr")])
MODULE = "module m(a: in u4, y: out u4) { y = a; }\n"


class Builds:
    """A parser builder for one grammar text that counts how often it really builds."""

    def __init__(self, grammar: str) -> None:
        self.grammar = grammar
        self.count = 0

    def __call__(self) -> lark.Lark:
        self.count += 1
        return lark.Lark(self.grammar, parser="lalr", keep_all_tokens=True, maybe_placeholders=False,
                         transformer=P._Build())


def caches(d: Path) -> list[Path]:
    return sorted(d.glob(T.PREFIX + "*"))


def parses(parser: lark.Lark, text: str) -> bool:
    try:
        parser.parse(text)
    except lark.UnexpectedInput:
        return False
    return True


def test_second_start_loads_the_saved_tables(tmp_path):
    build = Builds(GRAMMAR)
    first = T.cached_parser(build, GRAMMAR, dirs=[tmp_path])
    second = T.cached_parser(build, GRAMMAR, dirs=[tmp_path])
    assert build.count == 1
    assert [p.suffix for p in caches(tmp_path)] == [T.SUFFIX]  # no temporary file left behind
    assert second is not first and parses(second, MODULE)


def test_changed_grammar_is_not_served_old_tables(tmp_path):
    grammar_file = tmp_path / "grammar.lark"  # a temporary copy of the grammar, then edited
    grammar_file.write_text(GRAMMAR)
    old = Builds(grammar_file.read_text())
    T.cached_parser(old, old.grammar, dirs=[tmp_path / "cache"])
    (old_cache,) = caches(tmp_path / "cache")
    past = time.time() - 2 * T.STALE_S
    os.utime(old_cache, (past, past))

    edited = GRAMMAR.replace(r"_MODULE.2: /module\b/", r"_MODULE.2: /design\b/")
    assert edited != GRAMMAR
    grammar_file.write_text(edited)
    new = Builds(grammar_file.read_text())
    parser = T.cached_parser(new, new.grammar, dirs=[tmp_path / "cache"])
    assert new.count == 1
    assert parses(parser, MODULE.replace("module", "design")) and not parses(parser, MODULE)
    assert [p.name for p in caches(tmp_path / "cache")] != [old_cache.name]  # the stale one is gone
    assert len(caches(tmp_path / "cache")) == 1


def test_other_lark_version_is_another_cache(monkeypatch):
    key = T.cache_key(GRAMMAR)
    monkeypatch.setattr(lark, "__version__", lark.__version__ + ".post1")
    assert T.cache_key(GRAMMAR) != key


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "other key"])
def test_corrupt_cache_is_ignored_and_replaced(tmp_path, damage):
    build = Builds(GRAMMAR)
    T.cached_parser(build, GRAMMAR, dirs=[tmp_path])
    (path,) = caches(tmp_path)
    data = path.read_bytes()
    header = data[: data.index(b"\n") + 1]
    path.write_bytes({"garbage": header + b"\x80\x04not a pickle at all",
                      "truncated": data[: len(data) // 2],
                      "empty": b"",
                      "other key": data.replace(T.cache_key(GRAMMAR).encode(), b"0" * 64, 1)}[damage])
    parser = T.cached_parser(build, GRAMMAR, dirs=[tmp_path])
    assert build.count == 2 and parses(parser, MODULE)
    assert T.read_cache(path, T.cache_key(GRAMMAR)) is not None
    T.cached_parser(build, GRAMMAR, dirs=[tmp_path])
    assert build.count == 2  # the rewritten cache is used


def test_unwritable_folder_falls_back_to_the_next(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the package's cache folder would be")
    build = Builds(GRAMMAR)
    T.cached_parser(build, GRAMMAR, dirs=[blocked / "cache", tmp_path / "user"])
    T.cached_parser(build, GRAMMAR, dirs=[blocked / "cache", tmp_path / "user"])
    assert build.count == 1 and len(caches(tmp_path / "user")) == 1
    parser = T.cached_parser(build, GRAMMAR, dirs=[blocked / "cache"])  # nowhere to write: built
    assert build.count == 2 and parses(parser, MODULE)


def test_user_cache_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert T.default_dirs()[-1] == tmp_path / "xdg" / "sysr"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert T.default_dirs()[-1] == tmp_path / "home" / ".cache" / "sysr"
    assert T.default_dirs()[0] == ROOT / "sysr" / "front" / "__pycache__"


def test_cached_parser_gives_the_same_trees_and_diagnostics(tmp_path, monkeypatch):
    assert len(DESIGNS) > 100
    built = P.build_parser()
    T.cached_parser(P.build_parser, GRAMMAR, dirs=[tmp_path])
    loaded = T.read_cache(caches(tmp_path)[0], T.cache_key(GRAMMAR))
    assert loaded is not None
    results = {}
    for name, parser in (("built", built), ("loaded", loaded)):
        monkeypatch.setattr(P, "_parser", lambda parser=parser: parser)
        results[name] = [P.parse(path.read_text()) for path in DESIGNS]
    assert any(tree is None for tree, _ in results["built"])  # syntax errors are compared too
    # nodes compare by identity (side tables key on them): compare their full text instead
    assert repr(results["loaded"]) == repr(results["built"])


_RACE = """
import sys
from pathlib import Path
from sysr.front import parse as P, tables as T
parser = T.cached_parser(P.build_parser, P._GRAMMAR, dirs=[Path(sys.argv[1])])
print(type(parser.parse(sys.argv[2])).__name__)
"""


def test_processes_starting_together_all_get_a_parser(tmp_path):
    procs = [subprocess.Popen([sys.executable, "-P", "-c", _RACE, str(tmp_path), MODULE],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [(p.returncode, out.strip(), err) for p, (out, err) in zip(procs, outs)] == [(0, "SourceFile", "")] * 4
    assert [p.suffix for p in caches(tmp_path)] == [T.SUFFIX]
    assert T.read_cache(caches(tmp_path)[0], T.cache_key(P._GRAMMAR)) is not None


HEAVY = ("z3", "vcd", "rich", "pydantic", "anthropic", "sysr.smt", "sysr.vcd")
_IMPORTS = """
import sys
from sysr.cli import main
code = main(sys.argv[1:])
print("imported:" + ",".join(sorted(m for m in sys.modules if any(m == h or m.startswith(h + ".") for h in %r))))
""" % (HEAVY,)


@pytest.mark.parametrize("argv", [["check", "--no-verify"], ["lower"]])
def test_static_stages_do_not_import_the_prover(argv, tmp_path):
    out = subprocess.run([sys.executable, "-P", "-c", _IMPORTS, *argv, str(ROOT / "tasks/pwm/ref.sysr"),
                          *(["-o", str(tmp_path / "out.v")] if argv == ["lower"] else [])],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    (line,) = [x for x in out.stdout.splitlines() if x.startswith("imported:")]
    assert line == "imported:"


def test_setup_step_saves_the_tables_beside_the_package(tmp_path):
    out = subprocess.run([sys.executable, "-P", "-m", "sysr.front.parse"], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path, env={**os.environ, "HOME": str(tmp_path)})
    assert out.returncode == 0 and out.stderr == ""
    path = Path(out.stdout.removeprefix("sysr: parser tables cached in ").strip())
    assert path.parent == ROOT / "sysr" / "front" / "__pycache__"
    assert T.read_cache(path, T.cache_key(*P.cache_key_parts())) is not None
    assert list(tmp_path.iterdir()) == []  # nothing written to the user's folders
