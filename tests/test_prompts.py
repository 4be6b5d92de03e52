"""The prompts a model gets: their size, and what they say, in both languages.

- Every task's first sysr prompt (system prompt and first message, as the relay backend writes
  them) is at most 3.0 times its Verilog one, and at most 1.5 with the system prompts read from
  the prompt cache at a tenth of an input token: over the project's tasks and over imported
  fixture suites (tests/fixtures/suites, whose short prompts are the hard case), a property of
  the files, so a test (the figures: benchmarks/prompt_ratio.py, also on real imports).
- The sysr system prompt carries the compact reference (docs/model-reference.md, its notes for
  maintainers left out), not the full one: its core for every task, and each tagged section
  when the starting file uses its constructs (bench/loop/sections.py); both system prompts say how a design is judged in
  the same words; the Verilog one states the scorer's rules as bench.judge.guard enforces them.
- A sysr repair message carries the full reference's explanation of each code the checker gave;
  a Verilog one carries the tools' messages only.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from bench.judge import guard
from bench.loop.conversation import (MODEL_REFERENCE, Settings, first_message, first_prompt_chars, first_prompt_cost,
                                     next_feedback, repair_message, system_prompt, task_system_prompt, template)
from bench.loop.sections import RULES, asks, features, select, split, wanted
from bench.loop.models import Message
from bench.loop.models.relay import RelayModel
from bench.loop.records import Attempt
from bench.judge.results import StageResult
from bench.judge.tasks import ROOT, left_out, load_tasks

BOUND = 3.0
CACHED_BOUND = 1.5
TASKS = load_tasks()
FIXTURES = ROOT / "tests" / "fixtures" / "suites"


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> list:
    """The sysr-expressible tasks of both fixture suites, imported as `bench suite import` does."""
    root = tmp_path_factory.mktemp("imported")
    tasks = []
    for kind, name in (("verilogeval", "verilogeval"), ("chipbench", "chipbench")):
        shutil.copytree(FIXTURES / name, root / name)
        done = subprocess.run([sys.executable, "-m", "bench.cli", "suite", "import", kind, str(root / name),
                               "--out", str(root / f"{name}-tasks"), "--allow-unpinned"],
                              capture_output=True, text=True, timeout=600,
                              cwd=ROOT)
        assert done.returncode == 0, done.stderr
        tasks += [t for t in load_tasks(None, root / f"{name}-tasks") if left_out(t, "sysr") is None]
    assert len(tasks) >= 6
    return tasks


def _bounded(task) -> None:
    v, s = first_prompt_chars(task, "verilog"), first_prompt_chars(task, "sysr")
    assert s <= BOUND * v, f"{task.name}: sysr {s:,} characters, Verilog {v:,}: ratio {s / v:.2f} > {BOUND}"
    vc, sc = first_prompt_cost(task, "verilog"), first_prompt_cost(task, "sysr")
    assert sc <= CACHED_BOUND * vc, f"{task.name}: with cache reads at 0.1, ratio {sc / vc:.2f} > {CACHED_BOUND}"


@pytest.mark.parametrize("task", TASKS, ids=[t.name for t in TASKS])
def test_first_sysr_prompt_is_at_most_three_times_the_verilog_one(task):
    _bounded(task)


def test_the_bounds_hold_on_imported_suites(imported):
    for task in imported:
        _bounded(task)
    assert {t.language for t in imported} == {"systemverilog"}


def test_the_cost_counts_the_system_prompt_at_the_cache_price():
    task = TASKS[0]
    system, message = len(task_system_prompt(task, "sysr")), len(first_message(task, "sysr", False))
    assert first_prompt_cost(task, "sysr", cache_read=0.1) == pytest.approx(0.1 * system + message)
    assert first_prompt_cost(task, "sysr", cache_read=1.0) == first_prompt_chars(task, "sysr")


STUBS = {
    "comb": "module m(a: in u8, y: out u8) { y = ?y; }",
    "sync": "module m(clk: clock, rst: reset, a: in u8, q: out reg u8 = 0) { seq { q <= ?q; } }",
    "bare clock": "module m(clk: clock, d: in bool, q: out bool) { q = ?q; }",
    "async": "module m(clk: clock, ar: areset_n, d: in bool, q: out bool) { q = ?q; }",
    "specs": "module m(clk: clock, rst: reset, a: in u8, y: out u8) {\n  requires a != 0;\n  y = ?y;\n}",
    "two modules": "module s(a: in u8, y: out u8) { y = a; }\nmodule m(a: in u8, y: out u8) { y = ?y; }",
    "keyword name": "module m(a: in u8, r#match: out bool) { r#match = ?m; }",
    "params": "module m<W: int = 8>(a: in u[W], y: out u[W]) { y = ?y; }",
    "int const": "const N: int = 3;\nmodule m(a: in u8, y: out u8) { y = ?y; }",
    "wide bus": "module m(a: in u1024, s: in u8, y: out u4) { y = ?y; }",
    "struct": "struct P { v: bool, d: u8 }\nmodule m(p: in P, y: out u8) { y = p.d; }",
    "two clocks": "module m(wclk: clock, rclk: clock, d: in bool, q: out bool) { q = ?q; }",
    "falling edge": "module m(clk: clock, d: in bool, q: out reg bool) { seq(falling clk) { q <= ?q; } }",
    "falling stub": "// `clk` clocks the reference at its falling edge: `seq(falling clk) { ... }`\n"
                    "module m(clk: clock, d: in bool, q: out bool) { q = ?q; }",
}
WANTED = {"comb": set(), "sync": {"clocked"}, "bare clock": {"clocked"}, "async": {"clocked", "async-reset"},
          "specs": {"clocked", "proofs"}, "two modules": {"instances"}, "keyword name": {"names"}, "params": {"params"},
          "int const": {"params"}, "wide bus": {"wide"}, "struct": {"structs"}, "two clocks": {"clocked", "clocks"},
          "falling edge": {"clocked", "clocks"}, "falling stub": {"clocked", "clocks"}}


@pytest.mark.parametrize("kind", STUBS)
def test_a_starting_file_gets_the_sections_its_constructs_need(kind):
    parts = split(MODEL_REFERENCE.read_text())
    found = features(STUBS[kind])
    assert {s.tag for s in parts if s.tag and wanted(s, found)} == WANTED[kind]
    assert set(RULES) == {s.tag for s in parts if s.tag}  # every tag in the file has a rule, and back


def test_nothing_is_withheld_on_a_guess():
    tags = {s.tag for s in split(MODEL_REFERENCE.read_text()) if s.tag}
    for start in ("module m(a: in u8 { oops", None):  # does not parse; no starting file
        core, extra = select(MODEL_REFERENCE.read_text(), start)
        assert all(f"<!-- when: {t} -->" in extra for t in tags)
    unknown = "## Later\n<!-- when: some-future-tag -->\n- a line\n"
    assert "a line" in select(MODEL_REFERENCE.read_text() + unknown, STUBS["comb"])[1]
    assert "a line" not in select(MODEL_REFERENCE.read_text() + unknown.replace("some-future-tag", "async-reset"),
                                  STUBS["comb"])[1]


def test_a_clocked_task_without_properties_still_learns_what_properties_may_name():
    # Relay sessions on ChipBench (stubs without properties, so no `proofs` section) wrote an
    # `ensures` over a register (S001) and an `invariant` over the reset input (S003).
    core, extra = select(MODEL_REFERENCE.read_text(), STUBS["sync"])
    assert "<!-- when: proofs -->" not in extra
    sent = core + extra
    assert "never a `reg`: S001" in sent and "never inputs (S003)" in sent
    assert "`ghost reg\n  h: T = 0;` written in `ghost seq { }`" in sent


@pytest.mark.parametrize("prompt, adds", [
    ("Implement the top module using the submodule `min2` three times.", True),
    ("Instantiate two full adders.", True),
    ("The given code:\nmodule dual_port_RAM #(parameter DEPTH = 16)(input wclk);\nendmodule\nWrite TopModule.", True),
    ("Implement module TopModule with these ports.\nmodule TopModule (input a, output b);", False),
    ("Unfortunately, this module has a bug. Implement a new version of this\nmodule that fixes the bug.", False),
    ("A 4-bit counter that counts up.", False),
])
def test_a_problem_that_asks_for_submodules_gets_the_instances_section(prompt, adds):
    # a not-self-contained problem's stub holds the top module only: the problem's text says more
    extra = select(MODEL_REFERENCE.read_text(), STUBS["comb"], prompt)[1]
    assert ("<!-- when: instances -->" in extra) is adds and (asks(prompt) == {"modules"}) is adds
    assert select(MODEL_REFERENCE.read_text(), STUBS["comb"])[1] == ""


def test_a_construct_the_rules_do_not_know_sends_every_section(monkeypatch):
    from bench.loop import sections
    monkeypatch.setattr(sections, "KNOWN", sections.KNOWN - {"Hole"})
    assert features(STUBS["comb"]) is None


def test_the_core_comes_first_as_the_cached_prefix():
    task = next(t for t in TASKS if t.name == "icache")
    system = task_system_prompt(task, "sysr")
    assert len(system.parts) == 2 and system == "".join(system.parts)
    assert "## Core" in system.parts[0] and "## Clocked" in system.parts[1] and "## Proofs" in system.parts[1]
    assert system.parts[0] == task_system_prompt(next(t for t in TASKS if t.name == "alu"), "sysr").parts[0]
    assert "<!--" not in system and "// accept" not in system


def test_the_first_message_names_the_sections_the_system_prompt_adds():
    # the system prompt differs between tasks by its sections: the task's message says which it has
    icache, alu = (next(t for t in TASKS if t.name == n) for n in ("icache", "alu"))
    message, system = first_message(icache, "sysr", False), task_system_prompt(icache, "sysr")
    line = next(l for l in message.splitlines() if "system prompt adds the sections" in l)
    names = [n.strip() for n in line.split(": ", 1)[1].rstrip(".").split(",")]
    assert names[:2] == ["Clocked", "Proofs and ghosts"]
    assert [n for n in names if f"## {n}\n" not in system.parts[1]] == []
    assert re.findall(r"(?m)^## (.+)$", system.parts[1]) == names
    assert "system prompt adds the sections" not in first_message(alu, "sysr", False)  # core only
    assert "system prompt adds the sections" not in first_message(icache, "verilog", False)


def test_the_count_is_what_the_relay_backend_writes(tmp_path):
    task = next(t for t in TASKS if t.name == "prio-enc")
    for lang in ("sysr", "verilog"):
        folder = tmp_path / lang
        folder.mkdir()
        (folder / "prio-enc-1.reply.txt").write_text("no code")
        RelayModel(str(folder), timeout_s=5).complete(task_system_prompt(task, lang),
                                                      [Message("user", first_message(task, lang, False))],
                                                      "prio-enc", 1)
        sent = json.loads((folder / "prio-enc-1.prompt.json").read_text())
        assert len(sent["system"]) + sum(len(m["content"]) for m in sent["messages"]) == \
            first_prompt_chars(task, lang)


def test_the_sysr_system_prompt_carries_the_compact_reference():
    text = system_prompt("sysr")  # no starting file: every section
    compact = re.sub(r"<!--.*?-->\n?", "", MODEL_REFERENCE.read_text(), flags=re.S).strip()
    assert compact.replace("// accept\n", "") in text and "<!--" not in text and "// accept" not in text
    assert "## 9. Diagnostics" not in text  # the full reference is for repairs, code by code
    assert len(text) < len((ROOT / "docs" / "reference.md").read_text()) / 5


def test_both_system_prompts_say_how_a_design_is_judged_in_the_same_words():
    judged = template("judged.md").substitute().strip()
    assert judged in system_prompt("sysr") and judged in system_prompt("verilog")
    assert "$" not in judged


def test_the_verilog_prompt_states_the_guards_rules():
    text = system_prompt("verilog")
    for name in sorted(guard.ALLOWED_SYSTEM) + sorted(guard.FORBIDDEN_WORDS):
        assert f"`{name}`" in text, name
    assert "`include" in text and "`timescale" in text and "`default_nettype" in text
    assert "-g2005" in text


ENUM_FROM_TERNARY = """module t(input logic c, output logic [1:0] y);
  typedef enum logic [1:0] {A, B, C} st_t;
  st_t s;
  always_comb s = c ? A : B;
  assign y = s;
