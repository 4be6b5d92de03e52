"""The import graph of `sysr`: no circles, and nothing of the benchmark.

Data flows one way in sysr (front end -> elaboration -> proofs, lowering, back ends), so no
module may import, directly or through others, a module that imports it back: that includes
imports inside functions, which are dependencies all the same. And sysr stands on its own:
`bench` uses sysr, never the other way round. The graph is grimp's (it reads every `import`
statement, at any depth); a failure names the modules of each circle, with the line of every
import in it.
"""

from __future__ import annotations

import grimp
import pytest


def build(*packages: str) -> grimp.ImportGraph:
    return grimp.build_graph(*packages, cache_dir=None)  # (no cache folder left in the checkout)


def circles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The strongly connected sets of modules of `package` (more than one module each), sorted:
    every module of such a set reaches every other through imports."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    imports = {m: sorted(graph.find_modules_directly_imported_by(m) & set(modules)) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in modules:  # Tarjan's algorithm, without recursion
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = len(index)
                stack.append(v)
                on_stack.add(v)
            if i < len(imports[v]):
                work.append((v, i + 1))
                w = imports[v][i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return sorted(found)


def describe(graph: grimp.ImportGraph, chain) -> str:
    """`a -> b -> c`, each arrow with the line of the import that makes it."""
    steps = [chain[0]]
    for a, b in zip(chain, chain[1:]):
        details = graph.get_import_details(importer=a, imported=b)
        where = f" (line {details[0]['line_number']}: {details[0]['line_contents']})" if details else ""
        steps.append(f"-> {b}{where}")
    return "\n    ".join(steps)


def circle_report(graph: grimp.ImportGraph, group: list[str]) -> str:
    """One circle through the first module of `group`: there and back by the shortest chains."""
    first = group[0]
    other = next(m for m in group[1:] if graph.find_shortest_chain(importer=first, imported=m))
    there = graph.find_shortest_chain(importer=first, imported=other)
    back = graph.find_shortest_chain(importer=other, imported=first)
    return describe(graph, list(there) + list(back[1:]))


def test_sysr_has_no_import_circles() -> None:
    graph = build("sysr")
    found = circles(graph, "sysr")
    assert not found, "import circles in sysr:\n" + "\n".join(circle_report(graph, g) for g in found)


def test_sysr_does_not_import_bench() -> None:
    graph = build("sysr", "bench")
    chains = graph.find_shortest_chains(importer="sysr", imported="bench", as_packages=True)
    assert not chains, "sysr imports bench:\n" + "\n".join(describe(graph, c) for c in sorted(chains))


def test_a_circle_through_an_import_inside_a_function_is_found(tmp_path, monkeypatch) -> None:
    pkg = tmp_path / "circled"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def f():\n    from . import high\n    return high.g()\n")
    (pkg / "high.py").write_text("from . import low\n\ndef g():\n    return 1\n")
    (pkg / "alone.py").write_text("from . import high\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = build("circled")
    found = circles(graph, "circled")
    assert found == [["circled.high", "circled.low"]]
    report = circle_report(graph, found[0])
    assert report.startswith("circled.high\n    -> circled.low (line 1: from . import low)")
    assert "-> circled.high (line 2: from . import high)" in report


@pytest.mark.parametrize("name", ["sysr.elab", "sysr.front.parse", "sysr.smt.prove"])
def test_the_split_modules_keep_their_public_names(name: str) -> None:
    """What other modules and tests import from the modules that became packages or were split."""
    module = __import__(name, fromlist=["_"])
    wanted = {
        "sysr.elab": ["elaborate", "Elaborator", "System", "Prop", "StateVar", "Var", "Const", "Bin", "postorder",
                      "children", "mentions_prev", "source_snippet", "variant_registers", "variant_outputs"],
        "sysr.front.parse": ["parse", "_parser", "build_parser", "cache_key_parts", "_Build", "_GRAMMAR"],
        "sysr.smt.prove": ["Prover", "Verdict", "Unrolling", "make_solver", "QUICK_S", "QUICK_WORK", "verify"],
    }[name]
    assert [n for n in wanted if not hasattr(module, n)] == []