endmodule
"""
PACKED_2D = "module t(input logic [1:0] i, output logic [7:0] y);\n  logic [3:0][7:0] m;\n  assign m = 32'h11223344;\n  assign y = m[i];\nendmodule\n"


def test_the_systemverilog_prompt_names_what_the_tools_refuse(tmp_path):
    # both cost Verilog models an attempt on VerilogEval (Prob139, Prob153); the tools still refuse them
    from bench.judge.tools import find_tool, tool_env
    text = system_prompt("verilog", "systemverilog")
    assert "`logic [3:0][7:0]`" in text and "enum variable" in text and "`localparam` codes" in text
    (tmp_path / "e.sv").write_text(ENUM_FROM_TERNARY)
    (tmp_path / "p.sv").write_text(PACKED_2D)
    iv = subprocess.run([find_tool("iverilog"), "-g2012", "-o", str(tmp_path / "e.vvp"), str(tmp_path / "e.sv")],
                        capture_output=True, text=True, env=tool_env())
    assert iv.returncode != 0 and "cast" in iv.stderr + iv.stdout
    ys = subprocess.run([find_tool("yosys"), "-q", "-p", f"read_verilog -sv {tmp_path / 'p.sv'}"],
                        capture_output=True, text=True, env=tool_env())
    assert ys.returncode != 0


def _attempt(result: str, detail: str, codes: list[str]) -> Attempt:
    stage = StageResult(stage="check", tool="sysr", tool_version="0", ran=True, verdict=result,
                        duration_s=0.0, detail=detail, codes=codes)
    return Attempt(n=1, feedback="", reply="", code="x", result=result, detail=detail, stages=[stage], tokens_in=1,
                   tokens_out=1, tokens_approximate=True, model_s=0.0, score_s=0.0)


def test_a_sysr_repair_carries_the_explanation_of_each_code():
    task = TASKS[0]
    detail = "candidate.sysr:3:5: error[T003]: ...\ncandidate.sysr:4:5: error[V007]: ..."
    done = [_attempt("check-failed", detail, ["T003", "V007", "T003"])]
    text = next_feedback(task, Settings("sysr", 4), done)
    assert detail in text
    assert "What the full reference says about T003, V007" in text
    assert "From the reference, §3.1 Literal typing" in text and "From the reference, §7.5 Fixing V007" in text
    assert text.count("T003: literal needs a type") == 1
    assert text.rstrip().endswith("in one fenced code block.")


def test_a_verilog_repair_carries_the_tools_messages_only():
    text = repair_message("verilog", "syntax", "design.v:3: syntax error", ["T003"])
    assert text == ("Your design did not pass. Result: syntax\n\ndesign.v:3: syntax error\n\n"
                    "Fix the design and reply with the whole corrected Verilog file in one fenced code block.\n")


def test_a_repair_without_codes_is_as_before():
    text = repair_message("sysr", "wrong-output", "FAIL cycle 3: y got 1 expected 2", [])
    assert "reference says" not in text and "FAIL cycle 3" in text


@pytest.mark.parametrize("task", TASKS, ids=[t.name for t in TASKS])
def test_the_stub_asks_for_what_the_reference_solution_uses(task):
    """What a task cannot be solved without (registers and the reset's kind) shows in its
    starting file, so the sections chosen from the stub are those its solution needs."""
    for stub in ("stub.sysr", "spec-stub.sysr") if task.has_spec_stub else ("stub.sysr",):
        have, need = features(task.text(stub)), features(task.text("ref.sysr"))
        assert have is not None and need is not None
        for tag in ("clocked", "async-reset"):
            assert RULES[tag](have) or not RULES[tag](need), f"{task.name}: {stub} does not ask for {tag}"
